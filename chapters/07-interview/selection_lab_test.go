//go:build !exercise

package interview

import (
	"math"
	"strings"
	"testing"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// claimRange is what a row's "max in any W" allows for one budget, as the
// closed range [lo, hi] of requests upstream in one half-open window.
func claimRange(c Claim, p lab.Params) (lo, hi int) {
	l := p.Limit
	rw := p.RatePerS * float64(p.WindowMS) / 1000
	switch c {
	case TwoL, UnevenTwoL: // the worst case is exactly 2L
		return 2 * l, 2 * l
	case ExactlyL:
		return l, l
	case CPlusRW: // a full bucket plus the refill that lands strictly inside W
		return p.Capacity + int(math.Ceil(rw)) - 1, p.Capacity + int(math.Floor(rw))
	case RW: // departures T apart: ceil(R·W) fit in a half-open W
		return int(math.Floor(rw)), int(math.Ceil(rw))
	}
	return 0, -1
}

// TestE19_MaxInWindowMatchesWorstCaseSearch runs chapter 05's worst-case
// search on every row's algorithm and checks the row's claim, so the table
// cannot drift from the code.
func TestE19_MaxInWindowMatchesWorstCaseSearch(t *testing.T) {
	// Rates whose interval T = 1/R is a whole number of ns: the buckets
	// round T down to the ns, so for R = 3 a departure that exact arithmetic
	// puts at 1000 ms lands 1 ns earlier and inside the window.
	budgets := []lab.Params{
		lab.DefaultParams(), // W 1000, L 3, C 3, R 2
		{WindowMS: 1000, Limit: 5, Capacity: 4, RatePerS: 4, SubWindows: 1},
		{WindowMS: 2000, Limit: 4, Capacity: 2, RatePerS: 2.5, SubWindows: 1},
	}
	for _, p := range budgets {
		for _, r := range Selection {
			algo, err := lab.ParseAlgorithm(r.Algorithm)
			if err != nil {
				t.Fatalf("row %s: %v", r.Algorithm, err)
			}
			w, err := lab.Worst(algo, p)
			if err != nil {
				t.Fatalf("%s: %v", r.Algorithm, err)
			}
			lo, hi := claimRange(r.Claim, p)
			if w.MaxInWindow < lo || w.MaxInWindow > hi {
				t.Errorf("%s with %+v: worst case %d in one W (arrivals %v), but the row claims %q = [%d, %d]",
					r.Algorithm, p, w.MaxInWindow, w.Arrivals, r.MaxInWindow, lo, hi)
			}
			t.Logf("%-15s W=%d L=%d C=%d R=%g: worst %d in W, claim %q", r.Algorithm, p.WindowMS, p.Limit, p.Capacity, p.RatePerS, w.MaxInWindow, r.MaxInWindow)
		}
	}
}

// TestE19_SlidingCounterNearLOnEvenTraffic checks the other half of the
// sliding counter's row: on evenly spaced traffic it stays close to L,
// while the worst (uneven) case above reaches 2L.
func TestE19_SlidingCounterNearLOnEvenTraffic(t *testing.T) {
	p := lab.Params{WindowMS: 1000, Limit: 10, Capacity: 10, RatePerS: 10, SubWindows: 1}
	for _, gap := range []int64{20, 37, 50, 73} { // 2 to 5 times the limit, evenly spaced
		var arrivals []int64
		for t := int64(0); t < 10000; t += gap {
			arrivals = append(arrivals, t)
		}
		res, err := lab.Run("sliding-counter", p, arrivals, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Metrics.MaxInWindow > p.Limit+1 {
			t.Errorf("gap %d ms: %d in one W on even traffic, want about L = %d", gap, res.Metrics.MaxInWindow, p.Limit)
		}
	}
}

// TestE19_ClaimWordsMatchTheClaim ties the words a reader sees in the "Max
// in any W" column to the Claim the search checks, so the two cannot drift
// apart either (a row could otherwise read "L" while its Claim says 2L).
func TestE19_ClaimWordsMatchTheClaim(t *testing.T) {
	words := map[Claim]struct{ has, hasNot string }{
		TwoL:       {"2L", "L, exactly"},
		ExactlyL:   {"L, exactly", "2L"},
		UnevenTwoL: {"2L worst case", "exactly"},
		CPlusRW:    {"C + R·W", "2L"},
		RW:         {"R·W", "C +"},
	}
	for _, r := range Selection {
		w, ok := words[r.Claim]
		if !ok || !strings.Contains(r.MaxInWindow, w.has) || strings.Contains(r.MaxInWindow, w.hasNot) {
			t.Errorf("%s: %q does not read as claim %d (want %q, not %q)", r.Algorithm, r.MaxInWindow, r.Claim, w.has, w.hasNot)
		}
	}
}
