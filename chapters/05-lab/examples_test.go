package lab

import (
	"slices"
	"strings"
	"testing"
)

// want is what one run must produce: decisions as a string of A and R, the
// sent times of the allowed requests (-1 for a rejected one), and metrics.
type want struct {
	decisions string
	sent      []int64
	metrics   Metrics
}

func decisions(r Result) string {
	var b strings.Builder
	for _, q := range r.Requests {
		if q.Allowed {
			b.WriteByte('A')
		} else {
			b.WriteByte('R')
		}
	}
	return b.String()
}

func check(t *testing.T, algo Algorithm, p Params, arrivals []int64, w want) Result {
	t.Helper()
	r, err := Run(algo, p, arrivals, nil)
	if err != nil {
		t.Fatalf("%s: %v", algo, err)
	}
	if got := decisions(r); got != w.decisions {
		t.Errorf("%s decisions %s, want %s", algo, got, w.decisions)
	}
	for i, q := range r.Requests {
		if q.Index != i+1 || q.ArrivalMS != arrivals[i] || q.Cost != 1 {
			t.Errorf("%s request %d: index %d arrival %d cost %d", algo, i, q.Index, q.ArrivalMS, q.Cost)
		}
		switch {
		case w.sent[i] < 0:
			if q.SentMS != nil || q.WaitMS != nil {
				t.Errorf("%s request %d rejected but has sent/wait", algo, i+1)
			}
		case q.SentMS == nil || q.WaitMS == nil:
			t.Errorf("%s request %d: no sent time, want %d", algo, i+1, w.sent[i])
		case *q.SentMS != w.sent[i] || *q.WaitMS != w.sent[i]-arrivals[i]:
			t.Errorf("%s request %d: sent %d wait %d, want sent %d wait %d",
				algo, i+1, *q.SentMS, *q.WaitMS, w.sent[i], w.sent[i]-arrivals[i])
		}
		if ex := r.Explain(i); ex.State == "" || ex.Why == "" || ex.Values < 1 {
			t.Errorf("%s request %d: missing explanation %+v", algo, i+1, ex)
		}
	}
	if r.Metrics != w.metrics {
		t.Errorf("%s metrics\n got %+v\nwant %+v", algo, r.Metrics, w.metrics)
	}
	if r.Algorithm != algo || r.Params != p {
		t.Errorf("result names %s %+v", r.Algorithm, r.Params)
	}
	return r
}

func states(r Result) []string {
	var s []string
	for _, ex := range r.Explanations() {
		s = append(s, ex.State)
	}
	return s
}

func TestE1_CrossBoundarySpike(t *testing.T) {
	arrivals := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	p := DefaultParams()
	fixed := check(t, FixedWindow, p, arrivals, want{
		decisions: "AAARAAAR",
		sent:      []int64{820, 880, 940, -1, 1000, 1060, 1120, -1},
		metrics:   Metrics{Allowed: 6, Rejected: 2, MaxInWindow: 6, Overshoot: 3, MaxWaitMS: 0, StateValues: 2},
	})
	// The 6 sit inside [820, 1120]: one busiest window, starting at 820.
	if !slices.Equal(fixed.MaxWindows, [][2]int64{{820, 1820}}) {
		t.Errorf("fixed-window busiest windows %v, want [[820 1820]]", fixed.MaxWindows)
	}
	if got := fixed.Explain(3).State; got != "window 0: count 4" {
		t.Errorf("rejected request still counts: state %q", got)
	}
	log := check(t, SlidingLog, p, arrivals, want{
		decisions: "AAARRRRA",
		sent:      []int64{820, 880, 940, -1, -1, -1, -1, 1850},
		metrics:   Metrics{Allowed: 4, Rejected: 4, MaxInWindow: 3, Overshoot: 0, MaxWaitMS: 0, StateValues: 3},
	})
	if got := log.Explain(7).State; got != "log [880 940 1850]" {
		t.Errorf("log after 1850: %q (820 has age 1030 >= W and is gone)", got)
	}
}

func TestE3_PrevCrowdedStart(t *testing.T) {
	arrivals := []int64{0, 10, 20, 1200, 1220, 1240}
	p := DefaultParams()
	counter := check(t, SlidingCounter, p, arrivals, want{
		decisions: "AAAARR",
		sent:      []int64{0, 10, 20, 1200, -1, -1},
		metrics:   Metrics{Allowed: 4, Rejected: 2, MaxInWindow: 3, Overshoot: 0, StateValues: 3},
	})
	wantStates := []string{"prev 3 curr 1 est 2.40", "prev 3 curr 1 est 3.34", "prev 3 curr 1 est 3.28"}
	if got := states(counter)[3:]; !slices.Equal(got, wantStates) {
		t.Errorf("counter states %q, want %q", got, wantStates)
	}
	log := check(t, SlidingLog, p, arrivals, want{
		decisions: "AAAAAA",
		sent:      arrivals,
		metrics:   Metrics{Allowed: 6, Rejected: 0, MaxInWindow: 3, Overshoot: 0, StateValues: 3},
	})
	// The true counts in the window at 1220 and 1240 are 1 and 2.
	if got := states(log)[4:]; !slices.Equal(got, []string{"log [1200 1220]", "log [1200 1220 1240]"}) {
		t.Errorf("log states %q", got)
	}
}

