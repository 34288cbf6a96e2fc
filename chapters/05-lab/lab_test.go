package lab

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
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

func TestTTLWindowState(t *testing.T) {
	r, err := Run(FixedWindowTTL, DefaultParams(), []int64{820, 880, 940, 960, 1000, 1820}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The window opened at 820 lasts to 1820: 1000 is still inside it.
	if got := decisions(r); got != "AAARRA" {
		t.Errorf("decisions %s, want AAARRA", got)
	}
	if got := r.Explain(5).State; got != "window opened 1820: count 1" {
		t.Errorf("state %q", got)
	}
}

func TestCosts(t *testing.T) {
	p := DefaultParams()
	r, err := Run(TokenBucket, p, []int64{0, 0, 500}, []int{3, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := decisions(r); got != "ARA" {
		t.Errorf("decisions %s, want ARA (cost 3 empties C = 3; 500 ms refills 1)", got)
	}
	if r.Requests[0].Cost != 3 {
		t.Errorf("cost not recorded: %+v", r.Requests[0])
	}
	// The ruler counts requests, not cost units.
	if r.Metrics.MaxInWindow != 2 {
		t.Errorf("max in window %d, want 2 requests", r.Metrics.MaxInWindow)
	}
}

func TestSubWindows(t *testing.T) {
	p := DefaultParams()
	p.SubWindows = 4
	r, err := Run(SlidingCounter, p, []int64{970, 980, 990, 1500, 1510, 1520}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Finer sub-windows see that the 3 are still inside the last W.
	if got := decisions(r); got != "AAARRR" {
		t.Errorf("decisions %s, want AAARRR", got)
	}
	if r.Metrics.StateValues != 6 {
		t.Errorf("state values %d, want N+2 = 6", r.Metrics.StateValues)
	}
	if !strings.HasPrefix(r.Explain(3).State, "subs [") {
		t.Errorf("state %q", r.Explain(3).State)
	}
}

// TestRunBadInput: every bad input is a *core.ParamError naming the CLI
// flag, never a panic or a result.
func TestRunBadInput(t *testing.T) {
	ok := DefaultParams()
	with := func(f func(*Params)) Params { p := ok; f(&p); return p }
	cases := []struct {
		name     string
		algo     Algorithm
		p        Params
		arrivals []int64
		costs    []int
		param    string
	}{
		{"unknown algorithm", "leaky-bucket", ok, []int64{0}, nil, "algo"},
		{"window 0", FixedWindow, with(func(p *Params) { p.WindowMS = 0 }), []int64{0}, nil, "window"},
		{"window negative", FixedWindow, with(func(p *Params) { p.WindowMS = -5 }), []int64{0}, nil, "window"},
		{"limit 0", SlidingLog, with(func(p *Params) { p.Limit = 0 }), []int64{0}, nil, "limit"},
		{"capacity 0", TokenBucket, with(func(p *Params) { p.Capacity = 0 }), []int64{0}, nil, "capacity"},
		{"rate 0", GCRA, with(func(p *Params) { p.RatePerS = 0 }), []int64{0}, nil, "rate"},
		{"rate negative", GCRA, with(func(p *Params) { p.RatePerS = -1 }), []int64{0}, nil, "rate"},
		{"subwindows 0", SlidingCounter, with(func(p *Params) { p.SubWindows = 0 }), []int64{0}, nil, "subwindows"},
		{"subwindows not a divisor", SlidingCounter, with(func(p *Params) { p.SubWindows = 7 }), []int64{0}, nil, "subwindows"},
		{"unsorted arrivals", FixedWindow, ok, []int64{10, 5}, nil, "arrivals"},
		{"negative arrival", FixedWindow, ok, []int64{-1, 5}, nil, "arrivals"},
		{"costs too short", TokenBucket, ok, []int64{0, 1}, []int{1}, "costs"},
		{"cost over C", TokenBucket, ok, []int64{0}, []int{4}, "costs"},
		{"cost over L", FixedWindow, ok, []int64{0}, []int{4}, "costs"},
		{"cost 0", LeakyQueue, ok, []int64{0}, []int{0}, "costs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(tc.algo, tc.p, tc.arrivals, tc.costs)
			var pe *core.ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *core.ParamError", err)
			}
			if pe.Param != tc.param || pe.Accept == "" {
				t.Errorf("error names %q (accepts %q), want %q", pe.Param, pe.Accept, tc.param)
			}
		})
	}
}

func TestScenarios(t *testing.T) {
	type pair struct {
		example     string
		left, right Algorithm
	}
	wantPairs := map[string]pair{
		"cross-boundary-spike": {"E1", FixedWindow, SlidingLog},
		"prev-crowded-end":     {"E4", SlidingCounter, SlidingLog},
		"prev-crowded-start":   {"E3", SlidingCounter, SlidingLog},
		"instant-burst":        {"E6", TokenBucket, LeakyQueue},
	}
	if len(Scenarios) != len(wantPairs) {
		t.Fatalf("%d scenarios, want %d", len(Scenarios), len(wantPairs))
	}
	for _, sc := range Scenarios {
		w, ok := wantPairs[sc.Name]
		if !ok || sc.Example != w.example || sc.Left != w.left || sc.Right != w.right {
			t.Errorf("scenario %s: %s %s vs %s", sc.Name, sc.Example, sc.Left, sc.Right)
		}
		if sc.Params != DefaultParams() || sc.Title == "" || sc.Lesson == "" || len(sc.Arrivals) == 0 {
			t.Errorf("scenario %s incomplete: %+v", sc.Name, sc)
		}
		if got, ok := ScenarioByName(sc.Name); !ok || got.Name != sc.Name {
			t.Errorf("ScenarioByName(%s) = %v", sc.Name, ok)
		}
	}
	if _, ok := ScenarioByName("custom"); ok {
		t.Error(`"custom" is any arrivals, not a stored scenario`)
	}
}

// TestWorst_RediscoversBounds pins what the search finds for L = 3, W = 1000,
// C = 3, R = 2: the textbook worst cases of CONTRACT.md E19.
func TestWorst_RediscoversBounds(t *testing.T) {
	fast := DefaultParams()
	fast.RatePerS = 3
	even := DefaultParams()
	even.RatePerS = 4 // T = 250 ms exactly (at R = 3, T rounds down to whole ns)
	cases := []struct {
		algo Algorithm
		p    Params
		max  int
	}{
		{FixedWindow, DefaultParams(), 6},    // 2L
		{FixedWindowTTL, DefaultParams(), 5}, // 2L-1
		{SlidingLog, DefaultParams(), 3},     // L
		{SlidingCounter, DefaultParams(), 6}, // 2L, on an uneven sequence
		{TokenBucket, DefaultParams(), 4},    // just under C + R*W = 5
		{GCRA, DefaultParams(), 4},           // same as the token bucket
		{LeakyQueue, DefaultParams(), 2},     // R*W
		{TokenBucket, fast, 5},               // just under C + R*W = 6 (E5)
		{LeakyQueue, even, 4},                // R*W
	}
	for _, tc := range cases {
		t.Run(string(tc.algo), func(t *testing.T) {
			w, err := Worst(tc.algo, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if w.MaxInWindow != tc.max || w.Overshoot != max(0, tc.max-tc.p.Limit) {
				t.Errorf("found %d (overshoot %d) with %v, want %d", w.MaxInWindow, w.Overshoot, w.Arrivals, tc.max)
			}
			// The sequence replays to the same count, inside the reported W.
			r, err := Run(tc.algo, tc.p, w.Arrivals, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Metrics.MaxInWindow != w.MaxInWindow || r.Metrics.Rejected != 0 {
				t.Errorf("replay: max %d rejected %d", r.Metrics.MaxInWindow, r.Metrics.Rejected)
			}
			if w.Window[1]-w.Window[0] != tc.p.WindowMS || !slices.Contains(r.MaxWindows, w.Window) {
				t.Errorf("window %v not among %v", w.Window, r.MaxWindows)
			}
			if w.Bound == "" || w.Algorithm != tc.algo || w.Params != tc.p {
				t.Errorf("result %+v", w)
			}
			t.Logf("%s: %d in %v from %v (textbook %s)", tc.algo, w.MaxInWindow, w.Window, w.Arrivals, w.Bound)
		})
	}
}

// The counter's 2L needs an uneven sequence: the previous window's L late
// (after 2W/3), then the current window's L spread so the estimate stays
// under L. Pin the one the search reports.
func TestWorst_SlidingCounterSequence(t *testing.T) {
	w, err := Worst(SlidingCounter, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{999, 999, 999, 1001, 1334, 1667}; !slices.Equal(w.Arrivals, want) {
		t.Errorf("arrivals %v, want %v", w.Arrivals, want)
	}
	if w.Window != [2]int64{999, 1999} {
		t.Errorf("window %v", w.Window)
	}
}

func TestWorst_Deterministic(t *testing.T) {
	for _, algo := range Algorithms {
		a, err := Worst(algo, DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Worst(algo, DefaultParams())
		if !slices.Equal(a.Arrivals, b.Arrivals) || a.Window != b.Window {
			t.Errorf("%s: two searches differ: %v / %v", algo, a.Arrivals, b.Arrivals)
		}
	}
}

func TestWorst_BadInput(t *testing.T) {
	big := DefaultParams()
	big.Limit = 1000
	for _, tc := range []struct {
		algo  Algorithm
		p     Params
		param string
	}{
		{"nope", DefaultParams(), "algo"},
		{FixedWindow, big, "limit"},
		{GCRA, Params{WindowMS: 1000, Limit: 3, Capacity: 3, RatePerS: 500, SubWindows: 1}, "rate"},
		{FixedWindow, Params{WindowMS: 0, Limit: 3, Capacity: 3, RatePerS: 2, SubWindows: 1}, "window"},
	} {
		_, err := Worst(tc.algo, tc.p)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("Worst(%s, %+v) error %v, want one naming %s", tc.algo, tc.p, err, tc.param)
		}
	}
}

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

// TestLongStateIsAbbreviated: a long log, queue or sub-window list shows
// its ends and its length instead of every value, so a snapshot stays one
// line and a long run stays linear; a huge log shows only its size (before,
// L = 100000 with 25000 arrivals took 22 s formatting and copying logs).
func TestLongStateIsAbbreviated(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 20
	r, err := Run(LeakyQueue, p, make([]int64, 20), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "TAT 10000, queue [500 1000 1500 2000 2500 3000 .. 7000 7500 8000 8500 9000 9500] (19)"
	if got := r.Explain(19).State; got != want {
		t.Errorf("queue state %q, want %q", got, want)
	}
	if r.Metrics.StateValues != 20 {
		t.Errorf("state values %d, want 1 + 19 queued", r.Metrics.StateValues)
	}

	p = DefaultParams()
	p.Limit = 100_000
	arrivals := make([]int64, 3000)
	for i := range arrivals {
		arrivals[i] = int64(i / 2)
	}
	r, err = Run(SlidingLog, p, arrivals, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Explain(12).State; got != "log [0 0 1 1 2 2 .. 3 4 4 5 5 6] (13)" {
		t.Errorf("log of 13: %q", got)
	}
	if got := r.Explain(2999).State; got != "log [2000 timestamps]" {
		t.Errorf("log of 2000 (1000 ms of 2 per ms): %q", got)
	}
	if r.Metrics.StateValues != 2000 || r.Metrics.Allowed != 3000 {
		t.Errorf("metrics %+v, want 2000 values at the peak and all allowed", r.Metrics)
	}
}

// TestWhyWithCost: for a cost k > 1 the test is TAT + (k-1)T - now <= tau,
// which is not the wait; the explanation says so instead of "it would wait".
func TestWhyWithCost(t *testing.T) {
	r, err := Run(LeakyQueue, DefaultParams(), []int64{0, 100, 200, 600}, []int{2, 1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	wants := []string{
		"TAT + 1T - now = 500 <= tau 1000: departs at once",
		"TAT - now = 900 <= tau 1000: queued, departs at 1000",
		"it would wait 1300 > tau 1000", // cost 1: TAT - now is the wait
		"TAT + 2T - now = 1900 > tau 1000",
	}
	for i, w := range wants {
		if got := r.Explain(i).Why; got != w {
			t.Errorf("request %d why %q, want %q", i+1, got, w)
		}
	}
	if _, err := Run(FixedWindow, DefaultParams(), []int64{0, 1}, []int{1}); err == nil ||
		err.Error() != "invalid costs (1 value): accepted one cost per arrival (2 values)" {
		t.Errorf("cost count error %v", err)
	}
}

// TestWorst_TooLargeNamesTheFlagAndRange: a budget too large to search names
// the flag that is too large and the values that would fit (C = 63 with
// R = 2 used to blame the rate without saying what rate fits).
func TestWorst_TooLargeNamesTheFlagAndRange(t *testing.T) {
	with := func(f func(*Params)) Params { p := DefaultParams(); f(&p); return p }
	for _, tc := range []struct {
		algo          Algorithm
		param, accept string
		p             Params
	}{
		{FixedWindow, "limit", "an integer from 1 to 128", with(func(p *Params) { p.Limit = 129 })},
		{FixedWindowTTL, "limit", "an integer from 1 to 128", with(func(p *Params) { p.Limit = 129 })},
		{SlidingLog, "limit", "an integer from 1 to 256", with(func(p *Params) { p.Limit = 257 })},
		{GCRA, "capacity", "an integer from 1 to 255", with(func(p *Params) { p.Capacity = 256 })},
		{TokenBucket, "rate", "at most 1 per second with C = 255", with(func(p *Params) { p.Capacity = 255 })},
		{LeakyQueue, "rate", "at most 255 per second with W = 1000 ms", with(func(p *Params) { p.RatePerS = 256 })},
	} {
		_, err := Worst(tc.algo, tc.p)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param || !strings.HasPrefix(pe.Accept, tc.accept) {
			t.Errorf("%s %+v: %v, want --%s accepting %q", tc.algo, tc.p, err, tc.param, tc.accept)
		}
	}
	// The largest budgets that fit are searched.
	for _, p := range []Params{with(func(p *Params) { p.Limit = 128 }), with(func(p *Params) { p.Capacity = 254 })} {
		if _, err := Worst(FixedWindow, p); err != nil {
			t.Error(err)
		}
		if _, err := Worst(GCRA, p); err != nil {
			t.Error(err)
		}
	}
}

// TestWorst_L100: at L = C = R·W = 100 every search reaches its textbook
// bound (BenchmarkWorst times it: well under a second each).
func TestWorst_L100(t *testing.T) {
	p := Params{WindowMS: 1000, Limit: 100, Capacity: 100, RatePerS: 100, SubWindows: 1}
	want := map[Algorithm]int{FixedWindow: 200, FixedWindowTTL: 199, SlidingLog: 100,
		SlidingCounter: 200, TokenBucket: 199, GCRA: 199, LeakyQueue: 100}
	for _, algo := range Algorithms {
		w, err := Worst(algo, p)
		if err != nil || w.MaxInWindow != want[algo] {
			t.Errorf("%s: found %d (%v), want %d (%s)", algo, w.MaxInWindow, err, want[algo], w.Bound)
		}
	}
}

// TestBusiest: the search's ruler reads sorted times exactly as
// core.MaxInWindow does: the count and the first busiest window.
func TestBusiest(t *testing.T) {
	rng := splitmix(5)
	for range 2000 {
		n := rng.intn(30)
		times := make([]int64, n)
		for i := range times {
			times[i] = int64(rng.intn(50))
		}
		slices.Sort(times)
		w := int64(1 + rng.intn(20))
		best, first := busiest(times, w)
		want, windows := core.MaxInWindow(times, w)
		if best != want || want > 0 && first != windows[0][0] {
			t.Fatalf("%v w %d: busiest %d from %d, ruler %d %v", times, w, best, first, want, windows)
		}
	}
}

// TestWorst_HugeCapacityForAWindowAlgorithm: the window algorithms ignore C,
// so a huge C must not size their search (it tried one opening burst per
// unit of C and never finished for C = 100000).
func TestWorst_HugeCapacityForAWindowAlgorithm(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 100_000
	p.RatePerS = 1e9
	w, err := Worst(FixedWindow, p)
	if err != nil || w.MaxInWindow != 6 {
		t.Fatalf("fixed-window with C = 100000: %v, found %d, want 6", err, w.MaxInWindow)
	}
}

// TestDeepQueueStateWithoutCopies: past stateCopyMax waiting requests the
// queue's state comes from the departures the lab handed out (copying the
// chapter's queue each step made C = 100000 with 25000 arrivals take 20 s);
// it reads exactly as the chapter's own state would, at R = 3 too.
func TestDeepQueueStateWithoutCopies(t *testing.T) {
	p := DefaultParams()
	p.Capacity, p.RatePerS = 2000, 3
	r, err := Run(LeakyQueue, p, make([]int64, 1500), nil)
	if err != nil {
		t.Fatal(err)
	}
	last := r.Explain(1499)
	want := "TAT 500000, queue [333.33 666.67 1000 1333.33 1666.67 2000 .. " +
		"498000 498333.33 498666.67 499000 499333.33 499666.67] (1499)"
	if last.State != want || last.Values != 1500 {
		t.Errorf("state %q (%d values)\nwant  %q (1500)", last.State, last.Values, want)
	}
	if want := "TAT - now = 499666.67 <= tau 666333.33: queued, departs at 499666.67"; last.Why != want {
		t.Errorf("why %q, want %q", last.Why, want)
	}
	// The chapter's own state after the same requests agrees.
	k, _ := newStepper(LeakyQueue, p)
	for range 1500 {
		k.allow(0, 1)
	}
	s := k.(*queueKey).a.State()
	if got := msText(s.TAT.UnixNano()); got != "500000" || len(s.Queue) != 1499 {
		t.Errorf("chapter state: TAT %s, %d queued", got, len(s.Queue))
	}
}
