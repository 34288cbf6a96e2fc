// Package buckets is chapter 04: a token bucket stores permits and spends
// them; GCRA stores one instant and makes exactly the same decisions; a
// leaky-bucket queue uses the same test but holds each admitted request until
// its departure, so the upstream sees evenly spaced traffic. Each is one key's
// core.Algorithm (the New…Limiter constructors wrap them in core.Keyed);
// build with the tag "exercise" to run the tests against exercise.go.
package buckets
