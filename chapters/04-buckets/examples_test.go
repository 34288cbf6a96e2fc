package buckets

// The worked examples E5 and E6 (CONTRACT.md §3): one burst through the
// token bucket, GCRA and the queue.

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

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
