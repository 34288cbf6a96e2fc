package sliding

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// logOracle is the sliding log written as its definition: allowed iff the
// cost already allowed inside (t-W, t] plus this cost is at most L.
func logOracle(sentAt []int64, sentCost []int, t, w int64, cost, limit int) bool {
	in := 0
	for i, s := range sentAt {
		if t-s < w {
			in += sentCost[i]
		}
	}
	return in+cost <= limit
}

// randomArrivals draws a non-decreasing sequence (ms) with bursts and gaps
// and costs of 1 most of the time.
func randomArrivals(r *rand.Rand, n, limit int, maxGap int64) ([]int64, []int) {
	arrivals := make([]int64, n)
	costs := make([]int, n)
	t := r.Int64N(3000)
	for i := range n {
		if r.IntN(3) > 0 {
			t += r.Int64N(maxGap + 1)
		}
		arrivals[i] = t
		costs[i] = 1
		if r.IntN(3) == 0 {
			costs[i] = 1 + r.IntN(limit)
		}
	}
	return arrivals, costs
}

func TestSlidingLogNeverExceedsLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 1000 {
		limit := 1 + r.IntN(8)
		w := int64(100 + r.IntN(1000))
		arrivals, costs := randomArrivals(r, 80, limit, w/4)
		l := newLog(t, time.Duration(w)*time.Millisecond, limit)
		var sentAt []int64
		var sentCost []int
		for i, a := range arrivals {
			want := logOracle(sentAt, sentCost, a, w, costs[i], limit)
			d := l.AllowN(at(a), costs[i])
			if d.Allowed != want {
				t.Fatalf("trial %d (W=%d L=%d) request %d at %d cost %d: allowed %v, definition says %v",
					trial, w, limit, i, a, costs[i], d.Allowed, want)
			}
			if d.Allowed {
				sentAt = append(sentAt, a)
				sentCost = append(sentCost, costs[i])
			}
		}
		if got := algotest.MaxInWindow(sentAt, sentCost, w); got > limit {
			t.Fatalf("trial %d: %d in one W > L = %d", trial, got, limit)
		}
		if got := len(l.State().Entries); got > limit {
			t.Fatalf("trial %d: log keeps %d entries > L = %d", trial, got, limit)
		}
	}
}

