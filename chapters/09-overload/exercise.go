//go:build exercise09

package overload

// This file is your exercise. Built with `-tags exercise09` (make exercise
// CH=09), it replaces inflight.go and adaptive.go, and the chapter's tests
// run against your code. ErrNotHeld, AIMDConfig and its Validate live in
// config.go and are done; Serve, Gate and Load (littleslaw.go), which
// E24's simulation runs on, are done too.
//
// Write, in this order (the README's "Run the exercise" lists the tests):
//
//  1. InFlight: a concurrency limit. TestInFlightAcquireRelease first, then
//     TestE24_InFlightVsRate and, with -race, TestInFlightNeverExceedsLimit.
//  2. AIMD: a limit that moves. TestE29_AIMD, then TestAIMDStaysInBounds and
//     TestAIMDFindsCapacity (your AIMD driving your InFlight).
//  3. Gradient: the latency rule. TestE29_Gradient.
//
// Bad parameters are a *core.ParamError naming the parameter:
// core.CheckCount(name, n) checks an integer from 1 to 1e9, and
// core.BadParam(name, value, "what is accepted") builds one for anything
// else. TestInFlightBadParams and TestAdaptiveBadParams check the names.

import (
	"errors"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// todo is what every unfinished function returns, so that the tests fail
// with the place to work instead of a nil-pointer panic. Delete it, and the
// "errors" import with it, when you are done.
func todo(fn string) error {
	return errors.New("exercise: implement " + fn + " in chapters/09-overload/exercise.go — see the chapter README, Run the exercise")
}

// InFlight is a concurrency limit of N: a request is admitted iff fewer than
// N requests are in progress, and it holds its slot until Release. No clock:
// a slot comes back when the work ends. Safe for concurrent use: every
// method is called from many goroutines at once.
type InFlight struct {
	// TODO: the limit N, how many slots are held, and what keeps two
	// goroutines from taking the last slot together.
}

// NewInFlight returns a limit of limit (1 to 1e9, else a *core.ParamError
// naming "limit") with nothing in flight.
func NewInFlight(limit int) (*InFlight, error) {
	// TODO
	return nil, todo("NewInFlight")
}

// Acquire admits a request iff fewer than N slots are held, and then takes
// one: Decision{Allowed: true, Remaining: the free slots left}. A rejection
// is the zero Decision (no RetryAfter: when a slot frees depends on the
// work in progress, not on a clock).
func (l *InFlight) Acquire() core.Decision {
	// TODO
	return core.Decision{}
}

// Release gives one slot back, or returns ErrNotHeld (changing nothing)
// when no slot is held.
func (l *InFlight) Release() error {
	// TODO
	return todo("Release")
}

// SetLimit moves N (1 to 1e9, else a *core.ParamError naming "limit").
// Slots already held stay held: a lower N only stops admissions until
// enough requests finish.
func (l *InFlight) SetLimit(limit int) error {
	// TODO
	return todo("SetLimit")
}

// InFlight reports how many slots are held.
func (l *InFlight) InFlight() int {
	// TODO
	return 0
}

// AIMD is additive increase, multiplicative decrease, run once per window of
// requests: +1 after a window with no timeout, × Backoff rounded down after
// one with a timeout, and always kept within [Min, Max]. Used from one
// goroutine; it needs no lock.
type AIMD struct {
	// TODO: the configuration and the current limit.
}

// NewAIMD returns a limit at c.Initial, or c.Validate()'s error.
func NewAIMD(c AIMDConfig) (*AIMD, error) {
	// TODO
	return nil, todo("NewAIMD")
}

// Update applies one window's outcome and returns the new limit. From 20
// with Backoff 0.9: ten clean windows give 30, then a timeout gives 27.
// The cut rounds down (25 × 0.9 = 22.5 gives 22), then clamps: 1 × 0.5 is
// 0, which Min (at least 1) lifts back.
func (a *AIMD) Update(timedOut bool) int {
	// TODO
	return 0
}

// Limit is the current limit.
func (a *AIMD) Limit() int {
	// TODO
	return 0
}

// Gradient is the update rule of Netflix concurrency-limits' GradientLimit,
// bare:
//
//	new = limit × clamp(noLoad/current, 0.5, 1) + queue
//
// Check first, in this order, each with a *core.ParamError: limit a number
// from 1 to 1e9 (NaN fails too: write the test as !(limit >= 1 && limit <=
// core.MaxCount)), naming "limit"; noLoad and current above 0, naming "rtt"
// with the offending duration as the value; queue from 0 to 1e9, NaN
// failing too, naming "queue". Divide the durations as float64s.
func Gradient(limit float64, noLoad, current time.Duration, queue float64) (float64, error) {
	// TODO
	return 0, todo("Gradient")
}
