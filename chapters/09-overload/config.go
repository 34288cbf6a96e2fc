package overload

// What the in-flight limit (inflight.go) and the AIMD limit (adaptive.go)
// share with the exercise that replaces them (exercise.go): the error of a
// Release without a slot, and the AIMD configuration and its checks.

import (
	"errors"

	"github.com/ratelimit-course/ratelimit/core"
)

// ErrNotHeld is returned by Release when no request holds a slot.
var ErrNotHeld = errors.New("overload: Release without a matching admitted Acquire")

// AIMDConfig bounds an AIMD limit.
type AIMDConfig struct {
	Initial, Min, Max int     // the start and the bounds, 1 <= Min <= Initial <= Max <= 1e9
	Backoff           float64 // the factor on a timeout, above 0 and below 1 (0.9 is usual)
}

// Validate reports the first bad field as a *core.ParamError.
func (c AIMDConfig) Validate() error {
	if err := core.CheckCount("max", c.Max); err != nil {
		return err
	}
	if c.Min < 1 || c.Min > c.Max {
		return core.BadParam("min", c.Min, "an integer from 1 to max")
	}
	if c.Initial < c.Min || c.Initial > c.Max {
		return core.BadParam("initial", c.Initial, "an integer from min to max")
	}
	if !(c.Backoff > 0 && c.Backoff < 1) {
		return core.BadParam("backoff", c.Backoff, "a number above 0 and below 1")
	}
	return nil
}
