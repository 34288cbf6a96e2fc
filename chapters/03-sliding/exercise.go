//go:build exercise

package sliding

// This file is your exercise. Built with `-tags exercise` (make exercise
// CH=03), it replaces log.go and counter.go, and the chapter's tests run
// against your code. Config, Validate, LogState, CounterState and the Keyed
// wrappers (NewLogLimiter, NewCounterLimiter) live in config.go and are
// already done: NewLog and NewCounter call Validate for you.
//
// Fill in the TODOs until `make exercise CH=03` passes: Log first (its tests:
// TestE1_CrossBoundarySpike/sliding-log, TestSlidingLogAgeExactlyWIsOutside,
// TestSlidingLogNeverExceedsLimit, ExampleLog), then Counter with N = 1
// (TestE2…TestE4, ExampleCounter), then sub-windows and RetryAfter. The
// README walks through both rules; CONTRACT.md §2 has them in one line each
// (`sliding-log`, `sliding-counter`).
//
// Arithmetic: take t := now.UnixNano() and work in int64 nanoseconds.
// Validate keeps W within 1 ns..1e18 ns and L within 1..1e9, and the tests
// keep instants between 1970 and 2200, so t >= 0, t/S is floor(t/S), and an
// age t - ts, a time plus W, or the sub-window edge (cur+N+1)·S (at most
// W + S past a time, rounded down to the grid) cannot overflow. A product count*nanoseconds
// can (1e9 * 1e18), so compute the counter's estimate in float64.
//
// Both algorithms: a now earlier than the latest time the key has seen is
// decided at that latest time, t := max(now.UnixNano(), last), and its
// RetryAfter still counts from the caller's own now. A cost outside [1, L]
// is rejected with RetryAfter 0 and Remaining as it stands at t, and changes
// nothing (not even the latest time seen).

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// todo is what every unfinished constructor returns, so the tests fail with
// a pointer to the place to work instead of a nil-pointer panic. Delete it
// when you are done.
func todo(fn string) error {
	return fmt.Errorf("exercise: implement %s in chapters/03-sliding/exercise.go — see the chapter README", fn)
}

// Log is the sliding log: the time and cost of every allowed request in
// the window (t-W, t].
type Log struct {
	// TODO: W and L (int64 ns, int), the latest time seen, and the entries
	// kept, oldest first: one entry per allowed request, {t int64, cost int},
	// never one per permit (a request of cost 1e9 is one entry). A slice you
	// drop from the front and append to is enough; the cost of the entries
	// kept, as a field, saves summing them on every request.
}

// NewLog returns one key's sliding log.
func NewLog(c Config) (*Log, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO: build the Log from c and return it with a nil error.
	return nil, todo("NewLog")
}

// MaxCost is L.
func (l *Log) MaxCost() int {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now:
//
//  1. t := max(now.UnixNano(), last). Work out, without writing anything,
//     which of the oldest entries have age t - ts >= W (an entry exactly W
//     old is outside) and what the entries left hold: kept.
//  2. A cost outside [1, L]: return Decision{Remaining: L - kept}.
//  3. Drop those entries and remember t.
//  4. kept + cost <= L: append {t, cost}, allow, Remaining = L - kept - cost.
//  5. Otherwise reject (nothing is logged), Remaining = L - kept, and
//     RetryAfter = ts + W - now.UnixNano() for the first entry (oldest first)
//     at which the entries up to it hold at least kept + cost - L.
func (l *Log) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State copies the entries kept as of the last decision, oldest first: one
// LogEntry{At, Cost} per allowed request, whatever its cost (never one per
// permit: a request of cost 1e9 is one entry here too).
func (l *Log) State() LogState {
	// TODO
	return LogState{}
}

// Counter is the sliding-window counter: W split into N sub-windows of width
// S = W/N (N = max(1, Config.SubWindows); N = 1 is previous and current
// window), one allowed count per sub-window.
type Counter struct {
	// TODO: S, N and L; the latest time seen; the current sub-window id
	// cur = t/S; the N+1 counts of sub-windows cur-N .. cur (counts[0] the
	// oldest, partly covered one; counts[N] the current one); and the
	// estimate of the last decision, for State.
}

// NewCounter returns one key's sliding counter.
func NewCounter(c Config) (*Counter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO
	return nil, todo("NewCounter")
}

// MaxCost is L.
func (c *Counter) MaxCost() int {
	// TODO
	return 0
}

// Estimate is the sliding total at now, changing nothing (a now earlier than
// the latest seen counts as the latest): with j = t/S and e = t - j*S,
//
//	count[j-N]*(S-e)/S + count[j-N+1] + ... + count[j]
//
// where a sub-window that has been shifted out, or never seen, counts 0.
func (c *Counter) Estimate(now time.Time) float64 {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now:
//
//  1. t := max(now.UnixNano(), last); j := t/S; e := t - j*S; the counts as
//     they stand in sub-window j give the estimate (see Estimate).
//  2. A cost fits iff estimate + cost - 1 < L - 1e-9: the tolerance makes an
//     exact tie reject however float64 rounds. Remaining is the largest cost
//     that fits: the largest k in [0, L] for which the same rule holds
//     (start from ceil(L - 1e-9 - estimate) and check it with the rule).
//  3. A cost outside [1, L]: return Decision{Remaining: ...} and change
//     nothing.
//  4. Shift the counts forward to sub-window j (a gap of more than N
//     sub-windows clears them all), remember t and the estimate.
//  5. Fits: add cost to the current count, allow, and give Remaining with it
//     counted. Otherwise reject (nothing is counted), with RetryAfter = the
//     first instant u > t at which the same rule, at u, with these counts,
//     holds, minus now.UnixNano(). The estimate only falls as time passes,
//     so the rule is false at t and true for good from some instant on, at
//     the latest at the edge (cur+N+1)·S when every count has left (not
//     t + (N+1)·S, which can pass int64 at the end of the domain): bisect between the
//     two, evaluating the rule at mid with the counts as they would stand
//     then (step 2 again, without writing). Floats round, so ask the rule
//     itself rather than solving the formula: RetryAfter must never be early.
func (c *Counter) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counts as of the last decision: WindowID is cur, Prev
// the oldest count, Curr the sum of the N newer ones, Estimate the value the
// last decision compared (before its own cost was added), and Sub, when
// N > 1, a copy of the N+1 counts oldest first (nil when N = 1). A key never
// seen has every field zero.
func (c *Counter) State() CounterState {
	// TODO
	return CounterState{}
}
