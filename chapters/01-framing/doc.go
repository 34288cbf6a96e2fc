// Package framing is chapter 01: the four questions every rate-limiter design
// answers (key, traffic shape, shared state, placement), answered in code:
// who is counted (a key store that verifies credentials, keys that cannot
// collide, the client address behind trusted proxies), what a request costs,
// and the HTTP contract (429, Retry-After and the quota headers) in a
// middleware chain. The vocabulary every chapter shares (Decision, Algorithm,
// Keyed) lives in package core.
package framing
