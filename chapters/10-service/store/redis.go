package store

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// redisStore keeps every count in Redis or a Redis Cluster: each rule is
// one of chapter 06's limiters, so each decision is one atomic script call
// on the key's node, timed by the server's clock (E9, E11). The service
// itself holds no count and any number of replicas share one limit.
type redisStore struct {
	client  redis.UniversalClient
	scripts redis.Scripter // the batcher, or the client itself
	batch   scriptBatcher  // nil when batching is off (nodebatch.go)
	watch   *evictionWatch // re-reads the eviction policy (evictionwatch.go)
	where   string
}

// RedisConfig is how the service reaches Redis.
type RedisConfig struct {
	Conn     *RedisConn    // the server, Cluster or Sentinel, with its auth and TLS (redisconn.go)
	Patience time.Duration // how long the Guard waits on a silent store
	Batch    bool          // share pipelines between concurrent calls (chapter 06's Batcher)

	EvictionPolicy string        // maxmemory-policy stated, not read (eviction.go); "" = CONFIG GET
	WatchEvery     time.Duration // how often the running service reads it again; <= 0: never
	Log            *slog.Logger  // where the watch reports a change
}

// NewRedis dials, checks that the server answers (redisping.go) and
// will not evict the limiter's keys (chapter 06, E20), and starts the
// batcher. A Redis that cannot be reached or logged in to at start is an
// error: the service refuses to start rather than run on a store it never
// saw, even with the eviction policy stated.
func NewRedis(ctx context.Context, c RedisConfig) (Store, error) {
	if err := checkStatedPolicy(c.EvictionPolicy); err != nil { // eviction.go
		return nil, err
	}
	client, pipe := c.Conn.client(c.Patience)
	where := c.Conn.String()
	check, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pingRedis(check, client, c.Conn); err != nil {
		_ = client.Close()
		return nil, err
	}
	if err := checkEviction(check, client, c.EvictionPolicy); err != nil { // eviction.go
		_ = client.Close()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	s := &redisStore{client: client, scripts: client, where: where}
	if c.Batch {
		// A pipeline's own deadline is far past the Guard's: a pipeline of
		// many calls that waited for a CPU is not a dead store, and failing
		// it would fail every call in it (the Guard judges the store by
		// whether it answers at all).
		b, err := newBatcher(client, pipe, distributed.BatcherOptions{Workers: 4, Max: 256,
			Timeout: min(time.Minute, 10*c.Patience)})
		if err != nil {
			_ = client.Close()
			return nil, err
		}
		s.batch, s.scripts = b, b
	}
	// Checked once above, for the whole store: the limiters skip it.
	s.scripts = distributed.AssumeNoEviction(s.scripts)
	s.watch = newEvictionWatch(client, c.Log, c.WatchEvery, c.EvictionPolicy != "")
	return s, nil
}

func (s *redisStore) Counter(r *rules.Rule) (Counter, error) {
	lim, err := NewLimiter[Counter](r, redisLimiters{s.scripts})
	if err != nil {
		return nil, err
	}
	return redisCounter{lim: lim, unit: r.Unit.String() + ":"}, nil
}

// redisLimiters are chapter 06's scripts, one limiter per rule.
type redisLimiters struct{ scripts redis.Scripter }

func (m redisLimiters) FixedWindow(c fixedwindow.Config) (Counter, error) {
	return distributed.NewFixedWindow(m.scripts, c)
}

func (m redisLimiters) SlidingCounter(c sliding.Config) (Counter, error) {
	return distributed.NewSlidingCounter(m.scripts, c)
}

func (m redisLimiters) TokenBucket(c buckets.Config) (Counter, error) {
	return distributed.NewTokenBucket(m.scripts, c)
}

func (m redisLimiters) GCRA(c buckets.Config) (Counter, error) {
	return distributed.NewGCRA(m.scripts, c)
}

// redisCounter turns the service's key into a chapter 06 identity. The
// identity carries the rule's unit: a rule whose limit changes keeps its
// count, as in the reference, but one whose unit changes starts afresh
// (chapter 06's window script would otherwise count a per-minute key's old
// window, whose id is larger, as the current per-hour one until it expired).
type redisCounter struct {
	lim  Counter
	unit string
}

func (c redisCounter) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	return c.lim.AllowN(ctx, redisID(c.unit+key), cost)
}

func (c redisCounter) Peek(ctx context.Context, key string) (core.Decision, error) {
	return c.lim.Peek(ctx, redisID(c.unit+key))
}

// ID is the name key's count has in Redis under this counter (its unit
// and the key, escaped), inside chapter 06's hash tag.
func (c redisCounter) ID(key string) string { return redisID(c.unit + key) }

// CheckEviction reads the eviction policy once, as the running store does
// every WatchEvery, and reports whether the watch has stopped (a server
// that refuses CONFIG, the policy stated).
func (s *redisStore) CheckEviction(ctx context.Context) (stopped bool) {
	s.watch.check(ctx)
	return s.watch.stopped
}

// redisID escapes a key for chapter 06's hash tag: the identity sits
// between braces, so it must hold none. Each identity gets a slot of its own
// in a cluster (chapter 06, E21).
func redisID(key string) string { return url.QueryEscape(key) }

func (s *redisStore) Remote() bool             { return true }
func (s *redisStore) Retain(map[rules.ID]bool) {}
func (s *redisStore) Describe() string         { return "store: " + s.where }
func (s *redisStore) Now() time.Time           { return time.Now() }

// Collectors report chapter 06's Batcher: the pipelines it sent, the script
// calls they carried, and the calls sent alone because nothing else was in
// flight (none without batching).
func (s *redisStore) Collectors() []prometheus.Collector {
	if s.batch == nil {
		return []prometheus.Collector{s.watch.ok}
	}
	stat := func(name, help string, v func(distributed.BatcherStats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(v(s.batch.Stats())) })
	}
	return []prometheus.Collector{s.watch.ok,
		stat("ratelimit_redis_pipelines_total", "Pipelines sent to Redis.",
			func(st distributed.BatcherStats) int64 { return st.Pipelines }),
		stat("ratelimit_redis_pipelined_calls_total", "Script calls sent in a pipeline.",
			func(st distributed.BatcherStats) int64 { return st.Batched }),
		stat("ratelimit_redis_direct_calls_total", "Script calls sent alone, nothing else being in flight.",
			func(st distributed.BatcherStats) int64 { return st.Alone }),
	}
}

func (s *redisStore) Close() error {
	s.watch.close()
	if s.batch != nil {
		s.batch.Close()
	}
	return s.client.Close()
}
