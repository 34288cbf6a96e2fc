package core

import (
	"fmt"
	"time"
)

// Decision is what every limiter in this course answers for one request.
//
// Time is always passed in by the caller (see CONTRACT.md §1): a limiter never reads
// the wall clock, so the same arrivals always give the same decisions.
type Decision struct {
	// Allowed reports whether the request may go upstream.
	Allowed bool
	// Remaining is how many whole permits (cost units) are left for this key
	// right after the decision. It is never negative.
	Remaining int
	// RetryAfter is set on a rejection: the earliest delay after which the same
	// request would be allowed if nothing else arrived meanwhile. It is never
	// earlier than a permit exists, so a client honouring it is not rejected
	// again for the same reason. Zero when Allowed.
	RetryAfter time.Duration
	// Wait is how long an allowed request is held before it goes upstream.
	// Only a queueing algorithm (the leaky-bucket queue) sets it; every other
	// algorithm forwards at once.
	Wait time.Duration
}

// Algorithm is one key's rate-limit state machine: the textbook rule and
// nothing else. It is not safe for concurrent use; Keyed adds keys and locking.
//
// AllowN decides a request of the given cost arriving at now, an instant in
// the domain [Epoch, End) (Keyed.AllowN refuses any other). Calls come in
// non-decreasing time order, as requests do; an earlier now (a request
// stamped late, or a clock read just before another goroutine's) is decided
// at the latest time seen, and its RetryAfter and Wait still count from the
// caller's own now, so that waiting them out never arrives early. A cost
// outside [1, MaxCost()] can never be admitted: it is rejected with
// RetryAfter 0 and leaves the state untouched. Callers that take
// costs from outside use Keyed.AllowN or CheckCost to turn that into an error.
//
// MaxCost is the largest cost one request may carry (the limit L or the
// capacity C).
type Algorithm interface {
	AllowN(now time.Time, cost int) Decision
	MaxCost() int
}

// Idler is implemented by an Algorithm that can tell when its state has
// become indistinguishable from a key never seen: its window has passed, its
// log has emptied, its bucket is full again. From that moment on a fresh
// state decides every request exactly as the kept one would, so Keyed.Sweep
// may drop it without changing any answer. It is the in-memory counterpart of
// the TTL that a Redis key carries (chapter 06).
type Idler interface {
	Idle(now time.Time) bool
}

// ParamError reports a bad parameter: which one, what it was, and what is
// accepted. Every constructor in the course returns one instead of panicking,
// and the CLI prints it as the one line on stderr.
type ParamError struct {
	Param  string // the parameter's name, e.g. "window" or "limit"
	Value  string // what the caller passed, formatted
	Accept string // what is accepted, e.g. "> 0" or "an integer from 1 to capacity (3)"
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("invalid %s %s: accepted %s", e.Param, e.Value, e.Accept)
}

// BadParam is shorthand for building a *ParamError.
func BadParam(param string, value any, accept string) error {
	return &ParamError{Param: param, Value: fmt.Sprint(value), Accept: accept}
}

// CheckCost validates a per-request cost against an upper bound (a limit or a
// capacity) so that every algorithm rejects the same bad costs the same way.
func CheckCost(cost, max int) error {
	if cost < 1 || cost > max {
		return BadParam("cost", cost, fmt.Sprintf("an integer from 1 to %d", max))
	}
	return nil
}
