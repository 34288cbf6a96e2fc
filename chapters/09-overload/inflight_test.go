package overload

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// bucketGate is chapter 04's token bucket as a Gate: a rate, blind to latency.
func bucketGate(t *testing.T, c buckets.Config) Gate {
	t.Helper()
	b, err := buckets.NewTokenBucket(c)
	if err != nil {
		t.Fatal(err)
	}
	return Gate{Admit: func(now time.Time) bool { return b.AllowN(now, 1).Allowed }, Done: func() {}}
}

// inFlightGate is a concurrency limit as a Gate: Done releases the slot.
func inFlightGate(t *testing.T, limit int) Gate {
	t.Helper()
	l, err := NewInFlight(limit)
	if err != nil {
		t.Fatal(err)
	}
	return Gate{
		Admit: func(time.Time) bool { return l.Acquire().Allowed },
		Done: func() {
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
		},
	}
}

// TestE24_InFlightVsRate (CONTRACT.md E24): 100 rps at 0.2 s is 20 in flight.
// When the dependency slows to 5 s, a 100/s token bucket still admits 100/s
// and 500 pile up in flight; a concurrency limit of 20 holds 20 and admits
// 20 per 5 s = 4/s. At 0.2 s the same limit of 20 admits every request.
func TestE24_InFlightVsRate(t *testing.T) {
	const span = 60 * time.Second
	rate := buckets.Config{Capacity: 100, Rate: 100}
	for _, c := range []struct {
		name         string
		gate         Gate
		latency      time.Duration
		perSec, peak int
	}{
		{"bucket 100/s, healthy 0.2 s", bucketGate(t, rate), 200 * time.Millisecond, 100, 20},
		{"bucket 100/s, slow 5 s", bucketGate(t, rate), 5 * time.Second, 100, 500},
		{"in-flight 20, healthy 0.2 s", inFlightGate(t, 20), 200 * time.Millisecond, 100, 20},
		{"in-flight 20, slow 5 s", inFlightGate(t, 20), 5 * time.Second, 4, 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Serve(c.gate, Load{Rate: 100, Latency: c.latency, Span: span})
			if err != nil {
				t.Fatal(err)
			}
			if s.Arrived != 6000 {
				t.Fatalf("arrived %d, want 6000 (100/s for 60 s)", s.Arrived)
			}
			if got := s.Admitted / 60; got != c.perSec || s.Admitted%60 != 0 {
				t.Errorf("admitted %d in 60 s (%.2f/s), want %d/s", s.Admitted, float64(s.Admitted)/60, c.perSec)
			}
			if s.Peak != c.peak {
				t.Errorf("peak in flight %d, want %d", s.Peak, c.peak)
			}
		})
	}
}

// TestLittlesLaw: behind a gate that admits everything, the peak in flight is
// rate × latency, for any steady load.
func TestLittlesLaw(t *testing.T) {
	open := Gate{Admit: func(time.Time) bool { return true }, Done: func() {}}
	for _, c := range []struct {
		rate    int
		latency time.Duration
	}{{100, 200 * time.Millisecond}, {100, 5 * time.Second}, {40, 250 * time.Millisecond}, {1000, 30 * time.Millisecond}, {7, 3 * time.Second}} {
		s, err := Serve(open, Load{Rate: c.rate, Latency: c.latency, Span: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if want := int(float64(c.rate) * c.latency.Seconds()); s.Peak != want {
			t.Errorf("%d/s × %v: peak %d in flight, want %d", c.rate, c.latency, s.Peak, want)
		}
	}
}

// TestInFlightNeverExceedsLimit: under concurrent use (run with -race) no
// more than N requests ever hold a slot, and every slot comes back.
func TestInFlightNeverExceedsLimit(t *testing.T) {
	const limit, workers, tries = 5, 16, 2000
	l, err := NewInFlight(limit)
	if err != nil {
		t.Fatal(err)
	}
	var now, peak, admitted atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range tries {
				if !l.Acquire().Allowed {
					continue
				}
				admitted.Add(1)
				n := now.Add(1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				now.Add(-1)
				if err := l.Release(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > limit || p < 1 {
		t.Errorf("peak in flight %d, want 1..%d", p, limit)
	}
	if admitted.Load() == 0 || l.InFlight() != 0 {
		t.Errorf("admitted %d, %d still in flight; want some admitted and 0 left", admitted.Load(), l.InFlight())
	}
}

func TestInFlightAcquireRelease(t *testing.T) {
	l, err := NewInFlight(2)
	if err != nil {
		t.Fatal(err)
	}
	got := []core.Decision{l.Acquire(), l.Acquire(), l.Acquire()}
	want := []core.Decision{{Allowed: true, Remaining: 1}, {Allowed: true, Remaining: 0}, {}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Acquire %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if d := l.Acquire(); !d.Allowed {
		t.Errorf("after a Release the next Acquire must be admitted: %+v", d)
	}
	if err := l.SetLimit(1); err != nil {
		t.Fatal(err)
	}
	l.Release()
	if d := l.Acquire(); d.Allowed {
		t.Errorf("limit lowered to 1 with 1 in flight: Acquire admitted %+v", d)
	}
	l.Release()
	if err := l.Release(); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Release with nothing in flight: %v, want ErrNotHeld", err)
	}
}

func TestInFlightBadParams(t *testing.T) {
	for _, n := range []int{0, -1, core.MaxCount + 1} {
		if _, err := NewInFlight(n); !isParam(err, "limit") {
			t.Errorf("NewInFlight(%d): %v, want a ParamError naming limit", n, err)
		}
	}
	l, err := NewInFlight(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, -1, core.MaxCount + 1} {
		if err := l.SetLimit(n); !isParam(err, "limit") {
			t.Errorf("SetLimit(%d): %v, want a ParamError naming limit, as NewInFlight's", n, err)
		}
	}
	if got := l.Acquire(); !got.Allowed {
		t.Error("a refused SetLimit changed the limit: nothing is admitted at limit 1")
	}
	if _, err := Serve(Gate{}, Load{Rate: 0, Span: time.Second}); !isParam(err, "rate") {
		t.Errorf("Serve with rate 0: %v", err)
	}
	if _, err := Serve(Gate{}, Load{Rate: 1, Latency: -1}); !isParam(err, "latency and span") {
		t.Errorf("Serve with a negative latency: %v", err)
	}
	if _, err := Serve(Gate{}, Load{Rate: 1e9, Span: 2 * time.Second}); !isParam(err, "span") {
		t.Errorf("Serve with 2e9 arrivals: %v", err)
	}
}

// isParam reports whether err is a *core.ParamError naming param.
func isParam(err error, param string) bool {
	var pe *core.ParamError
	return errors.As(err, &pe) && pe.Param == param
}
