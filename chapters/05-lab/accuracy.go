package lab

import (
	"fmt"
	"math"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

// AccuracyReport compares the sliding counter with the exact sliding log on
// the same ordinary traffic: independent keys, each a Poisson stream.
type AccuracyReport struct {
	Seed          uint64
	Keys          int
	MeanPerWindow float64 // each key's mean arrivals per window W
	Windows       int     // how many windows of traffic per key
	Requests      int     // total requests decided (by each algorithm)
	// WronglyAllowed counts requests the counter allowed and the log rejected;
	// WronglyRejected the reverse. The log is exact, so it is the reference.
	WronglyAllowed  int
	WronglyRejected int
}

// Share is the fraction of requests the two decided differently.
func (a AccuracyReport) Share() float64 {
	if a.Requests == 0 {
		return 0
	}
	return float64(a.WronglyAllowed+a.WronglyRejected) / float64(a.Requests)
}

// AllowedShare and RejectedShare split Share by direction.
func (a AccuracyReport) AllowedShare() float64 {
	if a.Requests == 0 {
		return 0
	}
	return float64(a.WronglyAllowed) / float64(a.Requests)
}

// RejectedShare is WronglyRejected / Requests.
func (a AccuracyReport) RejectedShare() float64 {
	if a.Requests == 0 {
		return 0
	}
	return float64(a.WronglyRejected) / float64(a.Requests)
}

func (a AccuracyReport) String() string {
	return fmt.Sprintf("%d keys, %g arrivals per W each, %d W: %d requests, %.4f%% decided differently "+
		"(%.4f%% wrongly allowed, %.4f%% wrongly rejected)",
		a.Keys, a.MeanPerWindow, a.Windows, a.Requests,
		100*a.Share(), 100*a.AllowedShare(), 100*a.RejectedShare())
}

// Accuracy feeds every key a seeded Poisson stream (mean meanPerWindow
// arrivals per W, for the given number of windows) through both the sliding
// counter and the sliding log with budget p, and counts the requests they
// decide differently. Each algorithm runs on its own, as it would in
// production, so a difference can also change what it decides later.
func Accuracy(p Params, seed uint64, keys int, meanPerWindow float64, windows int) (AccuracyReport, error) {
	if err := p.Validate(); err != nil {
		return AccuracyReport{}, err
	}
	switch {
	case keys < 1:
		return AccuracyReport{}, framing.BadParam("keys", keys, "an integer >= 1")
	case !(meanPerWindow > 0) || math.IsInf(meanPerWindow, 0):
		return AccuracyReport{}, framing.BadParam("mean", meanPerWindow, "a finite number > 0 (arrivals per window)")
	case windows < 1:
		return AccuracyReport{}, framing.BadParam("windows", windows, "an integer >= 1")
	}
	rep := AccuracyReport{Seed: seed, Keys: keys, MeanPerWindow: meanPerWindow, Windows: windows}
	rng := splitmix(seed)
	meanGap := float64(p.WindowMS) / meanPerWindow
	end := float64(p.WindowMS) * float64(windows)
	for range keys {
		counter, _ := newStepper("sliding-counter", p)
		log, _ := newStepper("sliding-log", p)
		for t := -math.Log(1-rng.float64()) * meanGap; t < end; t += -math.Log(1-rng.float64()) * meanGap {
			ms := int64(t)
			c, l := counter.allow(ms, 1).Allowed, log.allow(ms, 1).Allowed
			rep.Requests++
			switch {
			case c && !l:
				rep.WronglyAllowed++
			case !c && l:
				rep.WronglyRejected++
			}
		}
	}
	return rep, nil
}
