package core

import (
	"fmt"
	"math"
	"time"
)

// The course's domain. Every Config validates against these bounds at
// construction, so inside them the algorithms can use the textbook's
// arithmetic (int64 nanoseconds, float64 tokens) without guards.
//
//   - Instants lie between the Unix epoch and the year 2200, so a time is a
//     non-negative int64 count of nanoseconds with room to add a window.
//   - A window is from 1 ns to 1e18 ns (about 31.7 years).
//   - A count (a limit L, a capacity C, a cost) is from 1 to 1e9.
//   - A rate is from above 0 to 1e9 per second, and a bucket refills from
//     empty (C/R) in at most 1e9 s.
const (
	MaxCount  = 1_000_000_000
	MaxWindow = time.Duration(1e18)
	MaxRate   = 1e9
	MaxFill   = 1e9 // seconds
)

// Tolerance is the contract's 1e-9 (CONTRACT.md §1): where a chapter decides
// with floating point, a value within Tolerance of a token (or of a count, or
// of a millisecond: 1e-3 ns) counts as a tie, so that a tie comes out the way
// exact arithmetic has it however the floats rounded.
const Tolerance = 1e-9

// Epoch and End bound the instants a limiter accepts.
var (
	Epoch = time.Unix(0, 0)
	End   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// CheckCount validates a limit or capacity named param.
func CheckCount(param string, v int) error {
	if v < 1 || v > MaxCount {
		return BadParam(param, v, "an integer from 1 to 1e9")
	}
	return nil
}

// CheckWindow validates a window width named param.
func CheckWindow(param string, d time.Duration) error {
	if d <= 0 || d > MaxWindow {
		return BadParam(param, d, "a duration from 1ns to 1e18ns (about 31.7 years)")
	}
	return nil
}

// CheckRate validates a refill rate per second for a bucket of capacity c
// (already valid).
func CheckRate(param string, r float64, c int) error {
	if math.IsNaN(r) || r <= 0 || r > MaxRate {
		return BadParam(param, r, "a number > 0 and <= 1e9 (per second)")
	}
	if float64(c)/r > MaxFill {
		return BadParam(param, r, fmt.Sprintf(
			"at least capacity/1e9 = %g per second (a full bucket must refill within 1e9 s)", float64(c)/MaxFill))
	}
	return nil
}

// CheckTime validates an instant against the domain [Epoch, End).
func CheckTime(now time.Time) error {
	if now.Before(Epoch) || !now.Before(End) {
		return BadParam("time", now.UTC().Format(time.RFC3339Nano), "an instant from 1970-01-01 to 2200-01-01 UTC")
	}
	return nil
}
