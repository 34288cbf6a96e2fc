// Package sim is chapter 06's teaching simulations: what counting per node
// admits next to one shared counter (E8), a hot key split over several
// (SplitKey), local quota prefetch replayed request by request
// (E12, E13) and delayed write-back (E14). None talks to Redis and no
// production code runs them; the parts a service runs (the scripts, the
// Guard, the Breaker, the Batcher, the PrefetchNode) are in the parent
// package, distributed, whose PrefetchNode a test compares with
// Prefetch.
package sim
