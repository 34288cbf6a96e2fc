// Package core is the vocabulary every chapter shares: the Decision a limiter
// returns, the Algorithm one key runs, the ParamError a bad configuration gets,
// Keyed (one Algorithm per key, safe for concurrent use), the domain every
// Config is checked against, and the ruler MaxInWindow that measures what
// reached upstream. The course contract (CONTRACT.md at the repository root)
// defines what each algorithm computes.
package core
