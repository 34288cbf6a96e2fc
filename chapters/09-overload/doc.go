// Package overload is chapter 09, beyond the counter: the limits a rate per
// key does not replace, for when the question is "the dependency is slow" or
// "the system is overloaded" rather than "this client asks too much".
//
// One idea per file, each with its worked example (CONTRACT.md E24–E31)
// pinned by a test of the same name:
//
//   - inflight.go, littleslaw.go (E24): a concurrency limit, Acquire and
//     Release, and a simulation with explicit time that shows why a rate
//     limit lets work pile up when latency grows;
//   - shedding.go, status.go (E25): priority shedding with slots reserved for
//     critical work; 503 for "we are overloaded", 429 for "you asked too much";
//   - herd.go, throttle.go (E26): the retry herd, client-side adaptive
//     throttling and a retry budget;
//   - regions.go, lagged.go (E27): one global limit over several regions;
//   - budget.go (E28): cost budgets that reserve the worst case and refund;
//   - adaptive.go (E29): AIMD and the gradient rule for a limit that moves;
//   - fairshare.go (E30): weighted max-min fair shares;
//   - shadow.go (E31): shadow mode and a near-limit signal.
//
// exercise.go is the learner's InFlight, AIMD and Gradient, built instead of
// inflight.go and adaptive.go with -tags exercise09 (make exercise CH=09);
// config.go holds what both share.
//
// As everywhere in the course, time is passed in by the caller and never read
// from the clock, randomness comes from a seeded generator or a draw the
// caller supplies, and a bad parameter is a *core.ParamError.
package overload
