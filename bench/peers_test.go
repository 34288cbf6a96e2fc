// Package bench measures the course's per-key wrapper, core.Keyed, beside
// two libraries a learner would reach for instead: golang.org/x/time/rate
// with one *rate.Limiter per key in a sync.Map, and the memory store of
// github.com/sethvargo/go-limiter. It is a module of its own so that the
// course's go.mod needs neither.
//
//	make bench-peers    # or: cd bench && go test -run '^$' -bench . -benchmem
package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/sethvargo/go-limiter/memorystore"
	"golang.org/x/time/rate"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// A budget is one limit expressed for every limiter: L per W for the
// windows, C and R for the buckets, Tokens per Interval for go-limiter.
type budget struct {
	name   string
	window time.Duration
	limit  int     // L and C
	rate   float64 // R per second
}

var budgets = []budget{
	// under: every request is allowed (the common case of a healthy
	// client); the window is short so that a log stays small.
	{"under", 10 * time.Millisecond, 1_000_000, 1e8},
	// over: every key far over a budget of 10 (1 per second), as under an
	// attack: nearly every request is rejected (the keys are emptied first).
	{"over", 10 * time.Second, 10, 1},
}

// decide is one decision for key at the wall clock; it reports whether the
// request was allowed, so that no limiter's work can be optimised away.
type decide func(key string) bool

// keyed is core.Keyed over each algorithm of chapters 02-04, by CLI name.
var keyed = []struct {
	name string
	make func(budget) decide
}{
	{"fixed-window", func(b budget) decide {
		return keyedDecide(fixedwindow.NewLimiter(fixedwindow.Config{Window: b.window, Limit: b.limit}))
	}},
	{"fixed-window-ttl", func(b budget) decide {
		return keyedDecide(fixedwindow.NewTTLLimiter(fixedwindow.Config{Window: b.window, Limit: b.limit}))
	}},
	{"sliding-log", func(b budget) decide {
		return keyedDecide(sliding.NewLogLimiter(sliding.Config{Window: b.window, Limit: b.limit}))
	}},
	{"sliding-counter", func(b budget) decide {
		return keyedDecide(sliding.NewCounterLimiter(sliding.Config{Window: b.window, Limit: b.limit}))
	}},
	{"token-bucket", func(b budget) decide {
		return keyedDecide(buckets.NewTokenBucketLimiter(buckets.Config{Capacity: b.limit, Rate: b.rate}))
	}},
	{"gcra", func(b budget) decide {
		return keyedDecide(buckets.NewGCRALimiter(buckets.Config{Capacity: b.limit, Rate: b.rate}))
	}},
	{"leaky-queue", func(b budget) decide {
		return keyedDecide(buckets.NewLeakyQueueLimiter(buckets.Config{Capacity: b.limit, Rate: b.rate}))
	}},
}

func keyedDecide[A core.Algorithm](k *core.Keyed[A], err error) decide {
	if err != nil {
		panic(err)
	}
	return func(key string) bool { return k.Allow(key, time.Now()).Allowed }
}

// xrate is x/time/rate's token bucket, one per key in a sync.Map, as its
// documentation suggests for per-client limits.
func xrate(b budget) decide {
	var m sync.Map
	limit := rate.Limit(b.rate)
	return func(key string) bool {
		v, ok := m.Load(key)
		if !ok {
			v, _ = m.LoadOrStore(key, rate.NewLimiter(limit, b.limit))
		}
		return v.(*rate.Limiter).AllowN(time.Now(), 1)
	}
}

