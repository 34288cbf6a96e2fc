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
	g, err := NewGuard(GuardConfig{Remote: remote, Timeout: deadline, Patience: patience,
		Breaker: BreakerConfig{Failures: 1, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
	if err != nil {
		t.Fatal(err)
	}
	var out Outcome
	var callErr error
	var wg sync.WaitGroup
	wg.Go(func() { out, callErr = g.AllowN(context.Background(), "c", "queued", 1) })
	// Others are answered all along, for five deadlines.
	for range 25 {
		if _, err := g.AllowN(context.Background(), "c", "other", 1); err != nil {
			t.Fatalf("another call failed while the store answered: %v", err)
		}
		time.Sleep(deadline / 5)
	}
	close(release)
	wg.Wait()
	if callErr != nil || out.Source != SourceRemote || out.Remaining != 7 {
		t.Fatalf("the queued call: %+v, %v; want the store's answer (remote, remaining 7)", out, callErr)
	}
	if st := g.Stats(); st.RemoteFailures != 0 || g.Breaker().State() != BreakerClosed {
		t.Fatalf("failures %d, breaker %v; want 0 and closed", st.RemoteFailures, g.Breaker().State())
	}

	// A store that answers nothing fails a call after Patience, or at the
	// deadline without it.
	silent := RemoteFunc(func(ctx context.Context, _ string, _ int) (core.Decision, error) {
		<-ctx.Done()
		return core.Decision{}, ctx.Err()
	})
	for _, p := range []time.Duration{patience, 0} {
		g2, err := NewGuard(GuardConfig{Remote: silent, Timeout: deadline, Patience: p,
			Breaker: BreakerConfig{Failures: 1, Cooldown: time.Minute}, Classes: map[string]ClassPolicy{"c": ClosedPolicy()}})
		if err != nil {
			t.Fatal(err)
		}
		want := max(deadline, p)
		begin := time.Now()
		_, err = g2.AllowN(context.Background(), "c", "k", 1)
		if took := time.Since(begin); !errors.Is(err, ErrUnavailable) || took < want || took > want+20*deadline {
			t.Fatalf("a silent store, patience %v: %v after %v; want ErrUnavailable at about %v", p, err, took, want)
		}
	}
}

// A store that falls silent while a call waits fails that call once the
// silence, counted from the store's last answer, has lasted Patience: not
// at the deadline and not never.
func TestGuardPatienceEndsTheWait(t *testing.T) {
	const deadline, patience = 10 * time.Millisecond, 150 * time.Millisecond
	remote := RemoteFunc(func(ctx context.Context, key string, cost int) (core.Decision, error) {
		if key == "hangs" {
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
	begin := time.Now()
	var wg sync.WaitGroup
	var callErr error
	wg.Go(func() { _, callErr = g.AllowN(context.Background(), "c", "hangs", 1) })
	time.Sleep(deadline / 2)
	if _, err := g.AllowN(context.Background(), "c", "ok", 1); err != nil { // one answer, then silence
		t.Fatal(err)
	}
	wg.Wait()
	if took := time.Since(begin); callErr == nil || took < patience || took > patience+20*deadline {
		t.Fatalf("the waiting call: %v after %v; want ErrUnavailable after about %v of silence", callErr, took, patience)
	}
}
