package buckets

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// The tests use only the exported API, so that they run unchanged against the
// exercise stubs (go test -tags exercise).

const W = 1000 // ms: the window the contract measures bursts in

func ms(v int64) time.Time { return time.UnixMilli(v) }

// algo names one of the three implementations and builds it.
type algo struct {
	name string
	make func(Config) (core.Algorithm, error)
}

var (
	tokenBucket = algo{"token-bucket", func(c Config) (core.Algorithm, error) { return NewTokenBucket(c) }}
	gcra        = algo{"gcra", func(c Config) (core.Algorithm, error) { return NewGCRA(c) }}
	leakyQueue  = algo{"leaky-queue", func(c Config) (core.Algorithm, error) { return NewLeakyQueue(c) }}
	allAlgos    = []algo{tokenBucket, gcra, leakyQueue}
)

// newAlgo builds a or stops the test with the constructor's error (in
// exercise mode, the hint to go and write it).
func newAlgo(t testing.TB, a algo, c Config) core.Algorithm {
	t.Helper()
	l, err := a.make(c)
	if err != nil {
		t.Fatalf("%s %+v: %v", a.name, c, err)
	}
	if l == nil {
		t.Fatalf("%s %+v: constructor returned nil and no error", a.name, c)
	}
	return l
}

// req is one request: arrival (ns since the origin, usually whole ms) and cost.
type req struct {
	at   time.Duration
	cost int
}

func arrivalsMS(v ...int64) []req {
	rs := make([]req, len(v))
	for i, x := range v {
		rs[i] = req{time.Duration(x) * time.Millisecond, 1}
	}
	return rs
}

// play runs the requests through a fresh a and returns the decisions.
func play(t testing.TB, a algo, c Config, rs []req) []core.Decision {
	t.Helper()
	l := newAlgo(t, a, c)
	ds := make([]core.Decision, len(rs))
	for i, r := range rs {
		ds[i] = l.AllowN(time.UnixMilli(0).Add(r.at), r.cost)
	}
	return ds
}

// sentMS returns the send times (arrival + Wait) of the allowed requests.
func sentMS(rs []req, ds []core.Decision) []float64 {
	var out []float64
	for i, d := range ds {
		if d.Allowed {
			out = append(out, float64(rs[i].at+d.Wait)/float64(time.Millisecond))
		}
	}
	return out
}

// maxInWindow measures send times given in ms with the course ruler
// (core.MaxInWindow), in whole ns so that exact departures stay exact.
func maxInWindow(sent []float64, w float64) int {
	ns := make([]int64, len(sent))
	for i, ms := range sent {
		ns[i] = int64(math.Round(ms * 1e6))
	}
	n, _ := core.MaxInWindow(ns, int64(w*1e6))
	return n
}

