package distributed

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// With Patience, a call that waits past its deadline while the store answers
// other calls is waiting in the caller's own queue: it gets the store's
// answer, and the breaker counts no failure. A store that answers nothing
// fails a call once it has been silent for Patience; without Patience, at
// the deadline, as before.
//
// The Guard's deadline runs on real time, so each part gives the machine's
// speed no say: the store answers others while the queued call outlasts five
// of its deadlines, and a Patience of a minute (no scheduler stalls that
// long) means the only way for the queued call to fail is to be failed at
// a deadline, which is the bug. A silent store must fail a call after
// Patience, never before it (timers never fire early), and by the Guard,
// not by the caller's own deadline, which is a hang's limit far past it.
func TestGuardDeadlineJudgesTheStoreNotTheQueue(t *testing.T) {
	const deadline, patience = 20 * time.Millisecond, time.Minute
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
	g, err := NewGuard(GuardConfig{Remote: remote, Timeout: deadline, Patience: patience,
		Breaker: BreakerConfig{Failures: 1, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
	if err != nil {
		t.Fatal(err)
	}
	var out Outcome
	var callErr error
	queued := make(chan struct{})
	begin := time.Now()
	go func() {
		defer close(queued)
		out, callErr = g.AllowN(context.Background(), "c", "queued", 1)
	}()
	// Others are answered all along, until the queued call has waited five
	// deadlines (more on a slow machine; that only proves more).
	for time.Since(begin) < 5*deadline {
		if _, err := g.AllowN(context.Background(), "c", "other", 1); err != nil {
			t.Fatalf("another call failed while the store answered: %v", err)
		}
		time.Sleep(deadline / 5) // pacing, not waiting for anything
	}
	select {
	case <-queued:
		t.Fatalf("the queued call returned before the store answered it: %+v, %v", out, callErr)
	default:
	}
	close(release)
	<-queued
	if callErr != nil || out.Source != SourceRemote || out.Remaining != 7 {
		t.Fatalf("the queued call: %+v, %v; want the store's answer (remote, remaining 7)", out, callErr)
	}
	if st := g.Stats(); st.RemoteFailures != 0 || g.Breaker().State() != BreakerClosed {
		t.Fatalf("failures %d, breaker %v; want 0 and closed", st.RemoteFailures, g.Breaker().State())
	}

	// A store that answers nothing fails a call after Patience, or at the
	// deadline without it: never before, and by the Guard, before the
	// caller's own deadline ends the wait.
	silent := RemoteFunc(func(ctx context.Context, _ string, _ int) (core.Decision, error) {
		<-ctx.Done()
		return core.Decision{}, ctx.Err()
	})
	const shortPatience, hang = 100 * time.Millisecond, 20 * time.Second
	for _, p := range []time.Duration{shortPatience, 0} {
		g2, err := NewGuard(GuardConfig{Remote: silent, Timeout: deadline, Patience: p,
			Breaker: BreakerConfig{Failures: 1, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
		if err != nil {
			t.Fatal(err)
		}
		want := max(deadline, p)
		ctx, cancel := context.WithTimeout(context.Background(), hang)
		begin := time.Now()
		_, err = g2.AllowN(ctx, "c", "k", 1)
		took := time.Since(begin)
		cancel()
		if !errors.Is(err, ErrUnavailable) || took < want {
			t.Fatalf("a silent store, patience %v: %v after %v; want ErrUnavailable from the Guard, no sooner than %v", p, err, took, want)
		}
		t.Logf("a silent store, patience %v: failed after %v", p, took)
	}
}

// A store that falls silent while a call waits fails that call once the
// silence, counted from the store's last answer, has lasted Patience: not
// at the deadline and not never. The last answer comes after the waiting
// call started, so a call that failed at its own start's Patience would
// fail less than Patience after it; the caller's deadline, far past, only
// limits a hang.
func TestGuardPatienceEndsTheWait(t *testing.T) {
	const deadline, patience, hang = 10 * time.Millisecond, 150 * time.Millisecond, 20 * time.Second
	entered := make(chan struct{})
	remote := RemoteFunc(func(ctx context.Context, key string, cost int) (core.Decision, error) {
		if key == "hangs" {
			close(entered)
			<-ctx.Done()
			return core.Decision{}, ctx.Err()
		}
		return core.Decision{Allowed: true}, nil
	})
	g, err := NewGuard(GuardConfig{Remote: remote, Timeout: deadline, Patience: patience,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	var wg sync.WaitGroup
	var callErr error
	var failedAt time.Time
	wg.Go(func() {
		_, callErr = g.AllowN(ctx, "c", "hangs", 1)
		failedAt = time.Now()
	})
	<-entered // the call is with the store
	answered := time.Now()
	if _, err := g.AllowN(context.Background(), "c", "ok", 1); err != nil { // one answer, then silence
		t.Fatal(err)
	}
	wg.Wait()
	if silence := failedAt.Sub(answered); !errors.Is(callErr, ErrUnavailable) || silence < patience {
		t.Fatalf("the waiting call: %v after %v of silence; want ErrUnavailable from the Guard, after %v of silence", callErr, silence, patience)
	}
}
