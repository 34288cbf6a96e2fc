package fixedwindow

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// TestWorstCaseIsReached builds each variant's worst case for L = 1..6 and
// measures it: 2L in some W for aligned windows (L just before the edge at
// 1000, L on it), 2L-1 for the TTL window (the first hit at 0 opens [0, 1000),
// L-1 more at 999, and the hit at 1000 opens the next window for L more).
func TestWorstCaseIsReached(t *testing.T) {
	for limit := 1; limit <= 6; limit++ {
		repeat := func(ms int64, n int) []int64 {
			out := make([]int64, n)
			for i := range out {
				out[i] = ms
			}
			return out
		}
		aligned := append(repeat(999, limit), repeat(1000, limit)...)
		ttl := append(append([]int64{0}, repeat(999, limit-1)...), repeat(1000, limit)...)
		for _, c := range []struct {
			name     string
			algo     core.Algorithm
			arrivals []int64
			want     int
		}{
			{"fixed-window", newWindow(t, time.Second, limit), aligned, 2 * limit},
			{"fixed-window-ttl", newTTL(t, time.Second, limit), ttl, 2*limit - 1},
		} {
			ds := algotest.Run(c.algo, c.arrivals...)
			st, _ := algotest.Sent(c.arrivals, nil, ds)
			if got := algotest.MaxInWindow(st, nil, 1000); got != c.want {
				t.Errorf("%s L=%d: max in any W = %d, want %d (%s)", c.name, limit, got, c.want, algotest.Letters(ds))
			}
		}
	}
}

// randomRun sends n requests with gaps up to maxGap ms and random costs
// (half of them 1) and returns the arrivals (ms), costs and decisions.
func randomRun(r *rand.Rand, a core.Algorithm, limit, n int, maxGap int64) ([]int64, []int, []core.Decision) {
	arrivals, costs, ds := make([]int64, n), make([]int, n), make([]core.Decision, n)
	t := r.Int64N(2000)
	for i := range n {
		t += r.Int64N(maxGap + 1)
		arrivals[i], costs[i] = t, 1
		if r.IntN(2) == 0 {
			costs[i] = 1 + r.IntN(limit)
		}
		ds[i] = a.AllowN(at(t), costs[i])
	}
	return arrivals, costs, ds
}

// checkWorstCase fails t if the permits allowed in some W = 1000 ms exceed
// the variant's worst case (2L aligned, 2L-1 TTL).
func checkWorstCase(t *testing.T, a core.Algorithm, limit int, arrivals []int64, costs []int, ds []core.Decision) {
	t.Helper()
	bound := 2 * limit
	if _, ttl := a.(*TTLWindow); ttl {
		bound--
	}
	st, sc := algotest.Sent(arrivals, costs, ds)
	if got := algotest.MaxInWindow(st, sc, 1000); got > bound {
		t.Fatalf("%T L=%d: %d permits in one W > %d; arrivals %v costs %v", a, limit, got, bound, arrivals, costs)
	}
}

// TestWorstCaseIsNeverExceeded: no random traffic beats the worst case.
func TestWorstCaseIsNeverExceeded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		limit := 1 + r.IntN(6)
		for _, a := range both(t, time.Second, limit) {
			arrivals, costs, ds := randomRun(r, a, limit, 60, 150)
			checkWorstCase(t, a, limit, arrivals, costs, ds)
		}
	}
}

// FuzzWorstCase is the same invariant on arrivals the fuzzer picks: each
// byte of gaps is the ms since the previous arrival (0..255), each byte of
// costs a cost from 1 to L.
func FuzzWorstCase(f *testing.F) {
	// L = 3, arrivals up to E1's and beyond; L = 2, the TTL worst case.
	f.Add(uint8(2), []byte{255, 255, 255, 55, 60, 60, 20, 40, 60, 60, 255, 255, 220}, []byte{1})
	f.Add(uint8(1), []byte{0, 255, 255, 255, 234, 1, 0}, []byte{1, 1, 2})
	f.Fuzz(func(t *testing.T, l uint8, gaps, costs []byte) {
		limit := 1 + int(l%8)
		for _, a := range both(t, time.Second, limit) {
			arrivals, cs, ds := make([]int64, len(gaps)), make([]int, len(gaps)), make([]core.Decision, len(gaps))
			ms := int64(0)
			for i, g := range gaps {
				ms += int64(g)
				arrivals[i], cs[i] = ms, 1
				if len(costs) > 0 {
					cs[i] = 1 + int(costs[i%len(costs)])%limit
				}
				ds[i] = a.AllowN(at(ms), cs[i])
			}
			checkWorstCase(t, a, limit, arrivals, cs, ds)
		}
	})
}
