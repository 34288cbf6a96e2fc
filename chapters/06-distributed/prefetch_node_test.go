package distributed

import (
	"context"
	"errors"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/sim"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// prefetchBase is an arbitrary window-aligned origin for tests that pass explicit
// times to the borrow script.
var prefetchBase = time.UnixMilli(1_700_000_000_000)

func prefetchKey(t *testing.T) string { return "rl:{" + redistest.ID(t) + "}:prefetch" }

// slowOK runs borrows on a fake clock that no test steps: these tests are
// about the counts, and a deadline that never passes cannot cut a healthy
// call on a loaded machine.
var slowOK = NodeOptions{Clock: newFakeClock()}

// TestE13_PrefetchOnRedis replays E13 with four PrefetchNodes against a real
// Redis and finds the simulation's figures: grants 8, 8, 4, 0, six allowed,
// four round trips, node 4 asking once.
func TestE13_PrefetchOnRedis(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	t.Logf("Redis from %s", redistest.Source())
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: 20, Batch: 8, Window: time.Second}
	nodes := make([]*PrefetchNode, 4)
	for i := range nodes {
		var err error
		if nodes[i], err = NewPrefetchNode(rdb, cfg, slowOK); err != nil {
			t.Fatal(err)
		}
	}
	replay, err := sim.Prefetch(sim.PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range replay.Steps {
		ok, err := nodes[st.Node-1].AllowAt(ctx, prefetchBase.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if ok != st.Allowed {
			t.Errorf("request %d on node %d: Redis says %v, simulation %v", i+1, st.Node, ok, st.Allowed)
		}
	}
	var trips int64
	for i, n := range nodes {
		s := n.Stats()
		trips += s.RoundTrips
		if w := replay.Nodes[i]; s.Borrowed != int64(w.Borrowed) || s.Held != w.Stranded {
			t.Errorf("node %d: borrowed %d held %d, want %d, %d", i+1, s.Borrowed, s.Held, w.Borrowed, w.Stranded)
		}
	}
	if trips != 4 {
		t.Errorf("round trips = %d, want 4", trips)
	}
	ttl, err := rdb.PTTL(ctx, cfg.Key).Result()
	if err != nil || ttl <= 0 {
		t.Errorf("key TTL = %v, %v; want a positive expiry", ttl, err)
	}
}

// TestPrefetchRedisNeverOverAdmits: 8 nodes, each served by 4 goroutines,
// hammer one limit over three windows. In every window the nodes together
// admit at most the limit (exactly: admitted + stranded = handed out =
// limit), and the test reports the round trips saved against one script call
// per request (batch 1).
func TestPrefetchRedisNeverOverAdmits(t *testing.T) {
	const (
		nodeCount   = 8
		perNode     = 4   // goroutines per node
		perRoutine  = 40  // requests per goroutine per window
		limit       = 500 // < 8*4*40 = 1280 requests per window
		windowCount = 3
	)
	ctx := context.Background()
	for _, batch := range []int{1, 25} {
		cfg := BorrowConfig{Key: prefetchKey(t), Limit: limit, Batch: batch, Window: time.Second}
		rdb := redistest.Client(t)
		nodes := make([]*PrefetchNode, nodeCount)
		for i := range nodes {
			nodes[i], _ = NewPrefetchNode(rdb, cfg, slowOK)
		}
		var requests, trips int64
		for w := 0; w < windowCount; w++ {
			at := prefetchBase.Add(time.Duration(w)*time.Second + 10*time.Millisecond)
			var allowed atomic.Int64
			var wg sync.WaitGroup
			before := int64(0)
			for _, n := range nodes {
				before += n.Stats().RoundTrips
			}
			for _, n := range nodes {
				for g := 0; g < perNode; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for r := 0; r < perRoutine; r++ {
							ok, err := n.AllowAt(ctx, at.Add(time.Duration(r)*time.Millisecond))
							if err != nil {
								t.Error(err)
								return
							}
							if ok {
								allowed.Add(1)
							}
						}
					}()
				}
			}
			wg.Wait()
			stranded, after := 0, int64(0)
			for _, n := range nodes {
				s := n.Stats()
				stranded += s.Held
				after += s.RoundTrips
			}
			handed, err := rdb.HGet(ctx, cfg.Key, "n").Int()
			if err != nil {
				t.Fatal(err)
			}
			got := int(allowed.Load())
			if got > limit || handed != limit || got+stranded != handed {
				t.Fatalf("batch %d window %d: allowed %d, stranded %d, handed out %d; want allowed <= %d and allowed + stranded = handed out = %d",
					batch, w, got, stranded, handed, limit, limit)
			}
			if batch == 1 && got != limit {
				t.Fatalf("batch 1 window %d: allowed %d, want exactly %d", w, got, limit)
			}
			requests += nodeCount * perNode * perRoutine
			trips += after - before
			t.Logf("batch %2d window %d: %d requests, %d allowed, %d stranded, %d round trips",
				batch, w, nodeCount*perNode*perRoutine, got, stranded, after-before)
		}
		t.Logf("batch %2d: %d round trips for %d requests (%d saved against one script call per request, %.1f%%)",
			batch, trips, requests, requests-trips, 100*float64(requests-trips)/float64(requests))
		if batch > 1 && trips*5 > requests {
			t.Errorf("batch %d: %d round trips for %d requests; prefetch should save most of them", batch, trips, requests)
		}
	}
}

