// Package buckets is chapter 04: the bucket family. A token bucket stores
// permits and spends them; GCRA stores one instant (the theoretical arrival
// time) and makes exactly the same decisions; a leaky-bucket queue uses the
// same test but holds each admitted request until its departure time, so the
// upstream sees evenly spaced traffic instead of a burst.
//
// All three implement core.Algorithm for one key and are not safe for
// concurrent use; the New…Limiter constructors wrap them in core.Keyed.
// Time is passed in by the caller and never read from the clock.
//
// Build with the tag "exercise" to swap the implementations for the stubs in
// exercise.go; the same tests then run against your code.
package buckets
