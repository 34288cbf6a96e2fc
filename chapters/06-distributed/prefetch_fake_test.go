package distributed

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// fakeBorrows is a redis.Scripter that answers the borrow script from a
// counter, fails, or hangs until released, as a test says. Only EvalSha is
// ever called (the script's SHA is "known").
type fakeBorrows struct {
	mu      sync.Mutex
	mode    string // "up", "down", "hang"
	left    int    // permits the window still has
	batch   int
	release chan struct{} // "hang" waits for it, whatever ctx says
	calls   atomic.Int64
	started chan struct{} // receives once per call, if set
}

func (f *fakeBorrows) EvalSha(ctx context.Context, _ string, _ []string, _ ...any) *redis.Cmd {
	f.calls.Add(1)
	if f.started != nil {
		f.started <- struct{}{}
	}
	cmd := redis.NewCmd(ctx)
	f.mu.Lock()
	mode := f.mode
	f.mu.Unlock()
	switch mode {
	case "down":
		cmd.SetErr(errDown)
		return cmd
	case "hang":
		<-f.release
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	g := min(f.batch, f.left)
	f.left -= g
	cmd.SetVal([]any{int64(g), int64(f.left), int64(1000)})
	return cmd
}

func (f *fakeBorrows) Eval(ctx context.Context, _ string, _ []string, _ ...any) *redis.Cmd {
	return f.EvalSha(ctx, "", nil)
}
func (f *fakeBorrows) EvalRO(ctx context.Context, _ string, _ []string, _ ...any) *redis.Cmd {
	return f.EvalSha(ctx, "", nil)
}
func (f *fakeBorrows) EvalShaRO(ctx context.Context, _ string, _ []string, _ ...any) *redis.Cmd {
	return f.EvalSha(ctx, "", nil)
}
func (f *fakeBorrows) ScriptExists(ctx context.Context, _ ...string) *redis.BoolSliceCmd {
	return redis.NewBoolSliceCmd(ctx)
}
func (f *fakeBorrows) ScriptLoad(ctx context.Context, _ string) *redis.StringCmd {
	return redis.NewStringCmd(ctx)
}

var fakeBorrowCfg = BorrowConfig{Key: "rl:{fake}:prefetch", Limit: 20, Batch: 8, Window: time.Second}

// TestPrefetchNodeDoesNotHoldItsLockAcrossTheRoundTrip: while one request's
// borrow hangs (a frozen Redis, a client that ignores ctx), the node's other
// requests are not stuck behind a mutex: Stats answers, a request whose
// caller has given up returns with its ctx's error, and the hanging borrow
// itself returns at its deadline with ErrUnavailable, exactly when the fake
// clock reaches it. Before, the node held its mutex across the round trip
// and every one of them waited for Redis.
func TestPrefetchNodeDoesNotHoldItsLockAcrossTheRoundTrip(t *testing.T) {
	f := &fakeBorrows{mode: "hang", left: 20, batch: 8, release: make(chan struct{}), started: make(chan struct{}, 8)}
	defer close(f.release)
	const deadline = 5 * time.Millisecond
	clk := newFakeClock()
	n, err := NewPrefetchNode(AssumeNoEviction(f), fakeBorrowCfg, NodeOptions{Timeout: deadline, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	var firstErr error
	first := goCall(func() { _, firstErr = n.Allow(context.Background()) })
	<-f.started
	waitTimers(t, clk, 1) // the borrow is out, under its deadline

	// A hang's limit, not a bound: with the lock held these never return.
	within := func(what string, fn func()) {
		t.Helper()
		select {
		case <-goCall(fn):
		case <-time.After(hang):
			t.Fatalf("%s: still blocked after %v while a borrow is out", what, hang)
		}
	}
	within("Stats", func() { n.Stats() })
	within("a request whose caller gave up", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := n.Allow(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want the caller's context.Canceled", err)
		}
	})
	if took := stepUntilDone(t, clk, time.Millisecond, first); !errors.Is(firstErr, ErrUnavailable) || took != deadline {
		t.Errorf("the hanging borrow: %v after %v on the clock; want ErrUnavailable at its %v deadline", firstErr, took, deadline)
	}
	if f.calls.Load() != 1 {
		t.Errorf("%d borrow calls, want 1 (the waiting request must not borrow too)", f.calls.Load())
	}
}

// TestPrefetchNodeBorrowsThroughTheBreaker: a node sharing its Guard's
// breaker fails its borrows fast once Redis is known to be down, and its
// failures count towards opening the breaker the Guard uses too. Before, a
// node had no breaker: every empty-handed request paid a round trip to a
// dead Redis.
func TestPrefetchNodeBorrowsThroughTheBreaker(t *testing.T) {
	ctx := context.Background()
	clk := newFakeClock()
	r := newFakeRemote(1000)
	g := newTestGuard(t, r, clk)
	f := &fakeBorrows{mode: "down", left: 20, batch: 8}
	n, err := NewPrefetchNode(AssumeNoEviction(f), fakeBorrowCfg, NodeOptions{Breaker: g.Breaker(), Clock: clk, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if ok, err := n.Allow(ctx); ok || !errors.Is(err, ErrUnavailable) {
			t.Fatalf("borrow %d while down: %v, %v; want ErrUnavailable", i+1, ok, err)
		}
	}
	if f.calls.Load() != 3 || g.Breaker().State() != BreakerOpen {
		t.Fatalf("%d borrow calls, breaker %v; want 3 calls, then open", f.calls.Load(), g.Breaker().State())
	}
	if o, _ := g.Allow(ctx, "read", "k"); o.Source != SourceLocal || r.calls.Load() != 0 {
		t.Fatalf("the Guard after the node's failures: %+v, %d remote calls; want its fallback and none", o, r.calls.Load())
	}
	// Redis back: after the cool-down one borrow probes and closes the breaker.
	f.mu.Lock()
	f.mode = "up"
	f.mu.Unlock()
	clk.Advance(time.Second)
	if ok, err := n.Allow(ctx); !ok || err != nil || g.Breaker().State() != BreakerClosed {
		t.Fatalf("after recovery: %v, %v, breaker %v", ok, err, g.Breaker().State())
	}
	if s := n.Stats(); s.RoundTrips != 1 || s.Borrowed != 8 || s.Held != 7 {
		t.Fatalf("stats %+v, want 1 round trip, 8 borrowed, 7 held", s)
	}
}
