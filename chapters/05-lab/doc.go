// Package lab is chapter 05: one arrival sequence, two algorithms, one ruler.
//
// The learner fixes a budget (window W, limit L, capacity C, rate R), feeds
// the same arrivals to any two algorithms of chapters 02–04 and measures both
// with the same ruler: the most requests upstream received inside any
// half-open window [s, s+W). Because the budget and the traffic are shared,
// every difference in the numbers comes from the algorithm alone.
//
// The engine is pure and deterministic: Run replays arrivals through the
// real chapter implementations (it never re-implements a rule) and records,
// per request, the decision, the send time and a snapshot of the key's state.
// Worst searches arrival sequences for the largest upstream burst an
// algorithm lets through, and Accuracy compares the sliding counter with the
// exact sliding log on ordinary random traffic.
package lab
