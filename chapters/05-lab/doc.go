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
// per request, the decision and the send time, in time and memory linear in
// the number of requests; Result.Explain puts one request's state and reason
// in words when someone looks at it.
// Worst searches arrival sequences for the largest upstream burst an
// algorithm lets through, and Accuracy compares the sliding counter with the
// exact sliding log on ordinary random traffic.
package lab
