package distributed

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
) // fakeRemote is a shared limiter that answers from a counter, or fails, or
// hangs until the caller's deadline, as the test says.
type fakeRemote struct {
	mu      sync.Mutex
	mode    string // "up", "down" (fails at once), "hang" (waits for ctx)
	limit   int
	used    map[string]int
	calls   atomic.Int64
	sawDead atomic.Bool // every call carried a deadline
}

func newFakeRemote(limit int) *fakeRemote {
	return &fakeRemote{mode: "up", limit: limit, used: map[string]int{}}
}

func (f *fakeRemote) set(mode string) { f.mu.Lock(); f.mode = mode; f.mu.Unlock() }

var errDown = errors.New("dial tcp: connection refused")

func (f *fakeRemote) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	f.calls.Add(1)
	if _, ok := ctx.Deadline(); !ok {
		f.sawDead.Store(true)
	}
	f.mu.Lock()
	mode := f.mode
	f.mu.Unlock()
	switch mode {
	case "down":
		return core.Decision{}, errDown
	case "hang":
		<-ctx.Done()
		return core.Decision{}, ctx.Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.used[key]+cost > f.limit {
		return core.Decision{Remaining: f.limit - f.used[key]}, nil
	}
	f.used[key] += cost
	return core.Decision{Allowed: true, Remaining: f.limit - f.used[key]}, nil
}

// The class buckets of the course's example: what one node admits of each
// class during an outage, all keys together.
var (
	e15ReadNode   = buckets.Config{Capacity: 100, Rate: 10}
	e15BilledNode = buckets.Config{Capacity: 250, Rate: 250.0 / 60}
)

// e15Classes is the course's example: login fails closed, reads fail open
// through a bucket of 5 per key (1 more per second), billed calls share 100
// per minute among 4 nodes; each class also has its node-wide bucket.
func e15Classes(t testing.TB) map[string]ClassPolicy {
	share, err := SharePolicy(100, time.Minute, 4, e15BilledNode)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]ClassPolicy{
		"login":  ClosedPolicy(),
		"read":   OpenPolicy(buckets.Config{Capacity: 5, Rate: 1}, e15ReadNode),
		"billed": share,
	}
}

