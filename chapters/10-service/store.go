package service

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// counter decides one rule's requests for any number of keys: one of the
// chapters' limiters, in memory or as a chapter 06 script on Redis. Its
// AllowN is chapter 06's Remote, so the Guard can stand in front of it.
type counter interface {
	distributed.Remote
	// Peek reads what key has left and counts nothing (a check).
	Peek(ctx context.Context, key string) (core.Decision, error)
}

// store builds each rule's counter. A rule's counter is built once per
// identity (path, unit, limit, algorithm) and kept across reloads, so the
// counts of a rule that did not change survive a reload.
type store interface {
	// counter returns the rule's limiter (r has a limit: not unlimited, > 0).
	counter(r *rules.Rule) (counter, error)
	// remote reports whether the store is across the network: its calls go
	// through chapter 06's Guard, and a request's calls are made at once.
	remote() bool
	// retain drops the counters of every rule not in keep.
	retain(keep map[rules.ID]bool)
	// collectors are the store's own metrics (none in memory).
	collectors() []prometheus.Collector
	// describe is the one line the service prints at start.
	describe() string
	close() error
}
