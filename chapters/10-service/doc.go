// Package service is chapter 10: the rate limiter as a service. It speaks
// Envoy's rate limit protocol (envoy.service.ratelimit.v3.RateLimitService
// over gRPC, and the same request as JSON at POST /json), loads rules in
// envoyproxy/ratelimit's YAML format and matches descriptors as that
// service does, and counts in Redis through chapter 06's scripts (or in
// memory through chapters 02–04). Around the count sit the parts a service
// needs: a deny cache that answers over-limit keys from memory (two tiers),
// pipelines shared by concurrent decisions, a failure mode per domain
// through chapter 06's Guard, rules reloaded without a restart, and
// Prometheus metrics. CONTRACT-CLI.md §5 and CONTRACT.md E32–E38 fix what it computes.
//
// The packages, split as envoyproxy/ratelimit splits its src/: rules
// (loading and matching the rules; the exercise), store (the Store the
// service counts in, and whose clock it reads), server (the gRPC, HTTP,
// admin and debug listeners, their caps and the drain), this package (the
// service: decide, verdict, deny cache, metrics, reload; Start opens the
// listeners its Options name) and cmd/ratelimit (the service's own binary;
// `tui serve` is the same Command). The matching is rules/walk.go's; built with -tags
// exercise10 (make exercise CH=10), the learner's rules/exercise.go takes
// its place, and rules/match.go holds what both share.
package service