// goLimiter is go-limiter's memory store: a token bucket per key of Tokens
// per Interval, on its own clock. stop ends its sweeper goroutine.
func goLimiter(b budget) (d decide, stop func()) {
	store, err := memorystore.New(&memorystore.Config{
		Tokens:   uint64(b.limit),
		Interval: time.Duration(float64(b.limit) / b.rate * float64(time.Second)),
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	return func(key string) bool {
		_, _, _, ok, _ := store.Take(ctx, key)
		return ok
	}, func() { store.Close(ctx) }
}

// prepare creates every key and, over the budget, spends it, so that the
// timed decisions see the steady state of their regime from the start.
func prepare(bu budget, keys []string, d decide) {
	for _, k := range keys {
		for n := 0; d(k) && n <= bu.limit && bu.name == "over"; n++ {
		}
	}
}

// chunk is how many decisions one limiter makes before the next takes its
// turn: long enough that starting goroutines costs nothing, short enough
// that every limiter sees the same load on a shared machine.
const chunk = 1 << 12

// paired makes b.N decisions with each limiter on g goroutines, spread over
// keys, taking turns chunk by chunk (the first to go changes every round),
// and reports the median over the rounds of each one's time per decision and
// of the first one's time over each other's in the same round. Adjacent
// turns see the same load, and the median drops the rounds in which the
// scheduler took a core from one limiter's turn, so the ratios hold on a
// busy shared machine.
func paired(b *testing.B, g int, keys []string, names []string, ds []decide) {
	rounds := (b.N + chunk - 1) / chunk
	perOp := make([][]float64, len(ds)) // perOp[i][r]: limiter i's ns per decision in round r
	for i := range perOp {
		perOp[i] = make([]float64, rounds)
	}
	allowed := make([]int, len(ds))
	counts := make([]int, g)
	b.ReportAllocs()
	b.ResetTimer()
	for r := range rounds {
		done := r * chunk
		n := min(chunk, b.N-done)
		for turn := range ds {
			i := (r + turn) % len(ds)
			d := ds[i]
			clear(counts)
			start := time.Now()
			var wg sync.WaitGroup
			for w := range g {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Every goroutine sends to every key, as requests for
					// one client land on any goroutine; they start apart.
					from := w * len(keys) / g
					for j := done + w; j < done+n; j += g {
						if d(keys[(from+j/g)%len(keys)]) {
							counts[w]++
						}
					}
				}()
			}
			wg.Wait()
			perOp[i][r] = float64(time.Since(start).Nanoseconds()) / float64(n)
			for _, c := range counts {
				allowed[i] += c
			}
		}
	}
	b.StopTimer()
	ratio := make([]float64, rounds)
	for i, name := range names {
		if i > 0 {
			for r := range ratio {
				ratio[r] = perOp[0][r] / perOp[i][r]
			}
			b.ReportMetric(median(ratio), "vs-"+name)
		}
		b.ReportMetric(median(perOp[i]), "ns/"+name)
	}
	b.ReportMetric(float64(allowed[0])/float64(b.N), "allowed/op")
}

func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("client-%d", i)
	}
	return out
}

// BenchmarkPeers: core.Keyed over each algorithm beside go-limiter's memory
// store and x/time/rate in a sync.Map, on the same budget, keys and
// goroutines, all on the wall clock. Names read budget/keys/goroutines/
// algorithm; the metrics are the medians over the rounds of ns per decision
// for each limiter ("ns/<limiter>") and of Keyed's time over the peer's in
// the same round ("vs-<peer>", below 1 Keyed is faster). allocs/op counts
// all three together.
func BenchmarkPeers(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Log("GOMAXPROCS < 2: the two goroutines share one processor")
	}
	for _, bu := range budgets {
		for _, nk := range []int{1, 10_000} {
			ks := keys(nk)
			for _, g := range []int{1, 2} {
				for _, k := range keyed {
					b.Run(fmt.Sprintf("%s/keys=%d/g=%d/%s", bu.name, nk, g, k.name), func(b *testing.B) {
						gl, stop := goLimiter(bu)
						defer stop()
						ds := []decide{k.make(bu), gl, xrate(bu)}
						for _, d := range ds {
							prepare(bu, ks, d)
						}
						paired(b, g, ks, []string{"keyed", "go-limiter", "x-rate"}, ds)
					})
				}
			}
		}
	}
}
