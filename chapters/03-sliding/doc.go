// Package sliding is chapter 03: two ways to make the window slide with the
// clock instead of jumping at fixed edges.
//
// Log (`sliding-log`) remembers the time of every allowed request and is exact:
// never more than L in any span of length W, at the price of O(L) memory per
// key. Counter (`sliding-counter`) keeps a few counts and estimates the
// sliding total by weighting the oldest, partly covered count by how much of
// it still lies inside the window: O(1) memory, usually close, and exactly as
// bad as a fixed window (2L in some W) on the worst uneven traffic.
package sliding
