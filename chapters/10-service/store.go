package service

import (
	"context"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// counter decides one rule's requests for any number of keys: one of the
// chapters' limiters, in memory or as a chapter 06 script on Redis.
type counter interface {
	AllowN(ctx context.Context, key string, cost int) (core.Decision, error)
	// Peek reads what key has left and counts nothing (a check).
	Peek(ctx context.Context, key string) (core.Decision, error)
}

// store builds each rule's counter. A rule's counter is built once per
// signature (path, unit, limit, algorithm) and kept across reloads, so the
// counts of a rule that did not change survive a reload.
type store interface {
	// counter returns the rule's limiter (r has a limit: not unlimited, > 0).
	counter(r *Rule) (counter, error)
	// remote reports whether the store is across the network (and so goes
	// through chapter 06's Guard).
	remote() bool
	// retain drops the counters of every signature not in keep.
	retain(keep map[string]bool)
	// describe is the one line the service prints at start.
	describe() string
	close() error
}

// window is a rule's unit as a duration.
func window(r *Rule) time.Duration { return time.Duration(r.Seconds()) * time.Second }
