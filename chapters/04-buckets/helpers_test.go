package buckets

import (
	"math"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// The helpers every test of the chapter plays requests through. The tests
// use only the exported API, so that they run unchanged against the
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
