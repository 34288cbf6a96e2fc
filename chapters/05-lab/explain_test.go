package lab

import "testing"

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