// checkRetryAfter verifies every rejection's RetryAfter by replaying the
// requests before it into a fresh limiter and probing: the same request sent
// RetryAfter later is allowed, whether or not the rejected attempt reached the
// limiter first; 1 ms earlier it is not, and RetryAfter is exact to the
// nanosecond. (The token bucket's 1e-9-token tolerance is 1/R ns of refill,
// so it may admit up to that much before its exact RetryAfter.) Replaying
// keeps the probe independent of internals.
func checkRetryAfter(t *testing.T, a algo, c Config, rs []req, ds []core.Decision) {
	t.Helper()
	probe := func(i int, withRejected bool, at time.Duration) bool {
		l := newAlgo(t, a, c)
		upto := i
		if withRejected {
			upto = i + 1
		}
		for _, r := range rs[:upto] {
			l.AllowN(time.UnixMilli(0).Add(r.at), r.cost)
		}
		return l.AllowN(time.UnixMilli(0).Add(at), rs[i].cost).Allowed
	}
	tight := time.Nanosecond
	if a.name == tokenBucket.name {
		tight += time.Duration(math.Ceil(1 / c.Rate))
	}
	for i, d := range ds {
		if d.Allowed {
			if d.RetryAfter != 0 {
				t.Errorf("%s request %d: allowed with RetryAfter %v", a.name, i+1, d.RetryAfter)
			}
			continue
		}
		if d.RetryAfter <= 0 {
			t.Errorf("%s request %d: rejected with RetryAfter %v", a.name, i+1, d.RetryAfter)
			continue
		}
		at := rs[i].at + d.RetryAfter
		for _, retried := range []bool{true, false} {
			if !probe(i, retried, at) {
				t.Errorf("%s request %d: RetryAfter %v too early: still rejected then", a.name, i+1, d.RetryAfter)
			}
			for _, early := range []time.Duration{tight, time.Millisecond} {
				if probe(i, retried, at-early) {
					t.Errorf("%s request %d: RetryAfter %v not tight: allowed %v earlier", a.name, i+1, d.RetryAfter, early)
				}
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

func TestE5_TokenBucketBurstPlusRefill(t *testing.T) {
	c := Config{Capacity: 3, Rate: 3}
	rs := arrivalsMS(0, 0, 0, 334, 667)
	for _, a := range []algo{tokenBucket, gcra} { // GCRA must agree (E6)
		ds := play(t, a, c, rs)
		if got := algotest.Letters(ds); got != "A A A A A" {
			t.Errorf("%s: %s, want A A A A A", a.name, got)
		}
		if n := maxInWindow(sentMS(rs, ds), W); n != 5 {
			t.Errorf("%s: max in any W = %d, want 5 (overshoot 2 against L = 3)", a.name, n)
		}
		checkRetryAfter(t, a, c, rs, ds)
	}
	// The tokens behind it: 0 at 0 ms, 1.002 at 334 ms, then 0.002 + 0.999.
	b, err := NewTokenBucket(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs[:3] {
		b.AllowN(ms(0).Add(r.at), 1)
	}
	for _, x := range []struct {
		at   int64
		want float64
	}{{0, 0}, {334, 1.002}} {
		if got := b.Tokens(ms(x.at)); !near(got, x.want) {
			t.Errorf("tokens at %d ms = %.12f, want %g", x.at, got, x.want)
		}
	}
	b.AllowN(ms(334), 1)
	if got := b.Tokens(ms(667)); !near(got, 1.001) {
		t.Errorf("tokens at 667 ms = %.12f, want 1.001", got)
	}
}

func TestE6_SameBurstTwoBuckets(t *testing.T) {
	rs := arrivalsMS(0, 10, 20, 30)
	c3 := Config{Capacity: 3, Rate: 2}
	if c3.Interval() != 500*time.Millisecond || c3.Tau() != 1000*time.Millisecond {
		t.Fatalf("T, tau = %v, %v; want 500ms, 1s", c3.Interval(), c3.Tau())
	}

	t.Run("token-bucket C=3", func(t *testing.T) {
		b, err := NewTokenBucket(c3)
		if err != nil {
			t.Fatal(err)
		}
		var ds []core.Decision
		for i, r := range rs {
			if i == 3 {
				if got := b.Tokens(ms(30)); !near(got, 0.06) {
					t.Errorf("4th finds %.12f tokens, want 0.06", got)
				}
			}
			ds = append(ds, b.AllowN(ms(0).Add(r.at), 1))
		}
		if got := algotest.Letters(ds); got != "A A A R" {
			t.Errorf("%s, want A A A R", got)
		}
		if ds[3].RetryAfter != 470*time.Millisecond {
			t.Errorf("4th RetryAfter = %v, want 470ms (0.94 tokens at 2/s)", ds[3].RetryAfter)
		}
		if got := sentMS(rs, ds); !equalMS(got, 0, 10, 20) {
			t.Errorf("sent at %v ms, want 0 10 20 (3 within 20 ms)", got)
		}
		checkRetryAfter(t, tokenBucket, c3, rs, ds)
	})

	t.Run("leaky-queue C=3", func(t *testing.T) {
		q, err := NewLeakyQueue(c3)
		if err != nil {
			t.Fatal(err)
		}
		var ds []core.Decision
		for _, r := range rs {
			ds = append(ds, q.AllowN(ms(0).Add(r.at), 1))
		}
		if got := algotest.Letters(ds); got != "A A A R" {
			t.Errorf("%s, want A A A R", got)
		}
		for i, want := range []time.Duration{0, 490 * time.Millisecond, 980 * time.Millisecond} {
			if ds[i].Wait != want {
				t.Errorf("request %d waits %v, want %v", i+1, ds[i].Wait, want)
			}
		}
		if got := sentMS(rs, ds); !equalMS(got, 0, 500, 1000) {
			t.Errorf("departures %v ms, want 0 500 1000", got)
		}
		st := q.State()
		if wait := st.TAT.Sub(ms(30)); wait != 1470*time.Millisecond || wait <= c3.Tau() {
			t.Errorf("4th would wait %v, want 1470ms > tau 1s", wait)
		}
		if len(st.Queue) != 2 || !st.Queue[0].Equal(ms(500)) || !st.Queue[1].Equal(ms(1000)) {
			t.Errorf("queue at 30 ms = %v, want departures at 500 and 1000 ms", st.Queue)
		}
		checkRetryAfter(t, leakyQueue, c3, rs, ds)
	})

	t.Run("gcra C=3 equals token-bucket", func(t *testing.T) {
		tb, g := play(t, tokenBucket, c3, rs), play(t, gcra, c3, rs)
		for i := range rs {
			if tb[i] != g[i] {
				t.Errorf("request %d: gcra %+v, token-bucket %+v", i+1, g[i], tb[i])
			}
		}
		if got := sentMS(rs, g); !equalMS(got, 0, 10, 20) {
			t.Errorf("gcra sent at %v ms, want 0 10 20", got)
		}
	})

	c6 := Config{Capacity: 6, Rate: 2}
	t.Run("C=6", func(t *testing.T) {
		for _, a := range []algo{tokenBucket, gcra} {
			ds := play(t, a, c6, rs)
			if got := algotest.Letters(ds); got != "A A A A" {
				t.Errorf("%s: %s, want A A A A", a.name, got)
			}
			if n := maxInWindow(sentMS(rs, ds), W); n != 4 {
				t.Errorf("%s: max in any W = %d, want 4 (overshoot 1)", a.name, n)
			}
		}
		ds := play(t, leakyQueue, c6, rs)
		if got := algotest.Letters(ds); got != "A A A A" {
			t.Errorf("leaky-queue: %s, want A A A A", got)
		}
		sent := sentMS(rs, ds)
		if !equalMS(sent, 0, 500, 1000, 1500) {
			t.Errorf("leaky-queue departures %v ms, want 0 500 1000 1500", sent)
		}
		if n := maxInWindow(sent, W); n != 2 {
			t.Errorf("leaky-queue: max in any W = %d, want 2", n)
		}
		var longest time.Duration
		for _, d := range ds {
			longest = max(longest, d.Wait)
		}
		if longest != 1470*time.Millisecond {
			t.Errorf("leaky-queue: longest wait %v, want 1470ms", longest)
		}
	})
}

func equalMS(got []float64, want ...float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !near(got[i], want[i]) {
			return false
		}
	}
	return true
}

// TestRemainingAndRetryAfter checks the Decision fields on a weighted sequence
// for all three algorithms: Remaining is the whole permits left, and every
// RetryAfter is exactly the earliest time the same request would pass.
func TestRemainingAndRetryAfter(t *testing.T) {
	c := Config{Capacity: 5, Rate: 4} // T = 250 ms
	rs := []req{
		{0, 3}, {0, 3}, {100 * time.Millisecond, 2}, {300 * time.Millisecond, 5},
		{700 * time.Millisecond, 1}, {700 * time.Millisecond, 4}, {2 * time.Second, 5},
		{2 * time.Second, 1}, {2001 * time.Millisecond, 1},
	}
	// Tokens: 5 -3=2 | 2<3 R | 2.4-2=0.4 | 1.2<5 R | 2.8-1=1.8 | 1.8<4 R | 5-5=0 | 0<1 R | 0.004<1 R
	wantV := "A R A R A R A R R"
	wantRem := []int{2, 2, 0, 1, 1, 1, 0, 0, 0}
	wantRetry := []time.Duration{0, 250 * time.Millisecond, 0, 950 * time.Millisecond, 0,
		550 * time.Millisecond, 0, 250 * time.Millisecond, 249 * time.Millisecond}
	for _, a := range allAlgos {
		ds := play(t, a, c, rs)
		if got := algotest.Letters(ds); got != wantV {
			t.Errorf("%s: %s, want %s", a.name, got, wantV)
		}
		for i, d := range ds {
			if d.Remaining != wantRem[i] || d.RetryAfter != wantRetry[i] {
				t.Errorf("%s request %d: Remaining %d RetryAfter %v, want %d %v",
					a.name, i+1, d.Remaining, d.RetryAfter, wantRem[i], wantRetry[i])
			}
		}
		checkRetryAfter(t, a, c, rs, ds)
	}
}

func TestBadParameters(t *testing.T) {
	cases := []struct {
		c     Config
		param string
	}{
		{Config{Capacity: 0, Rate: 1}, "capacity"},
		{Config{Capacity: -3, Rate: 1}, "capacity"},
		{Config{Capacity: core.MaxCount + 1, Rate: 1e9}, "capacity"},
		{Config{Capacity: 1 << 53, Rate: 1e9}, "capacity"}, // beyond float64's whole numbers too
		{Config{Capacity: 3, Rate: 0}, "rate"},
		{Config{Capacity: 3, Rate: -2}, "rate"},
		{Config{Capacity: 3, Rate: math.NaN()}, "rate"},
		{Config{Capacity: 3, Rate: math.Inf(1)}, "rate"},
		{Config{Capacity: 3, Rate: math.Inf(-1)}, "rate"},
		{Config{Capacity: 3, Rate: 2e9}, "rate"},            // T below one nanosecond
		{Config{Capacity: 3, Rate: 1e-12}, "rate"},          // refilling would take 95 000 years
		{Config{Capacity: 1e9, Rate: 0.5}, "rate"},          // a full refill of 2e9 s
		{Config{Capacity: 0, Rate: math.NaN()}, "capacity"}, // the first bad one is named
	}
	check := func(t *testing.T, what string, err error, param string) {
		t.Helper()
		var pe *core.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *core.ParamError naming %q", what, err, param)
			return
		}
		if pe.Param != param || pe.Accept == "" {
			t.Errorf("%s: ParamError %+v, want Param %q with accepted values", what, pe, param)
		}
	}
	for _, tc := range cases {
		check(t, "Validate", tc.c.Validate(), tc.param)
		for _, a := range allAlgos {
			l, err := a.make(tc.c)
			check(t, a.name, err, tc.param)
			if err == nil && l != nil {
				t.Errorf("%s %+v: got a limiter", a.name, tc.c)
			}
		}
		_, err := NewTokenBucketLimiter(tc.c)
		check(t, "NewTokenBucketLimiter", err, tc.param)
		_, err = NewGCRALimiter(tc.c)
		check(t, "NewGCRALimiter", err, tc.param)
		_, err = NewLeakyQueueLimiter(tc.c)
		check(t, "NewLeakyQueueLimiter", err, tc.param)
	}
	for _, c := range []Config{{1, 1}, {3, 2}, {1e9, 1e9}, {1e9, 1}, {1, 1e-9}, {100, 100.0 / 60}} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v, want valid", c, err)
		}
	}
	// Instants outside the domain (1970 to 2200) are refused by the keyed
	// limiters, so no TAT comes near the end of int64 nanoseconds (2262).
	c := Config{Capacity: 3, Rate: 2}
	tb, err1 := NewTokenBucketLimiter(c)
	g, err2 := NewGCRALimiter(c)
	q, err3 := NewLeakyQueueLimiter(c)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC), core.End, time.Unix(0, math.MaxInt64)} {
		for name, l := range map[string]keyedAllow{"token-bucket": tb, "gcra": g, "leaky-queue": q} {
			_, err := l.AllowN("k", now, 1)
			check(t, fmt.Sprintf("%s at %v", name, now), err, "time")
		}
	}
}

