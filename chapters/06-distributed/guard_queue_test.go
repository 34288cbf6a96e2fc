package distributed

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// patientGuard is a Guard over remote on clk with the given deadline and
// Patience, a breaker that opens after failures failures, and one class,
// "c", that fails closed.
func patientGuard(t *testing.T, remote Remote, clk core.Clock, deadline, patience time.Duration, failures int) *Guard {
	t.Helper()
	g, err := NewGuard(GuardConfig{Remote: remote, Timeout: deadline, Patience: patience, Clock: clk,
		Breaker: BreakerConfig{Failures: failures, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// With Patience, a call that waits past its deadline while the store answers
// other calls is waiting in the caller's own queue: it gets the store's
// answer, and the breaker counts no failure. A store that answers nothing
// fails a call once it has been silent for Patience; without Patience, at
// the deadline, as before.
//
// The Guard's deadline runs on a fake clock that the test steps one
// deadline at a time: the queued call outlasts ten deadlines, twice its
// Patience, while the store answers another call in each, and a silent
// store fails a call exactly when the clock reaches Patience (or the
// deadline without it), by the Guard's own timer.
func TestGuardDeadlineJudgesTheStoreNotTheQueue(t *testing.T) {
	const deadline, patience = 20 * time.Millisecond, 100 * time.Millisecond
	release := make(chan struct{})
	remote := RemoteFunc(func(ctx context.Context, key string, cost int) (core.Decision, error) {
		if key == "queued" { // held well past its deadline, as a long queue would
			select {
			case <-release:
			case <-ctx.Done():
				return core.Decision{}, ctx.Err()
			}
		}
		return core.Decision{Allowed: true, Remaining: 7}, nil
	})
	clk := newFakeClock()
	g := patientGuard(t, remote, clk, deadline, patience, 1)
	var out Outcome
	var callErr error
	queued := goCall(func() { out, callErr = g.AllowN(context.Background(), "c", "queued", 1) })
	// Another call is answered in each deadline, for ten deadlines.
	for range 10 {
		waitTimers(t, clk, 1) // the queued call waits on its deadline
		if _, err := g.AllowN(context.Background(), "c", "other", 1); err != nil {
			t.Fatalf("another call failed while the store answered: %v", err)
		}
		clk.Advance(deadline)
	}
	waitTimers(t, clk, 1) // still waiting, after twice its Patience
	close(release)
	<-queued
	if callErr != nil || out.Source != SourceRemote || out.Remaining != 7 {
		t.Fatalf("the queued call: %+v, %v; want the store's answer (remote, remaining 7)", out, callErr)
	}
	if st := g.Stats(); st.RemoteFailures != 0 || g.Breaker().State() != BreakerClosed {
		t.Fatalf("failures %d, breaker %v; want 0 and closed", st.RemoteFailures, g.Breaker().State())
	}

	// A store that answers nothing fails a call at Patience, or at the
	// deadline without it, by the Guard's timer: the caller set none.
	silent := RemoteFunc(func(ctx context.Context, _ string, _ int) (core.Decision, error) {
		<-ctx.Done()
		return core.Decision{}, ctx.Err()
	})
	for _, p := range []time.Duration{patience, 0} {
		clk := newFakeClock()
		g2 := patientGuard(t, silent, clk, deadline, p, 1)
		want := max(deadline, p)
		var err error
		done := goCall(func() { _, err = g2.AllowN(context.Background(), "c", "k", 1) })
		if took := stepUntilDone(t, clk, deadline, done); !errors.Is(err, ErrUnavailable) || took != want {
			t.Fatalf("a silent store, patience %v: %v after %v; want ErrUnavailable from the Guard at %v", p, err, took, want)
		}
	}
}

// A store that falls silent while a call waits fails that call once the
// silence, counted from the store's last answer, has lasted Patience: not
// at the deadline and not never. The last answer comes 30 ms after the
// waiting call started, so the call fails at 30 + 150 ms on the clock; one
// that counted from its own start would fail at 150 ms.
func TestGuardPatienceEndsTheWait(t *testing.T) {
	const deadline, patience, answerAt = 10 * time.Millisecond, 150 * time.Millisecond, 30 * time.Millisecond
	remote := RemoteFunc(func(ctx context.Context, key string, cost int) (core.Decision, error) {
		if key == "hangs" {
			<-ctx.Done()
			return core.Decision{}, ctx.Err()
		}
		return core.Decision{Allowed: true}, nil
	})
	clk := newFakeClock()
	g := patientGuard(t, remote, clk, deadline, patience, 3)
	var callErr error
	done := goCall(func() { _, callErr = g.AllowN(context.Background(), "c", "hangs", 1) })
	for range answerAt / deadline {
		waitTimers(t, clk, 1)
		clk.Advance(deadline)
	}
	waitTimers(t, clk, 1)
	if _, err := g.AllowN(context.Background(), "c", "ok", 1); err != nil { // one answer, then silence
		t.Fatal(err)
	}
	took := answerAt + stepUntilDone(t, clk, deadline, done)
	if want := answerAt + patience; !errors.Is(callErr, ErrUnavailable) || took != want {
		t.Fatalf("the waiting call: %v after %v on the clock; want ErrUnavailable from the Guard at %v", callErr, took, want)
	}
}
