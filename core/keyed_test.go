package core

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// counter is a tiny Algorithm for testing Keyed itself: it admits the first
// limit cost units and nothing after.
type counter struct{ used, limit int }

func (c *counter) MaxCost() int { return c.limit }
func (c *counter) AllowN(_ time.Time, cost int) Decision {
	if c.used+cost > c.limit {
		return Decision{Remaining: c.limit - c.used}
	}
	c.used += cost
	return Decision{Allowed: true, Remaining: c.limit - c.used}
}

func TestKeyedKeepsKeysApart(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 2} })
	now := time.UnixMilli(0)
	got := []bool{k.Allow("a", now).Allowed, k.Allow("a", now).Allowed, k.Allow("a", now).Allowed, k.Allow("b", now).Allowed}
	want := []bool{true, true, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("decision %d: got %v, want %v (all: %v)", i+1, got[i], want[i], got)
		}
	}
	if k.Len() != 2 {
		t.Fatalf("Len = %d, want 2", k.Len())
	}
}

// idleCounter is a counter that reports itself idle once it has been reset
// (used == 0), to test Sweep without depending on a real algorithm.
type idleCounter struct{ counter }

func (c *idleCounter) Idle(time.Time) bool { return c.used == 0 }

// create makes key's state without deciding anything.
func create[A Algorithm](k *Keyed[A], key string) {
	s := k.shard(key)
	s.mu.Lock()
	k.get(s, key)
	s.mu.Unlock()
}

func TestKeyedSweepDropsOnlyIdleKeys(t *testing.T) {
	k := NewKeyed(func() *idleCounter { return &idleCounter{counter{limit: 2}} })
	now := time.UnixMilli(0)
	k.Allow("busy", now)
	create(k, "quiet") // untouched
	if got := k.Sweep(now); got != 1 {
		t.Fatalf("Sweep dropped %d keys, want 1 (only the idle one)", got)
	}
	if k.Len() != 1 {
		t.Fatalf("Len after Sweep = %d, want 1", k.Len())
	}
	if d := k.Allow("busy", now); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("the busy key must keep its state: got %+v", d)
	}
}

func TestKeyedSweepIgnoresNonIdlers(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 2} })
	k.Allow("a", time.UnixMilli(0))
	if got := k.Sweep(time.UnixMilli(1e12)); got != 0 || k.Len() != 1 {
		t.Fatalf("Sweep dropped %d of a non-Idler's keys (Len %d), want 0 (Len 1)", got, k.Len())
	}
}

func TestKeyedRejectsBadCostAsError(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 3} })
	for _, cost := range []int{0, -1, 4} {
		_, err := k.AllowN("a", time.UnixMilli(0), cost)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != "cost" {
			t.Fatalf("cost %d: got err %v, want a ParamError naming cost", cost, err)
		}
	}
	if d := k.Allow("a", time.UnixMilli(0)); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("a bad cost must not spend permits: got %+v", d)
	}
}

func TestKeyedConcurrentNeverOverAdmits(t *testing.T) {
	const limit, workers, tries = 100, 8, 50
	k := NewKeyed(func() *counter { return &counter{limit: limit} })
	var mu sync.Mutex
	allowed := map[string]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range tries {
				for _, key := range []string{"x", "y"} {
					if k.Allow(key, time.UnixMilli(int64(i))).Allowed {
						mu.Lock()
						allowed[key]++
						mu.Unlock()
					}
				}
			}
		})
	}
	wg.Wait()
	for _, key := range []string{"x", "y"} {
		if allowed[key] != limit {
			t.Errorf("key %s: %d allowed, want exactly %d", key, allowed[key], limit)
		}
	}
}

func TestParamErrorNamesParameter(t *testing.T) {
	err := BadParam("window", "0s", "a duration > 0")
	if got, want := err.Error(), "invalid window 0s: accepted a duration > 0"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestKeyedRefusesTimesOutsideTheDomain: an instant before 1970 or from 2200
// on is a *ParamError naming "time", and creates no state.
func TestKeyedRefusesTimesOutsideTheDomain(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 2} })
	for _, now := range []time.Time{time.Unix(-1, 0), Epoch.Add(-1), {}, End, End.Add(time.Hour)} {
		_, err := k.AllowN("a", now, 1)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != "time" {
			t.Errorf("AllowN at %v: err %v, want a ParamError naming time", now, err)
		}
	}
	if k.Len() != 0 {
		t.Errorf("%d keys after refused times, want 0", k.Len())
	}
	if d := k.Allow("a", End); d != (Decision{}) || k.Len() != 0 {
		t.Errorf("Allow at End: %+v with %d keys, want a zero Decision and no state", d, k.Len())
	}
	for _, now := range []time.Time{End.Add(-1), Epoch, time.Now()} {
		if _, err := k.AllowN("a", now, 1); err != nil {
			t.Errorf("AllowN at %v: %v", now, err)
		}
	}
}