func TestE4_PrevCrowdedEnd(t *testing.T) {
	arrivals := []int64{970, 980, 990, 1500, 1510, 1520}
	p := DefaultParams()
	counter := check(t, SlidingCounter, p, arrivals, want{
		decisions: "AAAAAR",
		sent:      []int64{970, 980, 990, 1500, 1510, -1},
		metrics:   Metrics{Allowed: 5, Rejected: 1, MaxInWindow: 5, Overshoot: 2, StateValues: 3},
	})
	wantStates := []string{"prev 3 curr 1 est 1.50", "prev 3 curr 2 est 2.47", "prev 3 curr 2 est 3.44"}
	if got := states(counter)[3:]; !slices.Equal(got, wantStates) {
		t.Errorf("counter states %q, want %q", got, wantStates)
	}
	if !slices.Equal(counter.MaxWindows, [][2]int64{{970, 1970}}) {
		t.Errorf("busiest windows %v, want [[970 1970]] (5 inside 970..1510)", counter.MaxWindows)
	}
	check(t, SlidingLog, p, arrivals, want{
		decisions: "AAARRR",
		sent:      []int64{970, 980, 990, -1, -1, -1},
		metrics:   Metrics{Allowed: 3, Rejected: 3, MaxInWindow: 3, Overshoot: 0, StateValues: 3},
	})
}

func TestE5_TokenBucketAllowsCPlusRW(t *testing.T) {
	p := DefaultParams()
	p.RatePerS = 3
	arrivals := []int64{0, 0, 0, 334, 667}
	check(t, TokenBucket, p, arrivals, want{
		decisions: "AAAAA",
		sent:      arrivals,
		metrics:   Metrics{Allowed: 5, MaxInWindow: 5, Overshoot: 2, StateValues: 2},
	})
}

func TestE6_SameBurstTwoBuckets(t *testing.T) {
	arrivals := []int64{0, 10, 20, 30}
	p := DefaultParams() // C 3, R 2/s: T 500, tau 1000
	token := check(t, TokenBucket, p, arrivals, want{
		decisions: "AAAR",
		sent:      []int64{0, 10, 20, -1},
		metrics:   Metrics{Allowed: 3, Rejected: 1, MaxInWindow: 3, Overshoot: 0, StateValues: 2},
	})
	if got := token.Explain(3).State; got != "tokens 0.06" {
		t.Errorf("the 4th should find 0.06 tokens, state %q", got)
	}
	queue := check(t, LeakyQueue, p, arrivals, want{
		decisions: "AAAR",
		sent:      []int64{0, 500, 1000, -1},
		metrics:   Metrics{Allowed: 3, Rejected: 1, MaxInWindow: 2, Overshoot: 0, MaxWaitMS: 980, StateValues: 3},
	})
	if got := queue.Explain(2).State; got != "TAT 1500, queue [500 1000]" {
		t.Errorf("queue state after the 3rd: %q", got)
	}
	if why := queue.Explain(3).Why; !strings.Contains(why, "1470 > tau 1000") {
		t.Errorf("the 4th would wait 1470 > 1000; why %q", why)
	}
	// GCRA: the same decisions and send times as the token bucket.
	gcra := check(t, GCRA, p, arrivals, want{
		decisions: "AAAR",
		sent:      []int64{0, 10, 20, -1},
		metrics:   Metrics{Allowed: 3, Rejected: 1, MaxInWindow: 3, Overshoot: 0, StateValues: 1},
	})
	if got := gcra.Explain(2).State; got != "TAT 1500" {
		t.Errorf("gcra state after the 3rd: %q", got)
	}
}

func TestE6_CapacitySix(t *testing.T) {
	arrivals := []int64{0, 10, 20, 30}
	p := DefaultParams()
	p.Capacity = 6
	check(t, TokenBucket, p, arrivals, want{
		decisions: "AAAA",
		sent:      arrivals,
		metrics:   Metrics{Allowed: 4, MaxInWindow: 4, Overshoot: 1, StateValues: 2},
	})
	check(t, LeakyQueue, p, arrivals, want{
		decisions: "AAAA",
		sent:      []int64{0, 500, 1000, 1500},
		metrics:   Metrics{Allowed: 4, MaxInWindow: 2, Overshoot: 0, MaxWaitMS: 1470, StateValues: 4},
	})
}
