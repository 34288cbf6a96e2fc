// Package algotest holds checks that every chapter runs on its own
// algorithms, so that a property is written once and means the same thing
// everywhere.
package algotest

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// IdleIsLossless checks core.Idler on random traffic: after a random
// prefix of requests, whenever the kept state says it is idle at some instant,
// a fresh state decides every later request exactly as the kept one does (so
// Keyed.Sweep may drop it); right after an allowed request the state is never
// idle; and by last request + horizon it always is (horizon: how long the
// algorithm remembers, e.g. 2W for the sliding counter, C/R for a bucket).
// Times are whole ms, costs from 1 to maxCost.
func IdleIsLossless(t *testing.T, newAlg func() core.Algorithm, maxCost int, horizon time.Duration) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	for run := 0; run < 300; run++ {
		kept := newAlg()
		idler, ok := kept.(core.Idler)
		if !ok {
			t.Fatalf("%T does not implement core.Idler", kept)
		}
		if !idler.Idle(time.UnixMilli(0)) {
			t.Fatalf("run %d: a state that has seen nothing must be idle", run)
		}
		ms := int64(0)
		for i, n := 0, 1+rng.IntN(12); i < n; i++ {
			ms += rng.Int64N(400)
			now := time.UnixMilli(ms)
			if kept.AllowN(now, 1+rng.IntN(maxCost)).Allowed && idler.Idle(now) {
				t.Fatalf("run %d: idle right after an allowed request at %d ms", run, ms)
			}
		}
		if !idler.Idle(time.UnixMilli(ms).Add(horizon)) {
			t.Fatalf("run %d: still not idle %v after the last request at %d ms", run, horizon, ms)
		}
		// The first instant (ms steps) at which the state is idle.
		for !idler.Idle(time.UnixMilli(ms)) {
			ms++
		}
		fresh := newAlg()
		for i, n := 0, 1+rng.IntN(12); i < n; i++ {
			now := time.UnixMilli(ms)
			cost := 1 + rng.IntN(maxCost)
			if got, want := fresh.AllowN(now, cost), kept.AllowN(now, cost); got != want {
				t.Fatalf("run %d, request %d at %d ms: fresh state decided %+v, the idle kept one %+v", run, i, ms, got, want)
			}
			ms += rng.Int64N(400)
		}
	}
}

// Letters writes decisions the way the contract does: "A A A R".
func Letters(ds []core.Decision) string {
	b := make([]byte, 0, 2*len(ds))
	for i, d := range ds {
		if i > 0 {
			b = append(b, ' ')
		}
		if d.Allowed {
			b = append(b, 'A')
		} else {
			b = append(b, 'R')
		}
	}
	return string(b)
}

// CheckRetryAfter replays every rejection in a fresh limiter: the same
// request RetryAfter later is allowed. With exact it also checks that it is
// the first such instant: 1 ns and 1 ms earlier it is not. Arrivals are in
// ms; it returns how many rejections it checked.
func CheckRetryAfter(t *testing.T, mk func() core.Algorithm, arrivals []int64, costs []int, exact bool) int {
	t.Helper()
	a := mk()
	checked := 0
	for i := range arrivals {
		d := a.AllowN(time.UnixMilli(arrivals[i]), costs[i])
		if d.Allowed {
			if d.RetryAfter != 0 {
				t.Fatalf("allowed request %d has RetryAfter %v", i, d.RetryAfter)
			}
			continue
		}
		replay := func(delay time.Duration) bool {
			b := mk()
			for j := range i {
				b.AllowN(time.UnixMilli(arrivals[j]), costs[j])
			}
			return b.AllowN(time.UnixMilli(arrivals[i]).Add(delay), costs[i]).Allowed
		}
		if d.RetryAfter <= 0 || !replay(d.RetryAfter) {
			t.Fatalf("request %d (t=%d cost %d): RetryAfter %v, but not allowed then; arrivals %v costs %v",
				i, arrivals[i], costs[i], d.RetryAfter, arrivals, costs)
		}
		if exact && (replay(d.RetryAfter-1) || replay(d.RetryAfter-time.Millisecond)) {
			t.Fatalf("request %d (t=%d cost %d): RetryAfter %v, but allowed earlier; arrivals %v costs %v",
				i, arrivals[i], costs[i], d.RetryAfter, arrivals, costs)
		}
		checked++
	}
	return checked
}

// Run sends one request of cost 1 at each arrival (ms) and returns the
// decisions.
func Run(a core.Algorithm, arrivals ...int64) []core.Decision {
	ds := make([]core.Decision, len(arrivals))
	for i, ms := range arrivals {
		ds[i] = a.AllowN(time.UnixMilli(ms), 1)
	}
	return ds
}

// MaxInWindow measures sent requests with the course ruler
// (core.MaxInWindow), counting a request of cost k as k sends so that the
// bound is on permits spent. costs nil means every cost is 1.
func MaxInWindow(times []int64, costs []int, w int64) int {
	var sends []int64
	for i, t := range times {
		k := 1
		if costs != nil {
			k = costs[i]
		}
		for range k {
			sends = append(sends, t)
		}
	}
	n, _ := core.MaxInWindow(sends, w)
	return n
}

// Hammer sends perG requests from each of goroutines goroutines, all stamped
// now, spread over keys (goroutine g starts at key g), through allow, and
// returns how many each key admitted. A keyed limiter that loses an update or
// spends a permit twice under concurrency shows it as a count off by some;
// run it with -race.
func Hammer(allow func(key string, now time.Time) core.Decision, keys []string, now time.Time, goroutines, perG int) []int64 {
	counts := make([]atomic.Int64, len(keys))
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perG {
				k := (g + i) % len(keys)
				if allow(keys[k], now).Allowed {
					counts[k].Add(1)
				}
			}
		}()
	}
	wg.Wait()
	out := make([]int64, len(keys))
	for k := range counts {
		out[k] = counts[k].Load()
	}
	return out
}

// Sent returns the arrival times and costs (1 each when costs is nil) of the
// requests ds allowed: what went upstream, for MaxInWindow.
func Sent(arrivals []int64, costs []int, ds []core.Decision) ([]int64, []int) {
	var st []int64
	var sc []int
	for i, d := range ds {
		if d.Allowed {
			st = append(st, arrivals[i])
			if costs == nil {
				sc = append(sc, 1)
			} else {
				sc = append(sc, costs[i])
			}
		}
	}
	return st, sc
}
