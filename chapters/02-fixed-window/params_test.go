package fixedwindow

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// TestBadParams: every parameter outside the domain (a window from 1 ns to
// 1e18 ns, a limit from 1 to 1e9) is a *core.ParamError naming it, from
// Validate and from every constructor; the edges of the domain are accepted.
func TestBadParams(t *testing.T) {
	for _, bad := range algotest.BadWindowLimits {
		c := Config{Window: bad.Window, Limit: bad.Limit}
		errs := map[string]error{"Validate": c.Validate()}
		_, errs["New"] = New(c)
		_, errs["NewTTL"] = NewTTL(c)
		_, errs["NewLimiter"] = NewLimiter(c)
		_, errs["NewTTLLimiter"] = NewTTLLimiter(c)
		for fn, err := range errs {
			algotest.ParamError(t, fmt.Sprintf("%s(%+v)", fn, c), err, bad.Param)
		}
	}
	for _, good := range []Config{{Window: 1, Limit: 1}, {Window: core.MaxWindow, Limit: 1e9}} {
		if _, err := New(good); err != nil {
			t.Errorf("New(%+v): %v", good, err)
		}
		if _, err := NewTTL(good); err != nil {
			t.Errorf("NewTTL(%+v): %v", good, err)
		}
	}
}

// TestDomainEdges: at the widest window and the last instant of the domain
// (just before 2200) plain int64 nanoseconds still give the right window
// and RetryAfter, and a limit of 1e9 admits exactly 1e9.
func TestDomainEdges(t *testing.T) {
	last := core.End.Add(-1)
	for _, a := range both(t, core.MaxWindow, 1) {
		ds := []core.Decision{a.AllowN(core.Epoch, 1), a.AllowN(core.Epoch, 1), a.AllowN(last, 1), a.AllowN(last, 1)}
		if got := algotest.Letters(ds); got != "A R A R" {
			t.Fatalf("%T: %s, want A R A R", a, got)
		}
		// Aligned: the next window starts at 8e18 ns; TTL: W after last.
		want := time.Duration(8e18 - last.UnixNano())
		if _, ttl := a.(*TTLWindow); ttl {
			want = core.MaxWindow
		}
		if ds[1].RetryAfter != core.MaxWindow || ds[3].RetryAfter != want {
			t.Fatalf("%T: RetryAfter %v and %v, want %v and %v", a, ds[1].RetryAfter, ds[3].RetryAfter, core.MaxWindow, want)
		}
	}
	for _, a := range both(t, time.Second, 1e9) {
		ds := []core.Decision{a.AllowN(at(0), 1e9-1), a.AllowN(at(1), 1), a.AllowN(at(2), 1e9), a.AllowN(at(3), 1)}
		if got := algotest.Letters(ds); got != "A A R R" || ds[1].Remaining != 0 {
			t.Fatalf("%T: %s (%+v), want A A R R with Remaining 0 after 1e9", a, got, ds[1])
		}
		if st := a.State(); st.Count != 2e9+1 {
			t.Fatalf("%T: Count %d, want 2e9+1 (rejected requests count too)", a, st.Count)
		}
	}
}

// TestBadCostLeavesStateUntouched: a cost outside [1, L] is rejected with
// RetryAfter 0 and changes nothing (core.Algorithm); Keyed makes it an error.
func TestBadCostLeavesStateUntouched(t *testing.T) {
	for _, a := range both(t, time.Second, 3) {
		a.AllowN(at(100), 1)
		before := a.State()
		for _, cost := range []int{0, -1, 4} {
			d := a.AllowN(at(200), cost)
			if d.Allowed || d.RetryAfter != 0 || d.Remaining != 2 {
				t.Errorf("%T cost %d: %+v, want rejected, RetryAfter 0, Remaining 2", a, cost, d)
			}
		}
		if after := a.State(); after != before {
			t.Errorf("%T: a bad cost changed the state from %+v to %+v", a, before, after)
		}
		// A full window's count passes L (rejected requests count too), but
		// Remaining never goes below 0: after 4 requests at L = 3 the count
		// is 4, and L - count would be -1.
		for range 3 {
			a.AllowN(at(300), 1)
		}
		if st := a.State(); st.Count != 4 {
			t.Fatalf("%T: count %d after 4 requests, want 4", a, st.Count)
		}
		if d := a.AllowN(at(400), 0); d.Allowed || d.RetryAfter != 0 || d.Remaining != 0 {
			t.Errorf("%T cost 0 after 4 requests at L = 3: %+v, want rejected, RetryAfter 0, Remaining 0 (not -1)", a, d)
		}
		before = a.State()
		// After the window has rolled over, Remaining is the new window's.
		if d := a.AllowN(at(1200), 4); d.Allowed || d.RetryAfter != 0 || d.Remaining != 3 {
			t.Errorf("%T cost 4 in a later window: %+v, want rejected, RetryAfter 0, Remaining 3", a, d)
		}
		if after := a.State(); after != before {
			t.Errorf("%T: a bad cost in a later window changed the state from %+v to %+v", a, before, after)
		}
		if a.MaxCost() != 3 {
			t.Errorf("%T: MaxCost %d, want 3", a, a.MaxCost())
		}
	}
	k, err := NewLimiter(Config{Window: time.Second, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, err = k.AllowN("a", at(0), 4)
	var pe *core.ParamError
	if !errors.As(err, &pe) || pe.Param != "cost" {
		t.Fatalf("Keyed cost 4: err %v, want a ParamError naming cost", err)
	}
}
