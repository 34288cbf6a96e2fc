package lab

import (
	"fmt"
	"math"

	"github.com/ratelimit-course/ratelimit/core"
)

// MaxArrivals bounds one generated sequence (and one arrivals file in the
// CLI): ten million requests replay in a few seconds and fit in memory.
const MaxArrivals = 10_000_000

// The generators below make the usual shapes of traffic in whole ms from 0,
// so that a learner can replay a million requests without writing them out.
// Each validates its parameters (a *core.ParamError naming "traffic") and
// refuses a sequence longer than MaxArrivals.

// PoissonArrivals is a Poisson stream of ratePerS requests per second on
// average over [0, durationMS): independent exponential gaps of mean
// 1000/ratePerS ms, each arrival floored to its millisecond. The seed fixes
// the sequence on every machine and Go version.
func PoissonArrivals(ratePerS float64, durationMS int64, seed uint64) ([]int64, error) {
	if err := checkShape(ratePerS, durationMS); err != nil {
		return nil, err
	}
	expect := ratePerS * float64(durationMS) / 1000
	if expect > MaxArrivals {
		return nil, tooMany(ratePerS, durationMS)
	}
	rng := splitmix(seed)
	meanGap := 1000 / ratePerS
	out := make([]int64, 0, int(min(expect+4*math.Sqrt(expect)+16, MaxArrivals)))
	for t := rng.exp() * meanGap; t < float64(durationMS); t += rng.exp() * meanGap {
		if len(out) == MaxArrivals {
			return nil, tooMany(ratePerS, durationMS)
		}
		out = append(out, int64(t))
	}
	return out, nil
}

// SteadyArrivals is one request every 1000/ratePerS ms over [0, durationMS):
// the i-th at floor(i·1000/ratePerS).
func SteadyArrivals(ratePerS float64, durationMS int64) ([]int64, error) {
	if err := checkShape(ratePerS, durationMS); err != nil {
		return nil, err
	}
	n := math.Ceil(ratePerS * float64(durationMS) / 1000)
	if n > MaxArrivals {
		return nil, tooMany(ratePerS, durationMS)
	}
	out := make([]int64, 0, int(n))
	for i := 0; ; i++ {
		t := int64(float64(i) * 1000 / ratePerS)
		if t >= durationMS {
			return out, nil
		}
		out = append(out, t)
	}
}

// BurstArrivals is bursts of size requests arriving in the same millisecond,
// the bursts themselves a Poisson stream with a mean gap of everyMS over
// [0, durationMS): the shape of clients that retry or fan out together.
func BurstArrivals(size int, everyMS float64, durationMS int64, seed uint64) ([]int64, error) {
	if size < 1 || size > MaxArrivals {
		return nil, core.BadParam("traffic", size, "a burst size from 1 to 1e7")
	}
	if !(everyMS >= 1e-6) || math.IsInf(everyMS, 0) {
		return nil, core.BadParam("traffic", everyMS, "a finite mean gap between bursts of at least 1e-6 ms")
	}
	if err := checkShape(1, durationMS); err != nil {
		return nil, err
	}
	if float64(size)*float64(durationMS)/everyMS > MaxArrivals {
		return nil, core.BadParam("traffic", fmt.Sprintf("bursts of %d every %g ms for %d ms (about %.3g requests)",
			size, everyMS, durationMS, float64(size)*float64(durationMS)/everyMS),
			"at most 1e7 requests (fewer or smaller bursts, or a shorter duration)")
	}
	rng := splitmix(seed)
	var out []int64
	for t := rng.exp() * everyMS; t < float64(durationMS); t += rng.exp() * everyMS {
		if len(out)+size > MaxArrivals {
			return nil, core.BadParam("traffic", fmt.Sprintf("%d requests or more", len(out)+size),
				"at most 1e7 requests (fewer or smaller bursts, or a shorter duration)")
		}
		for range size {
			out = append(out, int64(t))
		}
	}
	return out, nil
}

func checkShape(ratePerS float64, durationMS int64) error {
	if !(ratePerS > 0) || ratePerS > 1e9 {
		return core.BadParam("traffic", ratePerS, "a rate > 0 and <= 1e9 requests per second")
	}
	if durationMS < 1 || durationMS > maxMS {
		return core.BadParam("traffic", durationMS, "a duration from 1 ms to 1e12 ms")
	}
	return nil
}

func tooMany(ratePerS float64, durationMS int64) error {
	return core.BadParam("traffic", fmt.Sprintf("%g/s for %d ms (about %.3g requests)", ratePerS, durationMS,
		ratePerS*float64(durationMS)/1000), "at most 1e7 requests (a lower rate or a shorter duration)")
}