func newTestGuard(t testing.TB, r Remote, clk *clockwork.FakeClock) *Guard {
	g, err := NewGuard(GuardConfig{
		Remote: r, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second},
		Classes: e15Classes(t), Clock: clk,
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestE15_FailurePolicyPerClass: with the counter unreachable, login is
// refused with a temporary error, reads are admitted up to the local bucket
// (5) and no further, billed calls up to 100/4 = 25; the breaker opens after
// 3 failures so later requests never touch the remote.
func TestE15_FailurePolicyPerClass(t *testing.T) {
	ctx := context.Background()
	clk := newFakeClock()
	r := newFakeRemote(1000)
	g := newTestGuard(t, r, clk)

	for _, class := range []string{"login", "read", "billed"} {
		o, err := g.Allow(ctx, class, "user-1")
		if err != nil || !o.Allowed || o.Source != SourceRemote {
			t.Fatalf("%s while up: %+v, %v; want allowed by the remote", class, o, err)
		}
	}

	r.set("down")
	counts := map[string]int{}
	for i := 0; i < 40; i++ {
		for _, class := range []string{"login", "read", "billed"} {
			o, err := g.Allow(ctx, class, "user-1")
			switch class {
			case "login":
				if !errors.Is(err, ErrUnavailable) || o.Allowed || o.Source != SourceNone {
					t.Fatalf("login while down: %+v, %v; want ErrUnavailable", o, err)
				}
			default:
				if err != nil || o.Source != SourceLocal {
					t.Fatalf("%s while down: %+v, %v; want a local decision", class, o, err)
				}
				if o.Allowed {
					counts[class]++
				}
			}
		}
	}
	if counts["read"] != 5 || counts["billed"] != 25 {
		t.Fatalf("admitted while down: read %d, billed %d; want 5 (bucket) and 25 (100/4)", counts["read"], counts["billed"])
	}
	if g.Breaker().State() != BreakerOpen {
		t.Fatalf("breaker %v after repeated failures, want open", g.Breaker().State())
	}
	if calls := r.calls.Load(); calls != 3+3 {
		t.Fatalf("remote calls = %d, want 3 while up + 3 failures before the breaker opened", calls)
	}
	st := g.Stats()
	if st.Refusals != 40 || st.Fallbacks != 80 || st.RemoteFailures != 3 {
		t.Fatalf("stats %+v", st)
	}

	// Fail-closed refusals carry the time to the next probe as Retry-After.
	if o, _ := g.Allow(ctx, "login", "user-1"); o.RetryAfter != time.Second {
		t.Fatalf("login RetryAfter = %v, want 1s", o.RetryAfter)
	}

	// Reads refill at 1/s: two seconds later two more, never a flood.
	clk.Advance(500 * time.Millisecond)
	more := 0
	for i := 0; i < 20; i++ {
		if o, _ := g.Allow(ctx, "read", "user-1"); o.Allowed {
			more++
		}
	}
	if more != 0 {
		t.Fatalf("half a second later %d more reads, want 0", more)
	}

	// Redis is back: after the cool-down one probe closes the breaker.
	r.set("up")
	clk.Advance(500 * time.Millisecond)
	o, err := g.Allow(ctx, "login", "user-1")
	if err != nil || !o.Allowed || o.Source != SourceRemote || g.Breaker().State() != BreakerClosed {
		t.Fatalf("after recovery: %+v, %v, breaker %v", o, err, g.Breaker().State())
	}
	if r.sawDead.Load() {
		t.Fatal("a remote call had no deadline")
	}
}

// TestE15_DeadlineBoundsEveryCall: a remote that hangs costs each request
// the deadline, exactly, and only until the breaker opens; after that
// requests do not wait at all. The remote answers nothing until its ctx
// ends, so each of the first three requests returns when the fake clock
// reaches its 5 ms deadline, and after three the remote is not called (the
// breaker is open) and no request sets a timer.
func TestE15_DeadlineBoundsEveryCall(t *testing.T) {
	clk := newFakeClock()
	r := newFakeRemote(1000)
	r.set("hang")
	g := newTestGuard(t, r, clk)
	for i := 0; i < 20; i++ {
		var o Outcome
		var err error
		call := func() { o, err = g.Allow(context.Background(), "read", "k") }
		if i < 3 {
			if took := stepUntilDone(t, clk, time.Millisecond, goCall(call)); took != 5*time.Millisecond {
				t.Errorf("request %d gave up after %v on the clock, want its 5ms deadline", i, took)
			}
		} else {
			call() // no timer to step: the breaker answers at once
		}
		if err != nil || o.Source != SourceLocal {
			t.Fatalf("request %d: %+v, %v; want a local decision, the Guard's deadline cutting the hang", i, o, err)
		}
	}
	// The Guard's count: a call cut at its deadline may not have reached
	// the remote's code yet, as the goroutine runs when the scheduler says.
	if n := g.Stats().RemoteCalls; n != 3 {
		t.Errorf("remote calls = %d, want 3 (then the breaker is open)", n)
	}
}

// TestGuardCallerGivesUp: a caller's own cancellation is its error, and it
// does not count against Redis.
func TestGuardCallerGivesUp(t *testing.T) {
	clk := newFakeClock()
	r := newFakeRemote(1000)
	r.set("hang")
	g, err := NewGuard(GuardConfig{Remote: r, Timeout: time.Second,
		Breaker: BreakerConfig{Failures: 1, Cooldown: time.Second}, Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { waitTimers(t, clk, 1); cancel() }() // gives up while the call waits
	if _, err := g.Allow(ctx, "read", "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if g.Breaker().State() != BreakerClosed {
		t.Fatalf("breaker %v, want closed: the caller gave up, Redis did not fail", g.Breaker().State())
	}
}

func TestGuardBadInput(t *testing.T) {
	clk := newFakeClock()
	r := newFakeRemote(10)
	ok := GuardConfig{Remote: r, Breaker: BreakerConfig{Failures: 1, Cooldown: time.Second}, Classes: e15Classes(t)}
	cases := []struct {
		name  string
		edit  func(*GuardConfig)
		param string
	}{
		{"negative timeout", func(c *GuardConfig) { c.Timeout = -time.Millisecond }, "timeout"},
		{"bad breaker", func(c *GuardConfig) { c.Breaker.Failures = 0 }, "failures"},
		{"no classes", func(c *GuardConfig) { c.Classes = nil }, "classes"},
		{"bad mode", func(c *GuardConfig) { c.Classes = map[string]ClassPolicy{"x": {}} }, "mode"},
		{"bad bucket", func(c *GuardConfig) {
			c.Classes = map[string]ClassPolicy{"x": OpenPolicy(buckets.Config{Capacity: 0, Rate: 1}, e15ReadNode)}
		}, "capacity"},
		{"no node bucket", func(c *GuardConfig) {
			c.Classes = map[string]ClassPolicy{"x": {Mode: FailOpen, Bucket: buckets.Config{Capacity: 5, Rate: 1}}}
		}, "capacity"},
		{"node bucket smaller than a key's", func(c *GuardConfig) {
			c.Classes = map[string]ClassPolicy{"x": OpenPolicy(buckets.Config{Capacity: 5, Rate: 1}, buckets.Config{Capacity: 4, Rate: 100})}
		}, "node capacity"},
		{"negative max keys", func(c *GuardConfig) {
			p := OpenPolicy(buckets.Config{Capacity: 5, Rate: 1}, e15ReadNode)
			p.MaxKeys = -1
			c.Classes = map[string]ClassPolicy{"x": p}
		}, "max keys"},
	}
	for _, tc := range cases {
		c := ok
		tc.edit(&c)
		_, err := NewGuard(c)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("%s: err %v, want a ParamError naming %q", tc.name, err, tc.param)
		}
	}
	g, err := NewGuard(ok)
	if err != nil {
		t.Fatal(err)
	}
	if g.store.timeout != DefaultTimeout {
		t.Errorf("default timeout %v, want %v", g.store.timeout, DefaultTimeout)
	}
	g.clock, g.store.clock = clk, clk
	var pe *core.ParamError
	if _, err := g.Allow(context.Background(), "nope", "k"); !errors.As(err, &pe) || pe.Param != "class" {
		t.Errorf("unknown class: %v", err)
	}
	for _, sp := range []func() (ClassPolicy, error){
		func() (ClassPolicy, error) { return SharePolicy(0, time.Minute, 4, e15BilledNode) },
		func() (ClassPolicy, error) { return SharePolicy(100, 0, 4, e15BilledNode) },
		func() (ClassPolicy, error) { return SharePolicy(100, time.Minute, 0, e15BilledNode) },
	} {
		if _, err := sp(); err == nil {
			t.Error("bad SharePolicy accepted")
		}
	}
	p, _ := SharePolicy(100, time.Minute, 4, e15BilledNode)
	if p.Bucket.Capacity != 25 || p.Bucket.Rate != 25.0/60 {
		t.Errorf("share of 100/min over 4 nodes = %+v, want capacity 25, rate 25/60", p.Bucket)
	}
}

// TestGuardAllowOn: one Guard in front of two limiters, each call naming
// its own. Each call reaches only the limiter it names, and the breaker they
// share opens on the failures of either. With no Remote of its own, AllowN
// is refused with a ParamError naming it.
func TestGuardAllowOn(t *testing.T) {
	clk := newFakeClock()
	g, err := NewGuard(GuardConfig{Breaker: BreakerConfig{Failures: 2, Cooldown: time.Second},
		Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	var pe *core.ParamError
	if _, err := g.Allow(context.Background(), "read", "k"); !errors.As(err, &pe) || pe.Param != "remote" {
		t.Fatalf("AllowN without a Remote: %v, want a ParamError naming remote", err)
	}
	a, b := newFakeRemote(3), newFakeRemote(5)
	ctx := context.Background()
	for i, want := range []struct {
		r         *fakeRemote
		remaining int
	}{{a, 2}, {b, 4}, {a, 1}, {b, 3}} {
		o, err := g.AllowOn(ctx, want.r, "read", "k", 1)
		if err != nil || o.Source != SourceRemote || o.Remaining != want.remaining {
			t.Fatalf("call %d: %+v, %v; want remaining %d from the remote", i, o, err, want.remaining)
		}
	}
	if a.calls.Load() != 2 || b.calls.Load() != 2 {
		t.Fatalf("calls a=%d b=%d, want 2 each", a.calls.Load(), b.calls.Load())
	}
	a.set("down")
	for range 2 {
		_, _ = g.AllowOn(ctx, a, "login", "k", 1)
	}
	if o, err := g.AllowOn(ctx, b, "login", "k", 1); !errors.Is(err, ErrUnavailable) || o.Source != SourceNone {
		t.Fatalf("after two failures of a, a call on b: %+v, %v; want the open breaker's ErrUnavailable", o, err)
	}
	if b.calls.Load() != 2 {
		t.Fatalf("b was called %d times, want 2: the open breaker stops calls to every limiter", b.calls.Load())
	}
}

// TestGuardConcurrent runs many goroutines through a Guard while the remote
// flips between up and down (for -race), the fake clock stepping 1 ms (the
// cool-down) at each flip. Whatever happens, the fail-open reads admitted
// locally never exceed the bucket's C + R·elapsed.
func TestGuardConcurrent(t *testing.T) {
	r := newFakeRemote(1 << 30)
	clk := newFakeClock()
	start := clk.Now()
	g, err := NewGuard(GuardConfig{Remote: r, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 2, Cooldown: time.Millisecond},
		Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	var localReads atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				if w == 0 && i%50 == 0 { // a flip, and the cool-down passes
					r.set(map[bool]string{true: "down", false: "up"}[i%100 == 0])
					clk.Advance(time.Millisecond)
				}
				o, err := g.Allow(context.Background(), "read", "k")
				if err != nil {
					t.Error(err)
					return
				}
				if o.Allowed && o.Source == SourceLocal {
					localReads.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	bound := 5 + int64(clk.Since(start).Seconds()*1) // 5 + 6 ms × 1/s: 5
	if n := localReads.Load(); n > bound {
		t.Fatalf("local reads admitted = %d, want <= C + R·elapsed = %d", n, bound)
	}
	t.Logf("%+v; %d reads admitted locally (bound %d)", g.Stats(), localReads.Load(), bound)
}

// TestGuardDeadlineWhenRemoteIgnoresCtx: a remote that ignores its ctx (a
// client whose own timeouts are seconds) still costs a decision only the
// Guard's deadline, and the breaker opens after 3 such calls. The remote
// answers (allowed) only when the test ends, so a local decision is the
// Guard's deadline at work: each of the first three comes when the fake
// clock reaches 5 ms, not a step before.
func TestGuardDeadlineWhenRemoteIgnoresCtx(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var calls atomic.Int64
	deaf := RemoteFunc(func(context.Context, string, int) (core.Decision, error) {
		calls.Add(1)
		<-release // answers when the test ends, whatever ctx says
		return core.Decision{Allowed: true}, nil
	})
	clk := newFakeClock()
	g, err := NewGuard(GuardConfig{Remote: deaf, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		var o Outcome
		var err error
		call := func() { o, err = g.Allow(context.Background(), "read", "k") }
		took := time.Duration(0)
		if i < 3 {
			took = stepUntilDone(t, clk, time.Millisecond, goCall(call))
		} else {
			call() // the breaker is open: no call, no timer
		}
		if err != nil || o.Source != SourceLocal || (i < 3 && took != 5*time.Millisecond) {
			t.Fatalf("request %d: %+v, %v after %v on the clock; want a local decision at the 5ms deadline", i+1, o, err, took)
		}
	}
	if n := g.Stats().RemoteCalls; n != 3 || calls.Load() > 3 || g.Breaker().State() != BreakerOpen {
		t.Fatalf("%d calls (%d reached the remote), breaker %v; want 3, open", n, calls.Load(), g.Breaker().State())
	}
}