// TestPrefetchAdmits2LAcrossWindowEdge: prefetch never admits more than L
// per aligned window, and that is all it promises. Measured over a sliding
// window of the same width it admits 2L, as any fixed window does: with
// L = 5 and W = 1 s, one node borrows and spends 5 permits in the last 5 ms
// of a window and 5 more in the first 5 ms of the next, so 10 requests pass
// within 10 ms.
func TestPrefetchAdmits2LAcrossWindowEdge(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	const limit = 5
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: limit, Batch: limit, Window: time.Second}
	n, err := NewPrefetchNode(rdb, cfg, slowOK)
	if err != nil {
		t.Fatal(err)
	}
	edge := prefetchBase.Add(time.Second) // a window boundary
	var sent []int64
	perWindow := map[int64]int{}
	for ms := int64(-5); ms < 5; ms++ {
		at := edge.Add(time.Duration(ms) * time.Millisecond)
		ok, err := n.AllowAt(ctx, at)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			sent = append(sent, at.UnixMilli())
			perWindow[at.UnixMilli()/1000]++
		}
	}
	for w, c := range perWindow {
		if c > limit {
			t.Errorf("window %d admitted %d, more than L = %d", w, c, limit)
		}
	}
	most, windows := core.MaxInWindow(sent, 1000)
	if most != 2*limit || len(sent) != 2*limit {
		t.Fatalf("admitted %d, at most %d in one sliding 1 s window; want 2L = %d both", len(sent), most, 2*limit)
	}
	t.Logf("L = %d per aligned window; %d admitted within %v of the edge: %d in the sliding window %v", limit,
		len(sent), 10*time.Millisecond, most, windows[0])
}

// TestPrefetchRedisServerClock uses the server's TIME for the window: the
// grant comes back with a TTL inside the window and the key expires.
func TestPrefetchRedisServerClock(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: 10, Batch: 4, Window: 500 * time.Millisecond}
	g, err := Borrow(ctx, rdb, cfg, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Granted != 4 || g.Remaining != 6 || g.TTL <= 0 || g.TTL > cfg.Window {
		t.Fatalf("grant %+v: want 4 granted, 6 left, TTL in (0, 500ms]", g)
	}
	ttl, err := rdb.PTTL(ctx, cfg.Key).Result()
	if err != nil || ttl <= 0 || ttl > cfg.Window {
		t.Fatalf("key TTL %v, %v; want (0, 500ms]", ttl, err)
	}
	n, _ := NewPrefetchNode(rdb, cfg, slowOK)
	if ok, err := n.Allow(ctx); err != nil || !ok {
		t.Fatalf("Allow = %v, %v", ok, err)
	}
}

// TestBorrowScriptHealsMissingTTL: a key whose expiry was lost (PERSIST)
// gets one back on the next call, and a count from an older window does not
// leak into the new one.
func TestBorrowScriptHealsMissingTTL(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: 5, Batch: 5, Window: time.Second}
	if g, err := Borrow(ctx, rdb, cfg, prefetchBase); err != nil || g.Granted != 5 || g.Remaining != 0 || g.TTL != time.Second {
		t.Fatalf("first borrow %+v, %v", g, err)
	}
	rdb.Persist(ctx, cfg.Key)
	g, err := Borrow(ctx, rdb, cfg, prefetchBase.Add(1500*time.Millisecond))
	if err != nil || g.Granted != 5 || g.TTL != 500*time.Millisecond {
		t.Fatalf("next window borrow %+v, %v; want a fresh 5 and 500ms left", g, err)
	}
	if ttl := rdb.PTTL(ctx, cfg.Key).Val(); ttl <= 0 {
		t.Fatalf("TTL after heal = %v", ttl)
	}
}

// TestBorrowLateCallStaysInNewestWindow: a borrow stamped in an older
// window than the key's (a node whose clock is behind) draws on the newest
// window. Before, it restarted the count for its own window and handed the
// whole limit out a second time.
func TestBorrowLateCallStaysInNewestWindow(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: 5, Batch: 5, Window: time.Second}
	if g, err := Borrow(ctx, rdb, cfg, prefetchBase.Add(time.Second)); err != nil || g.Granted != 5 {
		t.Fatalf("borrow in window 1: %+v, %v", g, err)
	}
	g, err := Borrow(ctx, rdb, cfg, prefetchBase.Add(999*time.Millisecond))
	if err != nil || g.Granted != 0 || g.Remaining != 0 || g.TTL != 1001*time.Millisecond {
		t.Fatalf("late borrow: %+v, %v; want 0 granted, 0 left, 1001ms to the end of window 1", g, err)
	}
	if g, err := Borrow(ctx, rdb, cfg, prefetchBase.Add(1500*time.Millisecond)); err != nil || g.Granted != 0 {
		t.Fatalf("window 1 after the late borrow: %+v, %v; want it still drained", g, err)
	}
}

