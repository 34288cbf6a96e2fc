package distributed

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// fakeRemote is a shared limiter that answers from a counter, or fails, or
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

func newTestGuard(t testing.TB, r Remote, clk *fakeClock) *Guard {
	g, err := NewGuard(GuardConfig{
		Remote: r, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second},
		Classes: e15Classes(t), Now: clk.Now,
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

// TestE15_FailOpenBoundProperty: over any outage of length D, one node
// admits at most C + R·D reads per key, however many arrive.
func TestE15_FailOpenBoundProperty(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		outage time.Duration
		step   time.Duration
	}{{0, 0}, {time.Second, 10 * time.Millisecond}, {10 * time.Second, 7 * time.Millisecond}, {3 * time.Second, time.Second}} {
		clk := newFakeClock()
		r := newFakeRemote(1000)
		r.set("down")
		g := newTestGuard(t, r, clk)
		start := clk.Now()
		admitted := 0
		for {
			for i := 0; i < 10; i++ {
				if o, _ := g.Allow(ctx, "read", "k"); o.Allowed {
					admitted++
				}
			}
			if tc.step == 0 || clk.Now().Sub(start) >= tc.outage {
				break
			}
			clk.Advance(tc.step)
		}
		bound := 5 + int(clk.Now().Sub(start).Seconds()*1)
		if admitted > bound {
			t.Errorf("outage %v: admitted %d reads, bound C + R·D = %d", tc.outage, admitted, bound)
		}
		t.Logf("outage %v: %d reads admitted by the local bucket (bound %d)", tc.outage, admitted, bound)
	}
}

// TestE15_DeadlineBoundsEveryCall: a remote that hangs costs each request at
// most the deadline, and only until the breaker opens; after that requests
// do not wait at all.
func TestE15_DeadlineBoundsEveryCall(t *testing.T) {
	ctx := context.Background()
	clk := newFakeClock()
	r := newFakeRemote(1000)
	r.set("hang")
	g := newTestGuard(t, r, clk)
	const margin = 200 * time.Millisecond // scheduling slack on a busy machine
	var worst, worstOpen time.Duration
	for i := 0; i < 20; i++ {
		start := time.Now()
		o, err := g.Allow(ctx, "read", "k")
		took := time.Since(start)
		if err != nil || o.Source != SourceLocal {
			t.Fatalf("request %d: %+v, %v", i, o, err)
		}
		if i < 3 {
			worst = max(worst, took)
		} else {
			worstOpen = max(worstOpen, took)
		}
	}
	if worst > 5*time.Millisecond+margin {
		t.Errorf("a request waited %v, deadline 5ms", worst)
	}
	if worst < 5*time.Millisecond {
		t.Errorf("a timed-out request returned after %v, before its 5ms deadline", worst)
	}
	if r.calls.Load() != 3 {
		t.Errorf("remote calls = %d, want 3 (then the breaker is open)", r.calls.Load())
	}
	t.Logf("hanging remote, deadline 5ms: worst wait %v before the breaker opened, %v after", worst, worstOpen)
}

// TestGuardCallerGivesUp: a caller's own cancellation is its error, and it
// does not count against Redis.
func TestGuardCallerGivesUp(t *testing.T) {
	clk := newFakeClock()
	r := newFakeRemote(1000)
	r.set("hang")
	g, err := NewGuard(GuardConfig{Remote: r, Timeout: time.Second,
		Breaker: BreakerConfig{Failures: 1, Cooldown: time.Second}, Classes: e15Classes(t), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(5 * time.Millisecond); cancel() }()
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
		{"no remote", func(c *GuardConfig) { c.Remote = nil }, "remote"},
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
	g.now, g.store.now = clk.Now, clk.Now
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

// TestGuardConcurrent runs many goroutines through a Guard while the remote
// flips between up and down (for -race). Whatever happens, the fail-open
// reads admitted locally never exceed the bucket's C + R·elapsed.
func TestGuardConcurrent(t *testing.T) {
	r := newFakeRemote(1 << 30)
	start := time.Now()
	g, err := NewGuard(GuardConfig{Remote: r, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 2, Cooldown: time.Millisecond},
		Classes: e15Classes(t)})
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
				if w == 0 && i%50 == 0 {
					r.set(map[bool]string{true: "down", false: "up"}[i%100 == 0])
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
	bound := 5 + int64(time.Since(start).Seconds()*1)
	if n := localReads.Load(); n > bound {
		t.Fatalf("local reads admitted = %d, want <= C + R·elapsed = %d", n, bound)
	}
	t.Logf("%+v; %d reads admitted locally (bound %d)", g.Stats(), localReads.Load(), bound)
}

// TestGuardDeadlineWhenRemoteIgnoresCtx: a remote that ignores its ctx (a
// client whose own timeouts are seconds) still costs a decision only the
// Guard's deadline, and the breaker opens after 3 such calls.
func TestGuardDeadlineWhenRemoteIgnoresCtx(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var calls atomic.Int64
	deaf := RemoteFunc(func(context.Context, string, int) (core.Decision, error) {
		calls.Add(1)
		select { // answers after a second or when the test ends, whatever ctx says
		case <-release:
		case <-time.After(time.Second):
		}
		return core.Decision{Allowed: true}, nil
	})
	clk := newFakeClock()
	g, err := NewGuard(GuardConfig{Remote: deaf, Timeout: 5 * time.Millisecond,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	const slack = 200 * time.Millisecond
	for i := 0; i < 10; i++ {
		start := time.Now()
		o, err := g.Allow(context.Background(), "read", "k")
		if took := time.Since(start); took > 5*time.Millisecond+slack || err != nil || o.Source != SourceLocal {
			t.Fatalf("request %d: %+v, %v after %v; want a local decision by the 5ms deadline", i+1, o, err, took)
		}
	}
	if calls.Load() != 3 || g.Breaker().State() != BreakerOpen {
		t.Fatalf("%d calls, breaker %v; want 3, open", calls.Load(), g.Breaker().State())
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
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Now: clk.Now})
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
			Breaker: BreakerConfig{Failures: 3, Cooldown: cooldown}, Classes: e15Classes(t), Now: clk.Now})
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

// TestGuardFallbackBoundedUnderKeyRotation: during an outage a client sends
// 200,000 requests, each under a key never seen before, one per ms. The
// per-key buckets alone let every one through (each new key has a full
// bucket) and kept one bucket per key: 200,000 admitted and about 17 MB.
// With the class bucket the node admits at most C + R·D = 100 + 10 × 200 s
// = 2,100, the table never holds more than MaxKeys keys, and the heap does
// not grow from the 20,000th key to the 200,000th.
func TestGuardFallbackBoundedUnderKeyRotation(t *testing.T) {
	const keys, maxKeys = 200_000, 1000
	clk := newFakeClock()
	r := newFakeRemote(1000)
	r.set("down")
	read := OpenPolicy(buckets.Config{Capacity: 5, Rate: 1}, e15ReadNode)
	read.MaxKeys = maxKeys
	g, err := NewGuard(GuardConfig{Remote: r, Breaker: BreakerConfig{Failures: 3, Cooldown: time.Hour},
		Classes: map[string]ClassPolicy{"read": read}, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := clk.Now()
	var m0, m1 runtime.MemStats
	admitted := 0
	key := make([]byte, 0, 16)
	for i := 0; i < keys; i++ {
		if i == keys/10 {
			runtime.GC()
			runtime.ReadMemStats(&m0)
		}
		key = strconv.AppendInt(append(key[:0], "client-"...), int64(i), 10)
		o, err := g.Allow(ctx, "read", string(key))
		if err != nil || o.Source != SourceLocal {
			t.Fatalf("request %d: %+v, %v", i, o, err)
		}
		if o.Allowed {
			admitted++
		}
		clk.Advance(time.Millisecond)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	held := g.classes["read"].local.Len()
	runtime.KeepAlive(g)
	d := clk.Now().Sub(start)
	bound := e15ReadNode.Capacity + int(e15ReadNode.Rate*d.Seconds())
	grew := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	t.Logf("%d rotated keys over %v: %d admitted (bound %d), %d keys held, heap %+d KB from key %d to key %d",
		keys, d, admitted, bound, held, grew/1024, keys/10, keys)
	if admitted > bound {
		t.Errorf("admitted %d, bound C + R·D = %d", admitted, bound)
	}
	if admitted < bound-5 {
		t.Errorf("admitted %d, want about the bound %d: the class bucket should be the limit here", admitted, bound)
	}
	if held > maxKeys {
		t.Errorf("%d keys hold a bucket, MaxKeys %d", held, maxKeys)
	}
	if grew > 1<<20 {
		t.Errorf("heap grew %d KB from key %d to key %d; want flat (< 1 MB)", grew/1024, keys/10, keys)
	}
}

// TestFallbackKeepsRecentKeysExact: below MaxKeys a key keeps its own
// bucket (5, then 1 per second); the class bucket saying no leaves the key's
// tokens alone; the least recently used key is the one dropped.
func TestFallbackKeepsRecentKeysExact(t *testing.T) {
	f, err := newFallback(buckets.Config{Capacity: 5, Rate: 1}, buckets.Config{Capacity: 8, Rate: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(1_700_000_000_000)
	allowed := func(key string, n int) int {
		got := 0
		for i := 0; i < n; i++ {
			if d, err := f.AllowN(key, now, 1); err != nil {
				t.Fatal(err)
			} else if d.Allowed {
				got++
			}
		}
		return got
	}
	if a, b := allowed("a", 10), allowed("b", 10); a != 5 || b != 3 {
		t.Fatalf("a %d, b %d; want 5 (its bucket) and 3 (what the class bucket of 8 had left)", a, b)
	}
	now = now.Add(2 * time.Second) // class +2, a +2, b +2 (b still holds 2 of its own)
	if b := allowed("b", 10); b != 2 {
		t.Fatalf("b after 2 s: %d, want 2 (the class bucket's refill)", b)
	}
	now = now.Add(time.Second)
	allowed("c", 1) // a table of 2: "a" (least recent) makes room for "c"
	if f.Len() != 2 {
		t.Fatalf("Len %d, want 2", f.Len())
	}
	if _, ok := f.keys["a"]; ok {
		t.Fatal(`"a" was kept; the least recently used key should have been dropped`)
	}
	if _, err := f.AllowN("b", now, 6); err == nil {
		t.Fatal("a cost above the per-key capacity was accepted")
	}
}
