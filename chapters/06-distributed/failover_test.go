package distributed

import (
	"errors"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// fakeClock is a settable clock for the breaker and the local buckets.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

func newFakeClock() *fakeClock { return &fakeClock{t: time.UnixMilli(1_700_000_000_000)} }

// TestBreakerLifecycle walks closed → open → half-open → open → half-open →
// closed with a fake clock.
func TestBreakerLifecycle(t *testing.T) {
	clk := newFakeClock()
	b, err := NewBreaker(BreakerConfig{Failures: 3, Cooldown: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	step := func(what string, want BreakerState) {
		t.Helper()
		if got := b.State(); got != want {
			t.Fatalf("%s: state %v, want %v", what, got, want)
		}
	}
	step("new", BreakerClosed)
	for i := 0; i < 2; i++ {
		if !b.Allow(clk.Now()) {
			t.Fatal("closed breaker refused a call")
		}
		b.Failure(clk.Now())
	}
	step("two failures", BreakerClosed)
	b.Success()
	b.Failure(clk.Now())
	b.Failure(clk.Now())
	step("a success resets the count", BreakerClosed)
	b.Failure(clk.Now())
	step("three failures in a row", BreakerOpen)
	if b.Allow(clk.Now()) {
		t.Fatal("open breaker let a call through")
	}
	if got := b.RetryIn(clk.Now()); got != time.Second {
		t.Fatalf("RetryIn = %v, want 1s", got)
	}
	clk.Advance(999 * time.Millisecond)
	if b.Allow(clk.Now()) {
		t.Fatal("open breaker let a call through before the cool-down")
	}
	clk.Advance(time.Millisecond)
	if !b.Allow(clk.Now()) {
		t.Fatal("no probe after the cool-down")
	}
	step("probe out", BreakerHalfOpen)
	if b.Allow(clk.Now()) {
		t.Fatal("a second caller got through while the probe is out")
	}
	b.Failure(clk.Now())
	step("failed probe", BreakerOpen)
	if got := b.RetryIn(clk.Now()); got != time.Second {
		t.Fatalf("after a failed probe RetryIn = %v, want a full cool-down", got)
	}
	clk.Advance(time.Second)
	if !b.Allow(clk.Now()) {
		t.Fatal("no second probe")
	}
	b.Abandon()
	step("abandoned probe", BreakerOpen)
	if !b.Allow(clk.Now()) {
		t.Fatal("the next caller should probe after an abandoned probe")
	}
	b.Success()
	step("probe answered", BreakerClosed)
	if !b.Allow(clk.Now()) || b.RetryIn(clk.Now()) != 0 {
		t.Fatal("closed breaker after recovery refuses calls")
	}
}

func TestBreakerConfigValidate(t *testing.T) {
	for _, c := range []BreakerConfig{{Failures: 0, Cooldown: time.Second}, {Failures: 1, Cooldown: 0}} {
		_, err := NewBreaker(c)
		var pe *core.ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%+v: err %v, want a ParamError", c, err)
		}
	}
}
