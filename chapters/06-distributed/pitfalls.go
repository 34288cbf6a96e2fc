package distributed

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/redis/go-redis/v9"
)

// This file holds the two broken limiters the chapter takes apart. Neither
// is for use: each exists so that a test can show the failure on a real Redis.

// NaiveCounter is the read-compute-write limiter of E9: GET the count, decide
// in Go, SET the new count. Between the read and the write nothing holds the
// key, so two nodes that read the same count both spend the same permit.
type NaiveCounter struct {
	rdb    redis.Cmdable
	window time.Duration
	limit  int
	// BetweenReadAndWrite, when set, runs after the GET and before the SET.
	// Tests put another node's whole request there to force the interleaving
	// that, in production, happens by chance under load.
	BetweenReadAndWrite func()
}

// NewNaiveCounter returns the E9 limiter: at most limit requests per key,
// the count expiring window after its last write.
func NewNaiveCounter(rdb redis.Cmdable, window time.Duration, limit int) (*NaiveCounter, error) {
	if err := checkFixed(fixedwindow.Config{Window: window, Limit: limit}); err != nil {
		return nil, err
	}
	return &NaiveCounter{rdb: rdb, window: window, limit: limit}, nil
}

// Allow decides one request for id in three round trips: GET, (hook), SET.
func (n *NaiveCounter) Allow(ctx context.Context, id string) (core.Decision, error) {
	if err := checkID(id); err != nil {
		return core.Decision{}, err
	}
	key := Key(id, "naive")
	count, err := n.rdb.Get(ctx, key).Int()
	if err != nil && !errors.Is(err, redis.Nil) {
		return core.Decision{}, fmt.Errorf("distributed: naive GET %q: %w", key, err)
	}
	if n.BetweenReadAndWrite != nil {
		n.BetweenReadAndWrite()
	}
	if count >= n.limit {
		return core.Decision{RetryAfter: n.window}, nil
	}
	// The write is based on what was read, not on what is there now.
	if err := n.rdb.Set(ctx, key, count+1, n.window).Err(); err != nil {
		return core.Decision{}, fmt.Errorf("distributed: naive SET %q: %w", key, err)
	}
	return core.Decision{Allowed: true, Remaining: n.limit - count - 1}, nil
}

//go:embed scripts/expire_on_first_hit.lua
var expireOnFirstHitLua string

var expireOnFirstHitScript = newTimelessScript(expireOnFirstHitLua)

// ExpireOnFirstHit is the trap of E10: the fixed-window-ttl counter, but the
// expiry is set only when the request created the key (count == cost). It
// works until the key once exists without an expiry (an INCR whose PEXPIRE
// never arrived); from then on nothing repairs it, the key never expires and
// the identity is rejected forever, with no error anywhere. It shares its key
// with FixedWindowTTL so the two can be compared on the same state.
type ExpireOnFirstHit struct{ limiter }

// NewExpireOnFirstHit returns the E10 trap limiter on rdb.
func NewExpireOnFirstHit(rdb redis.Scripter, cfg fixedwindow.Config) (*ExpireOnFirstHit, error) {
	if err := checkFixed(cfg); err != nil {
		return nil, err
	}
	return &ExpireOnFirstHit{limiter{rdb: rdb, script: expireOnFirstHitScript, name: "expire-on-first-hit", kind: "fwt",
		params: []any{cfg.Window.Milliseconds()}, max: cfg.Limit, counts: true}}, nil
}
