package distributed

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

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
		Classes: map[string]ClassPolicy{"read": read}, Clock: clk})
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