func TestBorrowConfigValidate(t *testing.T) {
	ok := BorrowConfig{Key: "k", Limit: 1, Batch: 1, Window: time.Second}
	for _, c := range []BorrowConfig{
		{Limit: 1, Batch: 1, Window: time.Second},
		{Key: "k", Limit: -1, Batch: 1, Window: time.Second},
		{Key: "k", Limit: 1, Batch: 0, Window: time.Second},
		{Key: "k", Limit: 1, Batch: 1, Window: 0},
		{Key: "k", Limit: 1, Batch: 1, Window: 1500 * time.Microsecond},
	} {
		if _, err := NewPrefetchNode(nil, c, NodeOptions{}); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := NewPrefetchNode(nil, ok, NodeOptions{}); err != nil {
		t.Error(err)
	}
	var pe *core.ParamError
	if _, err := NewPrefetchNode(nil, ok, NodeOptions{Timeout: -time.Millisecond}); !errors.As(err, &pe) || pe.Param != "timeout" {
		t.Errorf("negative timeout: %v, want a ParamError naming timeout", err)
	}
}

// BenchmarkPrefetchRedis compares one borrow-script call per decision
// (batch 1, the central design) with nodes that prefetch 100 permits per
// call, on the same Redis in the same run. Each parallel goroutine is one
// node. Read the ratio of ns/op; round-trips/op shows where it comes from.
func BenchmarkPrefetchRedis(b *testing.B) {
	ctx := context.Background()
	rdb := redistest.Client(b)
	for _, batch := range []int{1, 100} {
		b.Run("batch="+strconv.Itoa(batch), func(b *testing.B) {
			cfg := BorrowConfig{Key: "rl:{" + redistest.ID(b) + "}:prefetch", Limit: core.MaxCount, Batch: batch, Window: time.Hour}
			var trips atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				n, _ := NewPrefetchNode(rdb, cfg, slowOK)
				for pb.Next() {
					if ok, err := n.Allow(ctx); err != nil || !ok {
						b.Errorf("Allow = %v, %v", ok, err)
						return
					}
				}
				trips.Add(n.Stats().RoundTrips)
			})
			b.ReportMetric(float64(trips.Load())/float64(b.N), "round-trips/op")
		})
	}
}

// TestBorrowConfigOutsideDomain: a BorrowConfig is checked against the
// course's domain like every other Config (a limit and a batch from 1 to
// 1e9, a window of whole ms up to 1e18 ns), by NewPrefetchNode and by Borrow
// itself, and refused with a ParamError before a command is sent. Before,
// Borrow took any numbers: limit MaxInt64 answered Remaining MinInt64, and
// limit = batch = MaxInt64 stored a negative grant in Redis.
func TestBorrowConfigOutsideDomain(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	for _, tc := range []struct {
		cfg   BorrowConfig
		param string
	}{
		{BorrowConfig{Limit: math.MaxInt64, Batch: 1, Window: time.Second}, "limit"},
		{BorrowConfig{Limit: math.MaxInt64, Batch: math.MaxInt64, Window: time.Second}, "limit"},
		{BorrowConfig{Limit: core.MaxCount + 1, Batch: 1, Window: time.Second}, "limit"},
		{BorrowConfig{Limit: 0, Batch: 1, Window: time.Second}, "limit"},
		{BorrowConfig{Limit: 10, Batch: core.MaxCount + 1, Window: time.Second}, "batch"},
		{BorrowConfig{Limit: 10, Batch: math.MaxInt64, Window: time.Second}, "batch"},
		{BorrowConfig{Limit: 10, Batch: 1, Window: core.MaxWindow + time.Millisecond}, "window"},
	} {
		tc.cfg.Key = prefetchKey(t)
		var pe *core.ParamError
		_, err := NewPrefetchNode(rdb, tc.cfg, slowOK)
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("NewPrefetchNode(%+v): %v, want a ParamError naming %s", tc.cfg, err, tc.param)
		}
		g, err := Borrow(ctx, rdb, tc.cfg, prefetchBase)
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("Borrow(%+v) = %+v, %v; want a ParamError naming %s", tc.cfg, g, err, tc.param)
		}
		if n := rdb.Exists(ctx, tc.cfg.Key).Val(); n != 0 {
			t.Errorf("Borrow(%+v) wrote its key", tc.cfg)
		}
	}
	// The domain's edges work.
	edge := BorrowConfig{Key: prefetchKey(t), Limit: core.MaxCount, Batch: core.MaxCount, Window: time.Second}
	if g, err := Borrow(ctx, rdb, edge, prefetchBase); err != nil || g.Granted != core.MaxCount || g.Remaining != 0 {
		t.Errorf("limit = batch = 1e9: %+v, %v; want all 1e9 granted, 0 left", g, err)
	}
}