// TestDomainCorners: at the corners of the domain (C = 1e9 at R = 1e9 and at
// R = 1, whose tau is 31 years; C = 1 at R = 1e-9, T = 1e18 ns) in the year
// 2199, a full bucket is spent in one request, the next is rejected, its
// RetryAfter is about T, and waiting it out admits it.
func TestDomainCorners(t *testing.T) {
	start := time.Date(2199, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []Config{{1e9, 1e9}, {1e9, 1}, {1, 1e-9}} {
		T := 1e9 / c.Rate
		for _, a := range allAlgos {
			l := newAlgo(t, a, c)
			if d := l.AllowN(start, c.Capacity); !d.Allowed || d.Remaining != 0 {
				t.Errorf("%s %+v: the full bucket's worth %+v, want allowed, 0 left", a.name, c, d)
			}
			d := l.AllowN(start, 1)
			if d.Allowed || math.Abs(float64(d.RetryAfter)-T) > 1e-9*T+1 {
				t.Errorf("%s %+v: the next %+v, want rejected with RetryAfter %g ns", a.name, c, d, T)
			}
			if d := l.AllowN(start.Add(d.RetryAfter), 1); !d.Allowed {
				t.Errorf("%s %+v: rejected after waiting RetryAfter out: %+v", a.name, c, d)
			}
		}
	}
}

// TestCostOutOfRange: a cost the bucket could never hold is rejected at
// once, RetryAfter 0, state untouched; through Keyed it is an error.
func TestCostOutOfRange(t *testing.T) {
	c := Config{Capacity: 3, Rate: 2}
	for _, a := range allAlgos {
		l := newAlgo(t, a, c)
		if l.MaxCost() != 3 {
			t.Errorf("%s: MaxCost %d, want 3", a.name, l.MaxCost())
		}
		l.AllowN(ms(0), 2)
		for _, cost := range []int{0, -1, 4} {
			if d := l.AllowN(ms(10), cost); d.Allowed || d.RetryAfter != 0 || d.Wait != 0 {
				t.Errorf("%s cost %d: %+v, want rejected with RetryAfter 0", a.name, cost, d)
			}
		}
		if d := l.AllowN(ms(10), 1); !d.Allowed { // only 2 of 3 spent
			t.Errorf("%s: bad costs changed the state: %+v", a.name, d)
		}
	}
	tb, err := NewTokenBucketLimiter(c)
	if err != nil {
		t.Fatal(err)
	}
	var pe *core.ParamError
	if _, err := tb.AllowN("k", ms(0), 4); !errors.As(err, &pe) || pe.Param != "cost" {
		t.Errorf("Keyed cost 4: %v, want ParamError naming cost", err)
	}
}

// TestTimeGoingBackwards: an earlier now is taken as the latest time seen,
// and the delays handed back (RetryAfter, Wait) are counted from the
// caller's own now, 600 ms behind: waiting them out never arrives early.
func TestTimeGoingBackwards(t *testing.T) {
	c := Config{Capacity: 2, Rate: 2}
	for _, a := range allAlgos {
		fwd := play(t, a, c, arrivalsMS(1000, 1000, 1000, 1400))
		back := play(t, a, c, arrivalsMS(1000, 1000, 400, 1400))
		fwd[2].RetryAfter += 600 * time.Millisecond // rejected: 500 ms after 1000 is 1.1 s after 400
		if fwd[2].Allowed || back[2].RetryAfter != 1100*time.Millisecond {
			t.Errorf("%s: the late request %+v, want rejected with RetryAfter 1.1s", a.name, back[2])
		}
		for i := range fwd {
			if fwd[i] != back[i] {
				t.Errorf("%s request %d: %+v with time going back, %+v without", a.name, i+1, back[i], fwd[i])
			}
		}
	}
}

func TestStateSnapshots(t *testing.T) {
	c := Config{Capacity: 3, Rate: 2}
	b, err := NewTokenBucket(c)
	if err != nil {
		t.Fatal(err)
	}
	if s := b.State(); s.Tokens != 3 || !s.Last.IsZero() {
		t.Errorf("fresh token bucket state %+v, want full and zero time", s)
	}
	b.AllowN(ms(0), 2)
	b.AllowN(ms(250), 1)
	if s := b.State(); !near(s.Tokens, 0.5) || !s.Last.Equal(ms(250)) {
		t.Errorf("token bucket state %+v, want 0.5 tokens at 250 ms", s)
	}
	g, err := NewGCRA(c)
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().TAT.IsZero() {
		t.Errorf("fresh GCRA TAT %v, want zero", g.State().TAT)
	}
	g.AllowN(ms(100), 2)
	if s := g.State(); !s.TAT.Equal(ms(1100)) {
		t.Errorf("GCRA TAT %v, want 1100 ms (first arrival + 2T)", s.TAT)
	}
	q, err := NewLeakyQueue(c)
	if err != nil {
		t.Fatal(err)
	}
	q.AllowN(ms(0), 1)
	q.AllowN(ms(0), 1)
	q.AllowN(ms(0), 1)
	s := q.State()
	s.Queue[0] = ms(99) // a copy: must not reach the queue
	if s2 := q.State(); len(s2.Queue) != 2 || !s2.Queue[0].Equal(ms(500)) || !s2.TAT.Equal(ms(1500)) {
		t.Errorf("queue state %+v, want TAT 1500 and departures 500, 1000", s2)
	}
	q.AllowN(ms(600), 1) // 500 has departed; this one departs at 1500
	if s3 := q.State(); len(s3.Queue) != 2 || !s3.Queue[0].Equal(ms(1000)) || !s3.Queue[1].Equal(ms(1500)) {
		t.Errorf("queue state at 600 ms %+v, want departures 1000, 1500", s3.Queue)
	}
}

// TestLateRequestWaitsFromCallersNow is a regression test: a queued request
// stamped 600 ms behind the latest time seen is scheduled from that latest
// time, and its Wait is counted from the caller's own now, so that holding
// it for Wait never sends it before its slot.
func TestLateRequestWaitsFromCallersNow(t *testing.T) {
	q := newAlgo(t, leakyQueue, Config{Capacity: 3, Rate: 2})
	q.AllowN(ms(1000), 1)     // departs at once; the next slot is 1500
	d := q.AllowN(ms(400), 1) // decided at 1000
	if !d.Allowed || d.Wait != 1100*time.Millisecond {
		t.Fatalf("late request: %+v, want allowed with Wait 1.1s (departure 1500, caller at 400)", d)
	}
}
