// Package ring is chapter 11: limits without a shared store. Each key has one
// owner, the peer a consistent-hash ring with virtual nodes names; the owner
// decides with chapter 04's token bucket and every other peer forwards to it,
// in batches (gubernator's BATCHING). In GLOBAL mode a peer answers from its
// last copy of the owner's state and sends its hits later; the owner merges
// them and broadcasts the result. Build with the tag "exercise11" to run the
// tests against exercise.go.
package ring
