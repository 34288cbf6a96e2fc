package lab

import (
	"errors"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestAccuracy_OrdinaryTraffic pins the sliding counter's error on seeded
// Poisson traffic (100 per minute per key, as in CONTRACT.md E17), the figures the
// chapter README quotes beside Cloudflare's 0.003%.
func TestAccuracy_OrdinaryTraffic(t *testing.T) {
	p := Params{WindowMS: 60_000, Limit: 100, Capacity: 3, RatePerS: 2, SubWindows: 1}
	small := DefaultParams() // L = 3 per second
	cases := []struct {
		name             string
		p                Params
		keys, windows    int
		minLoad, maxLoad float64
		requests         int
		allowed, reject  int
		peak             int
		disagreed        int // independent runs, the README's last column
	}{
		{"every key at 50% of L", p, 100, 20, 0.5, 0.5, 99797, 0, 0, 83, 0},
		{"every key at 80% of L", p, 100, 20, 0.8, 0.8, 159219, 1350, 116, 108, 608},
		{"loads 1%..100% of L", p, 100, 20, 0.01, 1, 38628, 327, 28, 109, 123},
		{"every key at 100% of L", p, 100, 20, 1, 1, 198778, 27809, 4398, 119, 15891},
		{"every key at 200% of L", p, 100, 20, 2, 2, 398714, 71043, 32196, 106, 156896},
		{"L = 3, every key at 50%", small, 1000, 100, 0.5, 0.5, 149433, 13524, 620, 6, 13638},
	}
	for _, tc := range cases {
		p := tc.p
		rep, err := Accuracy(p, Traffic{Seed: 1, Keys: tc.keys, Windows: tc.windows, MinLoad: tc.minLoad, MaxLoad: tc.maxLoad})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", tc.name, rep)
		if rep.Requests != tc.requests || rep.WronglyAllowed != tc.allowed ||
			rep.WronglyRejected != tc.reject || rep.PeakCount != tc.peak {
			t.Errorf("%s: %d requests, %d wrongly allowed, %d wrongly rejected, peak %d; want %d %d %d %d",
				tc.name, rep.Requests, rep.WronglyAllowed, rep.WronglyRejected, rep.PeakCount,
				tc.requests, tc.allowed, tc.reject, tc.peak)
		}
		if rep.Disagreed != tc.disagreed {
			t.Errorf("%s: independent runs disagree on %d, want %d", tc.name, rep.Disagreed, tc.disagreed)
		}
		// Sanity: mistakes are a minority, and ordinary traffic never gets
		// past the adversarial 2L.
		if rep.Share() > 0.30 || rep.PeakCount > 2*p.Limit {
			t.Errorf("%s: share %.4f peak %d out of bounds", tc.name, rep.Share(), rep.PeakCount)
		}
	}
}

func TestAccuracy_BadInput(t *testing.T) {
	for _, tr := range []Traffic{
		{Keys: 0, Windows: 1, MinLoad: 1, MaxLoad: 1},
		{Keys: 1, Windows: 0, MinLoad: 1, MaxLoad: 1},
		{Keys: 1, Windows: 1, MinLoad: 0, MaxLoad: 1},
		{Keys: 1, Windows: 1, MinLoad: 2, MaxLoad: 1},
	} {
		var pe *core.ParamError
		if _, err := Accuracy(DefaultParams(), tr); !errors.As(err, &pe) {
			t.Errorf("%+v: error %v", tr, err)
		}
	}
}
