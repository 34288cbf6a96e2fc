package distributed

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

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
	allow := func() Ticket {
		t.Helper()
		tk, ok := b.Allow(clk.Now())
		if !ok {
			t.Fatalf("breaker %v refused a call", b.State())
		}
		return tk
	}
	refused := func(what string) {
		t.Helper()
		if _, ok := b.Allow(clk.Now()); ok {
			t.Fatalf("%s: the breaker let a call through", what)
		}
	}
	for i := 0; i < 2; i++ {
		b.Failure(allow(), clk.Now())
	}
	step("two failures", BreakerClosed)
	b.Success(allow())
	b.Failure(allow(), clk.Now())
	b.Failure(allow(), clk.Now())
	step("a success resets the count", BreakerClosed)
	b.Failure(allow(), clk.Now())
	step("three failures in a row", BreakerOpen)
	refused("open")
	if got := b.RetryIn(clk.Now()); got != time.Second {
		t.Fatalf("RetryIn = %v, want 1s", got)
	}
	clk.Advance(999 * time.Millisecond)
	refused("before the cool-down")
	clk.Advance(time.Millisecond)
	probe := allow()
	step("probe out", BreakerHalfOpen)
	refused("a second caller while the probe is out")
	b.Failure(probe, clk.Now())
	step("failed probe", BreakerOpen)
	if got := b.RetryIn(clk.Now()); got != time.Second {
		t.Fatalf("after a failed probe RetryIn = %v, want a full cool-down", got)
	}
	clk.Advance(time.Second)
	b.Abandon(allow())
	step("abandoned probe", BreakerOpen)
	b.Success(allow()) // the next caller probes after an abandoned probe
	step("probe answered", BreakerClosed)
	if _, ok := b.Allow(clk.Now()); !ok || b.RetryIn(clk.Now()) != 0 {
		t.Fatal("closed breaker after recovery refuses calls")
	}
}

// TestBreakerIgnoresCallsBegunBeforeItOpened: a call that began while the
// breaker was closed and answers after it opened (a slow success from
// before the outage) neither closes it nor, failing late, restarts its
// cool-down. Before tickets, the late success closed the breaker again.
func TestBreakerIgnoresCallsBegunBeforeItOpened(t *testing.T) {
	clk := newFakeClock()
	b, err := NewBreaker(BreakerConfig{Failures: 3, Cooldown: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := b.Allow(clk.Now())
	late, _ := b.Allow(clk.Now())
	for i := 0; i < 3; i++ {
		tk, _ := b.Allow(clk.Now())
		b.Failure(tk, clk.Now())
	}
	if b.State() != BreakerOpen {
		t.Fatalf("breaker %v after 3 failures, want open", b.State())
	}
	b.Success(slow)
	if b.State() != BreakerOpen {
		t.Fatalf("a success begun before the breaker opened moved it to %v", b.State())
	}
	clk.Advance(900 * time.Millisecond)
	b.Failure(late, clk.Now())
	if got := b.RetryIn(clk.Now()); got != 100*time.Millisecond {
		t.Fatalf("a late failure restarted the cool-down: RetryIn %v, want 100ms", got)
	}
	// The probe's own outcome counts; an old ticket still does not.
	clk.Advance(100 * time.Millisecond)
	probe, ok := b.Allow(clk.Now())
	if !ok {
		t.Fatal("no probe after the cool-down")
	}
	b.Abandon(slow)
	b.Failure(late, clk.Now())
	if b.State() != BreakerHalfOpen {
		t.Fatalf("old tickets changed a half-open breaker to %v", b.State())
	}
	b.Success(probe)
	if b.State() != BreakerClosed {
		t.Fatalf("the probe's success left the breaker %v", b.State())
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

// TestGuardIgnoresSuccessBegunBeforeBreakerOpened: a slow call that began
// while the breaker was closed answers after three fast failures opened it.
// Its success must not close the breaker (it did before the breaker gave
// out tickets), and the requests after it still fall back.
func TestGuardIgnoresSuccessBegunBeforeBreakerOpened(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int64
	r := RemoteFunc(func(_ context.Context, key string, _ int) (core.Decision, error) {
		calls.Add(1)
		if key == "slow" {
			close(started)
			<-release
			return core.Decision{Allowed: true}, nil
		}
		return core.Decision{}, errDown
	})
	clk := newFakeClock()
	g, err := NewGuard(GuardConfig{Remote: r, Timeout: 10 * time.Second,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	slow := make(chan Outcome)
	go func() { o, _ := g.Allow(ctx, "read", "slow"); slow <- o }()
	<-started
	for i := 0; i < 3; i++ {
		g.Allow(ctx, "read", "fast")
	}
	if g.Breaker().State() != BreakerOpen {
		t.Fatalf("breaker %v after 3 failures, want open", g.Breaker().State())
	}
	close(release)
	if o := <-slow; o.Source != SourceRemote || !o.Allowed {
		t.Fatalf("the slow call: %+v; want Redis's answer (it came within its deadline)", o)
	}
	if g.Breaker().State() != BreakerOpen {
		t.Fatalf("a success begun before the breaker opened moved it to %v", g.Breaker().State())
	}
	if o, _ := g.Allow(ctx, "read", "next"); o.Source != SourceLocal || calls.Load() != 4 {
		t.Fatalf("next request %+v after %d calls; want a local decision and no new call", o, calls.Load())
	}
}

// TestFailClosedRetryAfterAtLeastOneSecond: every fail-closed refusal
// carries a Retry-After of at least MinRetryAfter (1 s): the first failures,
// before the breaker opens; while it is open (its time to the next probe,
// or 1 s if that is shorter); while the probe is out. Before, the first two
// and the half-open ones said 0: "retry at once", into the outage.
func TestFailClosedRetryAfterAtLeastOneSecond(t *testing.T) {
	ctx := context.Background()
	for _, cooldown := range []time.Duration{100 * time.Millisecond, 5 * time.Second} {
		clk := newFakeClock()
		var hang atomic.Bool
		probing, release := make(chan struct{}), make(chan struct{})
		r := RemoteFunc(func(context.Context, string, int) (core.Decision, error) {
			if hang.Load() {
				close(probing)
				<-release
			}
			return core.Decision{}, errDown
		})
		g, err := NewGuard(GuardConfig{Remote: r, Timeout: 10 * time.Second,
			Breaker: BreakerConfig{Failures: 3, Cooldown: cooldown}, Classes: e15Classes(t), Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, want time.Duration) {
			t.Helper()
			o, err := g.Allow(ctx, "login", "u")
			if !errors.Is(err, ErrUnavailable) || o.RetryAfter != want {
				t.Errorf("cooldown %v, %s: RetryAfter %v, %v; want %v, ErrUnavailable", cooldown, what, o.RetryAfter, err, want)
			}
		}
		check("1st failure, breaker closed", time.Second)
		check("2nd failure, breaker closed", time.Second)
		check("3rd failure opens the breaker", max(time.Second, cooldown))
		check("breaker open", max(time.Second, cooldown))

		// Half-open: the probe is out (and held there) while another login is refused.
		clk.Advance(cooldown)
		hang.Store(true)
		probe := make(chan struct{})
		go func() { g.Allow(ctx, "login", "probe"); close(probe) }()
		<-probing
		if g.Breaker().State() != BreakerHalfOpen {
			t.Fatalf("breaker %v with the probe out, want half-open", g.Breaker().State())
		}
		check("probe out (half-open)", time.Second)
		close(release)
		<-probe
	}
}
