package lab

import (
	"fmt"
	"math"

	"github.com/ratelimit-course/ratelimit/core"
)

// Traffic describes ordinary traffic for Accuracy: many independent keys,
// each a Poisson stream whose mean rate is a fixed share ("load") of the
// limit L per window W. Each key's load is drawn log-uniformly from
// [MinLoad, MaxLoad]; equal bounds give every key the same load.
type Traffic struct {
	Seed             uint64
	Keys             int
	Windows          int     // how many windows W of traffic per key
	MinLoad, MaxLoad float64 // mean arrivals per W, as a multiple of L
}

// AccuracyReport is how often the sliding counter decides differently from
// the exact sliding log on the same traffic, measured two ways.
type AccuracyReport struct {
	Traffic  Traffic
	Params   Params
	Requests int // requests decided

	// Same history: at each request, the counter's decision against the
	// exact rule (fewer than L admitted in (t-W, t]) applied to what the
	// counter itself has admitted so far. This is the estimate's own error,
	// one decision at a time.
	WronglyAllowed  int // the counter allowed, the exact count was already L
	WronglyRejected int // the counter rejected, the exact count was under L

	// Independent runs: the counter and a real sliding log each decide the
	// whole stream on their own, as two deployments would; an early
	// difference changes what each has admitted, so later ones follow.
	Disagreed int

	// PeakCount is the most requests the counter admitted inside any
	// (t-W, t] of one key: how far over L its mistakes went.
	PeakCount int
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// Share is the fraction of requests the counter decided wrongly (same history).
func (a AccuracyReport) Share() float64 {
	return share(a.WronglyAllowed+a.WronglyRejected, a.Requests)
}

// AllowedShare is WronglyAllowed / Requests.
func (a AccuracyReport) AllowedShare() float64 { return share(a.WronglyAllowed, a.Requests) }

// RejectedShare is WronglyRejected / Requests.
func (a AccuracyReport) RejectedShare() float64 { return share(a.WronglyRejected, a.Requests) }

// DisagreedShare is Disagreed / Requests (independent runs).
func (a AccuracyReport) DisagreedShare() float64 { return share(a.Disagreed, a.Requests) }

// String is the report in one line, for logs and test output.
func (a AccuracyReport) String() string {
	return fmt.Sprintf("%d requests: %.4f%% wrong (%.4f%% wrongly allowed, %.4f%% wrongly rejected); "+
		"peak %d in a W (L %d); independent runs disagree on %.4f%%",
		a.Requests, 100*a.Share(), 100*a.AllowedShare(), 100*a.RejectedShare(),
		a.PeakCount, a.Params.Limit, 100*a.DisagreedShare())
}

// Accuracy feeds the traffic through the sliding counter and the sliding log
// with budget p and counts where they part (see AccuracyReport). Everything
// is seeded, so the same input gives the same figures on every machine.
func Accuracy(p Params, tr Traffic) (AccuracyReport, error) {
	if err := p.Validate(); err != nil {
		return AccuracyReport{}, err
	}
	switch {
	case tr.Keys < 1:
		return AccuracyReport{}, core.BadParam("keys", tr.Keys, "an integer >= 1")
	case tr.Windows < 1:
		return AccuracyReport{}, core.BadParam("windows", tr.Windows, "an integer >= 1")
	case !(tr.MinLoad > 0) || !(tr.MaxLoad >= tr.MinLoad) || math.IsInf(tr.MaxLoad, 0):
		return AccuracyReport{}, core.BadParam("load", fmt.Sprintf("[%g, %g]", tr.MinLoad, tr.MaxLoad),
			"0 < MinLoad <= MaxLoad, finite (mean arrivals per W as a multiple of L)")
	}
	rep := AccuracyReport{Traffic: tr, Params: p}
	rng := splitmix(tr.Seed)
	end := float64(p.WindowMS) * float64(tr.Windows)
	admitted := make([]int64, 0, 2*p.Limit) // what the counter let through in the last W
	for range tr.Keys {
		load := tr.MinLoad * math.Pow(tr.MaxLoad/tr.MinLoad, rng.float64())
		meanGap := float64(p.WindowMS) / (load * float64(p.Limit))
		counter, _ := newStepper(SlidingCounter, p)
		log, _ := newStepper(SlidingLog, p)
		admitted = admitted[:0]
		for t := rng.exp() * meanGap; t < end; t += rng.exp() * meanGap {
			now := int64(t)
			drop := 0
			for drop < len(admitted) && now-admitted[drop] >= p.WindowMS {
				drop++
			}
			admitted = append(admitted[:0], admitted[drop:]...)
			exact := len(admitted) < p.Limit
			c := counter.allow(now, 1).Allowed
			if c {
				admitted = append(admitted, now)
				rep.PeakCount = max(rep.PeakCount, len(admitted))
			}
			rep.Requests++
			switch {
			case c && !exact:
				rep.WronglyAllowed++
			case !c && exact:
				rep.WronglyRejected++
			}
			if log.allow(now, 1).Allowed != c {
				rep.Disagreed++
			}
		}
	}
	return rep, nil
}
