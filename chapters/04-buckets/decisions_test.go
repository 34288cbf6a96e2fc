package buckets

// What a Decision and a State report: Remaining, RetryAfter and Wait, also
// when time goes backwards.

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

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
