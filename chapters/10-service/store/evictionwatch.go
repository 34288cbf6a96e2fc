package store

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// The policy read at start can change under a running service: an
// operator's CONFIG SET, a provider's parameter group applied at night.
// So the service reads it again every minute (Options.
// RedisEvictionCheckEvery); a change to a policy that may evict is logged
// once, and ratelimit_redis_eviction_policy_ok drops from 1 to 0 until the
// policy is noeviction again. A policy stated with --redis-eviction-policy
// is read too, and if the server refuses CONFIG the watch stops: the
// operator's word is all there is.

// DefaultEvictionCheckEvery is how often a running service reads the policy again.
const DefaultEvictionCheckEvery = time.Minute

// evictionWatch re-reads maxmemory-policy and reports a change.
type evictionWatch struct {
	client redis.UniversalClient
	log    *slog.Logger
	stated bool // the policy was stated by flag, not read at start
	ok     prometheus.Gauge

	mu      sync.Mutex
	last    string // "" = noeviction on every primary; else the server and the policy that may evict
	stopped bool   // CONFIG refused where the policy was stated: nothing to watch

	stop chan struct{}
	done chan struct{}
}

// newEvictionWatch starts a watch reading the policy every period (none if
// every <= 0; check can still be called).
func newEvictionWatch(client redis.UniversalClient, log *slog.Logger, every time.Duration, stated bool) *evictionWatch {
	w := &evictionWatch{client: client, log: log, stated: stated, stop: make(chan struct{}), done: make(chan struct{}),
		ok: prometheus.NewGauge(prometheus.GaugeOpts{Name: "ratelimit_redis_eviction_policy_ok",
			Help: "1 while Redis's maxmemory-policy (last read, or stated by flag) is noeviction; 0 once a policy that may evict the limiter's keys is read."})}
	w.ok.Set(1) // read (or stated) at start, or the service would not have started
	if every <= 0 {
		close(w.done)
		return w
	}
	go w.run(every)
	return w
}

func (w *evictionWatch) run(every time.Duration) {
	defer close(w.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			w.check(ctx)
			cancel()
		}
	}
}

// check reads the policy once, and logs and exports a change.
func (w *evictionWatch) check(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	err := distributed.CheckNoEviction(ctx, w.client)
	var evicting *distributed.EvictionError
	var reply redis.Error
	switch {
	case err == nil:
		if w.last != "" {
			w.log.Info("redis: maxmemory-policy is noeviction again on every primary")
		}
		w.last = ""
		w.ok.Set(1)
	case errors.As(err, &evicting):
		now := evicting.Addr + " " + evicting.Policy
		if now != w.last {
			w.log.Warn("redis: a primary's maxmemory-policy may evict the limiter's keys and start their budgets again from full; "+
				"set it back to noeviction (CONFIG SET maxmemory-policy noeviction, or the provider's settings)",
				"node", evicting.Addr, "policy", evicting.Policy)
		}
		w.last = now
		w.ok.Set(0)
	case w.stated && errors.As(err, &reply):
		// The server answers but refuses CONFIG: the flag's word stands.
		w.stopped = true
	}
	// Any other error is Redis not answering now: the store's health
	// reports that, and the next check reads the policy again.
}

// close stops the watch and waits for it.
func (w *evictionWatch) close() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}
