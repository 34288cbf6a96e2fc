//go:build !exercise09

package overload

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// AIMD is an additive-increase, multiplicative-decrease concurrency limit,
// TCP's congestion window applied to requests in flight: after each window of
// requests it grows by 1 if none timed out (or was dropped) and is multiplied
// by Backoff, rounded down, if one did, always within [Min, Max]. It probes
// upwards slowly and backs off fast, so it settles just under what the
// dependency can take. Not safe for concurrent use; feed it from one place.
type AIMD struct {
	cfg   AIMDConfig
	limit int
}

// NewAIMD returns a limit at c.Initial, or the configuration's error.
func NewAIMD(c AIMDConfig) (*AIMD, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &AIMD{cfg: c, limit: c.Initial}, nil
}

// Update applies one window's outcome and returns the new limit.
func (a *AIMD) Update(timedOut bool) int {
	if timedOut {
		a.limit = max(a.cfg.Min, int(float64(a.limit)*a.cfg.Backoff))
	} else {
		a.limit = min(a.cfg.Max, a.limit+1)
	}
	return a.limit
}

// Limit is the current limit.
func (a *AIMD) Limit() int { return a.limit }

// Gradient is the update rule of Netflix concurrency-limits' GradientLimit,
// without the smoothing, tolerance and probing the library adds: the limit is
// scaled by how far the latency has risen above its no-load value, the ratio
// noLoad/current clamped to [0.5, 1], plus a queue allowance that lets it
// grow while latency stays flat:
//
//	new = limit × clamp(noLoad/current, 0.5, 1) + queue
func Gradient(limit float64, noLoad, current time.Duration, queue float64) (float64, error) {
	switch {
	case !(limit >= 1 && limit <= core.MaxCount):
		return 0, core.BadParam("limit", limit, "a number from 1 to 1e9")
	case noLoad <= 0 || current <= 0:
		return 0, core.BadParam("rtt", []time.Duration{noLoad, current}, "durations above 0")
	case !(queue >= 0 && queue <= core.MaxCount):
		return 0, core.BadParam("queue", queue, "a number from 0 to 1e9")
	}
	g := math.Max(0.5, math.Min(1, float64(noLoad)/float64(current)))
	return limit*g + queue, nil
}