// TestKeyedDecidesWithoutAllocating: a decision for a key already held
// allocates nothing, through AllowN and Allow alike.
func TestKeyedDecidesWithoutAllocating(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 1 << 30} })
	now := time.UnixMilli(0)
	k.Allow("client-42", now)
	if n := testing.AllocsPerRun(1000, func() {
		k.Allow("client-42", now)
		if _, err := k.AllowN("client-42", now, 2); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per decision, want 0", n)
	}
}

// TestKeyedSweepGivesMemoryBack: after a sweep drops every key, the heap
// falls back to about what it was before they came.
func TestKeyedSweepGivesMemoryBack(t *testing.T) {
	const n = 200_000
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	k := NewKeyed(func() *idleCounter { return &idleCounter{counter{limit: 2}} })
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("client-%d", i)
	}
	before := heap()
	for _, key := range keys {
		create(k, key) // idle: a counter that has counted nothing
	}
	full := heap()
	if got := k.Sweep(time.UnixMilli(0)); got != n || k.Len() != 0 {
		t.Fatalf("swept %d, %d left; want %d, 0", got, k.Len(), n)
	}
	after := heap()
	t.Logf("heap: %.1f MB before, %.1f MB with %d keys, %.1f MB after the sweep",
		float64(before)/1e6, float64(full)/1e6, n, float64(after)/1e6)
	if after > before+(full-before)/10 {
		t.Errorf("after the sweep %.1f MB are still held of the %.1f MB the keys took",
			float64(after-before)/1e6, float64(full-before)/1e6)
	}
	// A busy key survives the sweep.
	k.Allow("seen", time.UnixMilli(0))
	k.Sweep(time.UnixMilli(0))
	if d := k.Allow("seen", time.UnixMilli(0)); k.Len() != 1 || !d.Allowed || d.Remaining != 0 {
		t.Errorf("the busy key must keep its state: %d keys, %+v", k.Len(), d)
	}
	runtime.KeepAlive(keys)
}

// TestKeyedSweepWhileDeciding: sweeping all the time while goroutines
// decide never loses state a decision has used (each key admits exactly
// its limit), however a sweep and a first decision interleave.
func TestKeyedSweepWhileDeciding(t *testing.T) {
	const limit, workers, tries = 50, 4, 200
	k := NewKeyed(func() *idleCounter { return &idleCounter{counter{limit: limit}} })
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	var allowed [8]atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				k.Sweep(time.UnixMilli(0))
			}
		}
	}()
	for range workers {
		wg.Go(func() {
			for range tries {
				for j, key := range keys {
					if k.Allow(key, time.UnixMilli(0)).Allowed {
						allowed[j].Add(1)
					}
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	for j, key := range keys {
		if got := allowed[j].Load(); got != limit {
			t.Errorf("key %s: %d allowed, want exactly %d", key, got, limit)
		}
	}
	if k.Len() != len(keys) {
		t.Errorf("Len %d, want %d", k.Len(), len(keys))
	}
}

// TestKeyedFrom: a bad configuration is the constructor's error and no
// limiter; a good one gives every key its own fresh state.
func TestKeyedFrom(t *testing.T) {
	build := func(limit int) (*counter, error) {
		if limit < 1 {
			return nil, BadParam("limit", limit, "an integer >= 1")
		}
		return &counter{limit: limit}, nil
	}
	if k, err := KeyedFrom(0, build); k != nil || err == nil {
		t.Fatalf("KeyedFrom(0): %v, %v; want nil and the error", k, err)
	}
	k, err := KeyedFrom(1, build)
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(0)
	if !k.Allow("a", now).Allowed || k.Allow("a", now).Allowed || !k.Allow("b", now).Allowed {
		t.Fatal("each key must get its own state with limit 1")
	}
}

// Peek reads a key's room and changes nothing: a key never seen is not
// created, and a key's count stays where it was.
func TestKeyedPeekCountsNothing(t *testing.T) {
	k := NewKeyed(func() *counter { return &counter{limit: 3} })
	now := time.Unix(1000, 0)
	if d, err := k.Peek("new", now); err != nil || !d.Allowed || d.Remaining != 3 || k.Len() != 0 || k.Holds("new") {
		t.Fatalf("a key never seen: %+v, %v, %d keys; want 3 left and no key made", d, err, k.Len())
	}
	_, _ = k.AllowN("a", now, 2)
	for range 2 {
		if d, err := k.Peek("a", now); err != nil || d.Remaining != 1 {
			t.Fatalf("after 2 of 3: %+v, %v; want 1 left", d, err)
		}
	}
	if d, _ := k.AllowN("a", now, 1); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("the third unit after two peeks: %+v; want admitted, 0 left", d)
	}
	if _, err := k.Peek("a", time.Unix(-1, 0)); err == nil {
		t.Fatal("a time before the epoch: no error")
	}
}
