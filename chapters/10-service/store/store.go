// Package store is where chapter 10's service counts, as the reference's
// src/limiter and src/redis: the Store interface the service takes, the
// in-memory store (chapters 02-04's limiters, NewMemory), Redis, Sentinel
// or a Redis Cluster (chapter 06's scripts, NewRedis, reached as
// RedisOptions.Conn says) and the Outage switch that wraps a store to
// take it down.
package store

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// Counter decides one rule's requests for any number of keys: one of the
// chapters' limiters, in memory or as a chapter 06 script on Redis. Its
// AllowN is chapter 06's Remote, so the Guard can stand in front of it.
type Counter interface {
	distributed.Remote
	// Peek reads what key has left and counts nothing (a check).
	Peek(ctx context.Context, key string) (core.Decision, error)
}

// Store builds each rule's Counter: the in-memory store (NewMemory), Redis
// or a Redis Cluster (the service builds it from its Options' Redis
// fields), or a store behind an Outage switch (Outage.Wrap), given in the
// service's Options.Store. A rule's
// counter is built once per identity (path, unit, limit, algorithm) and
// kept across reloads, so the counts of a rule that did not change survive
// a reload. The service closes the store it was given.
type Store interface {
	// Counter returns the rule's limiter (r has a limit: not unlimited, > 0).
	Counter(r *rules.Rule) (Counter, error)
	// Remote reports whether the store is across the network: its calls go
	// through chapter 06's Guard, and a request's calls are made at once.
	Remote() bool
	// Retain drops the counters of every rule not in keep.
	Retain(keep map[rules.ID]bool)
	// Collectors are the store's own metrics (none in memory).
	Collectors() []prometheus.Collector
	// Now is the store's clock: the time its windows are on, which the
	// service reads for a response's reset and its deny cache. The
	// in-memory store's is MemoryOptions.Now; Redis's the wall clock.
	Now() time.Time
	// Describe is the one line the service prints at start.
	Describe() string
	// Close stops what the store runs and closes its connections; a
	// second call does nothing.
	Close() error
}
