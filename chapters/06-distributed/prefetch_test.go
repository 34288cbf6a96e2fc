package distributed

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestE12_PrefetchTwoNodes: limit 6, batch 4, requests A, B, A, B, B. A
// borrows 4 and uses 2; B borrows the last 2 and uses both; the 5th request
// (on B) is rejected while A still holds 2.
func TestE12_PrefetchTwoNodes(t *testing.T) {
	res, err := SimulatePrefetch(PrefetchConfig{Nodes: 2, Limit: 6, Batch: 4, Order: []int{1, 2, 1, 2, 2}, RTTMS: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantAllowed := []bool{true, true, true, true, false}
	for i, st := range res.Steps {
		if st.Allowed != wantAllowed[i] {
			t.Errorf("request %d on node %d: allowed %v, want %v", i+1, st.Node, st.Allowed, wantAllowed[i])
		}
	}
	wantNodes := []NodeQuota{
		{Node: 1, Borrowed: 4, Used: 2, Stranded: 2, Rejected: 0},
		{Node: 2, Borrowed: 2, Used: 2, Stranded: 0, Rejected: 1},
	}
	for i, w := range wantNodes {
		if res.Nodes[i] != w {
			t.Errorf("node %d = %+v, want %+v", i+1, res.Nodes[i], w)
		}
	}
	last := res.Steps[4]
	if !last.WhileStranded || last.Held[0] != 2 {
		t.Errorf("5th request: while stranded %v, A holds %d; want true, 2", last.WhileStranded, last.Held[0])
	}
	p := res.Prefetch
	if p.Allowed != 4 || p.Rejected != 1 || p.Stranded != 2 || p.RejectsWhileStranded != 1 || p.CentralRemaining != 0 {
		t.Errorf("prefetch metrics %+v", p)
	}
	// Nothing is over-admitted: allowed never exceeds the limit, and every
	// allowed request spent a borrowed permit.
	if p.Allowed > 6 || p.Allowed+p.Stranded+p.CentralRemaining != 6 {
		t.Errorf("permits do not add up: %+v", p)
	}
	if res.Central.Allowed != 5 || res.Central.RoundTrips != 5 {
		t.Errorf("central %+v, want 5 allowed in 5 round trips", res.Central)
	}
}

// TestE13_PrefetchLabDefault pins every figure of the lab default: 4 nodes,
// 2 requests each round-robin, limit 20, batch 8.
func TestE13_PrefetchLabDefault(t *testing.T) {
	res, err := SimulatePrefetch(PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantOrder := []int{1, 2, 3, 4, 1, 2, 3, 4}
	for i, st := range res.Steps {
		if st.Node != wantOrder[i] {
			t.Fatalf("request %d went to node %d, want %d", i+1, st.Node, wantOrder[i])
		}
	}
	if want := (CentralMetrics{Allowed: 8, Rejected: 0, RoundTrips: 8, WaitMS: 8}); res.Central != want {
		t.Errorf("central = %+v, want %+v", res.Central, want)
	}
	want := PrefetchMetrics{Allowed: 6, Rejected: 2, RoundTrips: 4, WaitMS: 4, CentralRemaining: 0,
		Stranded: 14, FewerThanCentral: 2, RejectsWhileStranded: 2}
	if res.Prefetch != want {
		t.Errorf("prefetch = %+v, want %+v", res.Prefetch, want)
	}
	wantNodes := []NodeQuota{
		{Node: 1, Borrowed: 8, Used: 2, Stranded: 6, Rejected: 0},
		{Node: 2, Borrowed: 8, Used: 2, Stranded: 6, Rejected: 0},
		{Node: 3, Borrowed: 4, Used: 2, Stranded: 2, Rejected: 0},
		{Node: 4, Borrowed: 0, Used: 0, Stranded: 0, Rejected: 2},
	}
	for i, w := range wantNodes {
		if res.Nodes[i] != w {
			t.Errorf("node %d = %+v, want %+v", i+1, res.Nodes[i], w)
		}
	}
	// Node 4 asks once (request 4), hears the window is empty and does not
	// ask again (request 8).
	if s := res.Steps[3]; !s.RoundTrip || s.Granted != 0 || s.Reason != ReasonBorrowEmpty {
		t.Errorf("request 4 = %+v, want a round trip granting 0", s)
	}
	if s := res.Steps[7]; s.RoundTrip || s.Reason != ReasonWindowEmpty || s.Allowed {
		t.Errorf("request 8 = %+v, want a rejection without a round trip", s)
	}
	wantGrants := []int{8, 8, 4, 0, 0, 0, 0, 0}
	for i, st := range res.Steps {
		if st.Granted != wantGrants[i] {
			t.Errorf("request %d granted %d, want %d", i+1, st.Granted, wantGrants[i])
		}
	}
}

// TestE13_PrefetchBatchOne: with batch 1 nothing is stranded and nothing is
// falsely rejected, but every request pays a round trip again.
func TestE13_PrefetchBatchOne(t *testing.T) {
	res, err := SimulatePrefetch(PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 1, RTTMS: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := PrefetchMetrics{Allowed: 8, Rejected: 0, RoundTrips: 8, WaitMS: 8, CentralRemaining: 12,
		Stranded: 0, FewerThanCentral: 0, RejectsWhileStranded: 0}
	if res.Prefetch != want {
		t.Errorf("prefetch = %+v, want %+v", res.Prefetch, want)
	}
	if res.Prefetch.RoundTrips != res.Central.RoundTrips {
		t.Errorf("round trips %d, central %d: want equal", res.Prefetch.RoundTrips, res.Central.RoundTrips)
	}
	for _, n := range res.Nodes {
		if n != (NodeQuota{Node: n.Node, Borrowed: 2, Used: 2}) {
			t.Errorf("node %+v, want borrowed 2 used 2", n)
		}
	}
}

func TestPrefetchValidate(t *testing.T) {
	ok := PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	cases := []struct {
		name  string
		edit  func(*PrefetchConfig)
		param string
	}{
		{"no nodes", func(c *PrefetchConfig) { c.Nodes = 0 }, "nodes"},
		{"too many nodes", func(c *PrefetchConfig) { c.Nodes = MaxSimNodes + 1 }, "nodes"},
		{"negative per-node", func(c *PrefetchConfig) { c.PerNode = -1 }, "per-node"},
		{"too many requests", func(c *PrefetchConfig) { c.PerNode = MaxSimRequests }, "per-node"},
		{"negative limit", func(c *PrefetchConfig) { c.Limit = -1 }, "limit"},
		{"huge limit", func(c *PrefetchConfig) { c.Limit = MaxSimLimit + 1 }, "limit"},
		{"zero batch", func(c *PrefetchConfig) { c.Batch = 0 }, "batch"},
		{"huge batch", func(c *PrefetchConfig) { c.Batch = MaxSimLimit + 1 }, "batch"},
		{"order names node 5 of 4", func(c *PrefetchConfig) { c.Order = []int{1, 5} }, "order"},
		{"order names node 0", func(c *PrefetchConfig) { c.Order = []int{0} }, "order"},
		{"negative rtt", func(c *PrefetchConfig) { c.RTTMS = -1 }, "rtt"},
		{"huge rtt", func(c *PrefetchConfig) { c.RTTMS = MaxSimRTTMS + 1 }, "rtt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			_, err := SimulatePrefetch(c)
			var pe *core.ParamError
			if !errors.As(err, &pe) || pe.Param != tc.param {
				t.Fatalf("err = %v, want a ParamError naming %q", err, tc.param)
			}
		})
	}
	if _, err := SimulatePrefetch(ok); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	// An explicit order overrides per-node, and zero limit is a legal (closed) window.
	res, err := SimulatePrefetch(PrefetchConfig{Nodes: 2, PerNode: -1, Limit: 0, Batch: 1, Order: []int{2, 2}})
	if err != nil || res.Prefetch.Rejected != 2 || res.Prefetch.RoundTrips != 1 {
		t.Fatalf("limit 0: %+v, %v; want 2 rejected after 1 round trip", res.Prefetch, err)
	}
}

// TestPrefetchValidateHugePerNode: nodes × per-node used to be formed in
// Validate, where a huge per-node wraps: 4 × (2^63 − 1) is −4 and 4 × 2^62
// is 0, both "at most 10,000", and the replay then panicked (a negative
// capacity) or ran out of memory. Now both are a ParamError naming
// per-node and the bound; so for chapter 06's other simulations.
func TestPrefetchValidateHugePerNode(t *testing.T) {
	for _, per := range []int{math.MaxInt, 1 << 62, math.MaxInt/4 + 1, MaxSimRequests/4 + 1} {
		err := PrefetchConfig{Nodes: 4, PerNode: per, Limit: 20, Batch: 8}.Validate()
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "per-node" || !strings.Contains(pe.Accept, "from 0 to 2500") {
			t.Errorf("prefetch per-node %d: %v; want a ParamError naming per-node, from 0 to 2500", per, err)
		}
		err = PerNodeConfig{Nodes: 4, Limit: 10, PerNode: per}.Validate()
		if !errors.As(err, &pe) || pe.Param != "per-node" {
			t.Errorf("E8 per-node %d: %v; want a ParamError naming per-node", per, err)
		}
		err = WriteBackConfig{Nodes: 4, Limit: 10, PerNode: per, WindowMS: 1000, SyncMS: 100}.Validate()
		if !errors.As(err, &pe) || pe.Param != "per-node" {
			t.Errorf("write-back per-node %d: %v; want a ParamError naming per-node", per, err)
		}
	}
	if err := (PrefetchConfig{Nodes: 4, PerNode: MaxSimRequests / 4, Limit: MaxSimLimit, Batch: MaxSimLimit}).Validate(); err != nil {
		t.Errorf("the largest valid replay was refused: %v", err)
	}
}

// FuzzPrefetch checks the invariants of any window: prefetch never admits
// more than the limit or than the central design, the permits add up, round
// trips never exceed central's, and batch 1 strands nothing.
func FuzzPrefetch(f *testing.F) {
	f.Add(uint8(4), uint8(20), uint8(8), []byte{1, 2, 3, 4, 1, 2, 3, 4})
	f.Add(uint8(2), uint8(6), uint8(4), []byte{1, 2, 1, 2, 2})
	f.Add(uint8(3), uint8(5), uint8(1), []byte{3, 3, 3, 1, 2, 1, 1, 1})
	f.Fuzz(func(t *testing.T, nodes, limit, batch uint8, raw []byte) {
		n := int(nodes)%8 + 1
		order := make([]int, 0, len(raw))
		for _, b := range raw {
			order = append(order, int(b)%n+1)
		}
		if len(order) > MaxSimRequests {
			order = order[:MaxSimRequests]
		}
		c := PrefetchConfig{Nodes: n, Limit: int(limit), Batch: int(batch)%16 + 1, Order: order, RTTMS: 2}
		res, err := SimulatePrefetch(c)
		if err != nil {
			t.Fatal(err)
		}
		p := res.Prefetch
		if p.Allowed > c.Limit || p.Allowed > res.Central.Allowed {
			t.Fatalf("over-admitted: %+v central %+v", p, res.Central)
		}
		if p.Allowed+p.Rejected != len(order) || p.Allowed+p.Stranded+p.CentralRemaining != c.Limit {
			t.Fatalf("accounts do not add up: %+v", p)
		}
		if p.RoundTrips > res.Central.RoundTrips || p.WaitMS != int64(p.RoundTrips)*2 {
			t.Fatalf("round trips %d, central %d, wait %d", p.RoundTrips, res.Central.RoundTrips, p.WaitMS)
		}
		if p.RejectsWhileStranded > p.Rejected || p.FewerThanCentral != res.Central.Allowed-p.Allowed {
			t.Fatalf("bad derived metrics %+v", p)
		}
		if c.Batch == 1 && (p.Stranded != 0 || p.RejectsWhileStranded != 0 || p.Allowed != res.Central.Allowed) {
			t.Fatalf("batch 1 stranded or falsely rejected: %+v", p)
		}
		sum := 0
		for _, q := range res.Nodes {
			if q.Borrowed != q.Used+q.Stranded {
				t.Fatalf("node %+v: borrowed != used + stranded", q)
			}
			sum += q.Stranded
		}
		if sum != p.Stranded {
			t.Fatalf("node stranded sums to %d, metrics say %d", sum, p.Stranded)
		}
	})
}

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
// requests are not stuck behind a mutex: Stats answers at once, and a
// request whose caller gives up returns with its ctx's error. Before, the
// node held its mutex across the round trip and every one of them waited
// for Redis. The test holds the borrow out itself: the node's deadline is
// an hour, and the hanging request ends when the test cancels its caller's
// context, after the checks (no real deadline is waited for).
func TestPrefetchNodeDoesNotHoldItsLockAcrossTheRoundTrip(t *testing.T) {
	f := &fakeBorrows{mode: "hang", left: 20, batch: 8, release: make(chan struct{}), started: make(chan struct{}, 8)}
	defer close(f.release)
	n, err := NewPrefetchNode(AssumeNoEviction(f), fakeBorrowCfg, NodeOptions{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	firstCtx, giveUp := context.WithCancel(context.Background())
	defer giveUp()
	first := make(chan error, 1)
	go func() { _, err := n.Allow(firstCtx); first <- err }()
	<-f.started

	// A hang guard, not a bound: with the lock held these never return.
	within := func(what string, fn func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { fn(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still blocked while a borrow is out", what)
		}
	}
	within("Stats", func() { n.Stats() })
	within("a request whose caller gives up", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		if _, err := n.Allow(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err %v, want the caller's context.DeadlineExceeded", err)
		}
	})
	select {
	case err := <-first:
		t.Fatalf("the hanging borrow returned (%v) before its caller gave up", err)
	default:
	}
	giveUp()
	within("the hanging borrow, its caller gone", func() {
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want its caller's context.Canceled", err)
		}
	})
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
	n, err := NewPrefetchNode(AssumeNoEviction(f), fakeBorrowCfg, NodeOptions{Breaker: g.Breaker(), Now: clk.Now, Timeout: time.Second})
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