// FuzzSlidingLogNeverExceedsLimit: whatever the arrivals and costs, no span
// of length W ever holds more than L allowed cost units.
func FuzzSlidingLogNeverExceedsLimit(f *testing.F) {
	f.Add([]byte{0, 0, 60, 0, 60, 0, 20, 0, 40, 0, 40, 0, 60, 0, 200, 0}, uint8(3), uint16(1000))
	f.Add([]byte{255, 2, 0, 1, 1, 1, 0, 0}, uint8(2), uint16(10))
	f.Fuzz(func(t *testing.T, data []byte, limit8 uint8, w16 uint16) {
		limit := 1 + int(limit8%16)
		w := 1 + int64(w16%3000)
		l, err := NewLog(Config{Window: time.Duration(w) * time.Millisecond, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		var sentAt []int64
		var sentCost []int
		now := int64(0)
		for i := 0; i+1 < len(data); i += 2 {
			now += int64(data[i]) * w / 64 // gaps from 0 to about 4W
			cost := 1 + int(data[i+1])%limit
			d := l.AllowN(at(now), cost)
			if d.Remaining < 0 || d.Remaining > limit {
				t.Fatalf("Remaining %d outside [0, %d]", d.Remaining, limit)
			}
			if d.Allowed {
				sentAt = append(sentAt, now)
				sentCost = append(sentCost, cost)
			} else if d.RetryAfter <= 0 || d.RetryAfter > time.Duration(w)*time.Millisecond {
				t.Fatalf("RetryAfter %v outside (0, W]", d.RetryAfter)
			}
		}
		if got := algotest.MaxInWindow(sentAt, sentCost, w); got > limit {
			t.Fatalf("%d allowed in one W = %d ms, L = %d: %v %v", got, w, limit, sentAt, sentCost)
		}
	})
}

func TestSlidingLogAgeExactlyWIsOutside(t *testing.T) {
	l := newLog(t, time.Second, 1)
	ds := algotest.Run(l, 0, 999, 1000)
	if got := algotest.Letters(ds); got != "A R A" {
		t.Fatalf("got %s, want A R A (the entry at 0 is outside at 1000)", got)
	}
	if ds[1].RetryAfter != time.Millisecond {
		t.Fatalf("RetryAfter at 999 = %v, want 1ms", ds[1].RetryAfter)
	}
	if es := l.State().Entries; len(es) != 1 || !es[0].At.Equal(at(1000)) || es[0].Cost != 1 {
		t.Fatalf("State = %v, want one entry at 1000 of cost 1", es)
	}
}

// TestSlidingLogRetryAfterAdmits: waiting RetryAfter admits the same
// request (if nothing else arrived meanwhile).
func TestSlidingLogRetryAfterAdmits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for range 60 {
		limit := 1 + r.IntN(5)
		arrivals, costs := randomArrivals(r, 30, limit, 150)
		mk := func() core.Algorithm { return newLog(t, time.Second, limit) }
		checked += algotest.CheckRetryAfter(t, mk, arrivals, costs, false)
	}
	if checked < 100 {
		t.Fatalf("only %d rejections checked", checked)
	}
}

func TestSlidingLogMemoryIsBoundedByL(t *testing.T) {
	// A flood far above the limit never makes the log keep more than L.
	l := newLog(t, time.Minute, 1000)
	for i := range 100_000 {
		l.AllowN(at(int64(i)), 1)
	}
	if got := len(l.State().Entries); got != 1000 {
		t.Fatalf("kept %d timestamps, want exactly L = 1000", got)
	}
}

// TestSlidingLogRetryAfterOverLongRuns: the rejection's binary search over
// running totals gives the RetryAfter of the walk the README shows (the
// oldest entries holding kept + cost - L), across many compactions of the
// array (whose totals are recounted from the front each time), for costs up
// to L.
func TestSlidingLogRetryAfterOverLongRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, limit := range []int{1, 7, 64, 500} {
		const w = int64(time.Second)
		l := newLog(t, time.Duration(w), limit)
		var kept []LogEntry // the walk's log, kept by hand
		now, rejected := int64(0), 0
		for i := range 20_000 {
			now += r.Int64N(3 * w / int64(limit))
			cost := 1
			if r.IntN(4) == 0 {
				cost = 1 + r.IntN(limit)
			}
			for len(kept) > 0 && now-kept[0].At.UnixNano() >= w {
				kept = kept[1:]
			}
			used := 0
			for _, e := range kept {
				used += e.Cost
			}
			d := l.AllowN(time.Unix(0, now), cost)
			if want := used+cost <= limit; d.Allowed != want {
				t.Fatalf("L=%d request %d (cost %d, %d kept): %+v, want allowed %v", limit, i, cost, used, d, want)
			}
			if d.Allowed {
				kept = append(kept, LogEntry{At: time.Unix(0, now), Cost: cost})
				continue
			}
			rejected++
			if d.Remaining != limit-used {
				t.Fatalf("L=%d request %d: Remaining %d, want %d", limit, i, d.Remaining, limit-used)
			}
			j, freed := 0, kept[0].Cost
			for freed < used+cost-limit {
				j++
				freed += kept[j].Cost
			}
			if want := time.Duration(kept[j].At.UnixNano() + w - now); d.RetryAfter != want {
				t.Fatalf("L=%d request %d (cost %d): RetryAfter %v, the walk says %v", limit, i, cost, d.RetryAfter, want)
			}
		}
		got := l.State().Entries
		if len(got) != len(kept) || len(got) > 0 && (!got[len(got)-1].At.Equal(kept[len(kept)-1].At) || got[len(got)-1].Cost != kept[len(kept)-1].Cost) {
			t.Fatalf("L=%d: State has %d entries, the walk %d", limit, len(got), len(kept))
		}
		if rejected < 2_000 {
			t.Fatalf("L=%d: only %d rejections", limit, rejected)
		}
	}
}
