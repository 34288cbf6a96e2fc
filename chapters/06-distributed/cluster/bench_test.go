//go:build !exercise06

package cluster

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// BenchmarkCluster measures decisions per second for each algorithm on the
// cluster (three primaries, a ClusterClient) against the one shared Redis (a
// Client), with P goroutines at P = 8 and 64, for identities spread over
// 1,000 keys and for one hot identity; and prefetch (four PrefetchNodes,
// batch 25) on the hot identity. The two backends run in alternating slices
// (CLUSTER_BENCH_SLICE, default 250ms, four each), so the ratios of one run
// compare like with like on a busy machine. It prints the table; run it with
//
//	go test -run '^$' -bench BenchmarkCluster ./chapters/06-distributed
func BenchmarkCluster(b *testing.B) {
	ctx := context.Background()
	single := redis.NewClient(&redis.Options{Addr: redistest.Addr(b), PoolSize: 80})
	defer single.Close()
	c := redistest.NewCluster(b)
	opt := c.Options()
	opt.PoolSize = 80
	cluster := redis.NewClusterClient(opt)
	defer cluster.Close()

	type decider interface {
		AllowN(ctx context.Context, id string, cost int) (core.Decision, error)
	}
	w := fixedwindow.Config{Window: time.Second, Limit: 100}
	sw := sliding.Config{Window: time.Second, Limit: 100}
	bk := buckets.Config{Capacity: 100, Rate: 100}
	algorithms := []struct {
		name string
		make func(redis.Scripter) (decider, error)
	}{
		{"fixed-window", func(r redis.Scripter) (decider, error) { return distributed.NewFixedWindow(r, w) }},
		{"sliding-log", func(r redis.Scripter) (decider, error) { return distributed.NewSlidingLog(r, sw) }},
		{"sliding-counter", func(r redis.Scripter) (decider, error) { return distributed.NewSlidingCounter(r, sw) }},
		{"token-bucket", func(r redis.Scripter) (decider, error) { return distributed.NewTokenBucket(r, bk) }},
		{"gcra", func(r redis.Scripter) (decider, error) { return distributed.NewGCRA(r, bk) }},
	}
	stamp := time.Now().UnixNano()
	spread := make([]string, 1000)
	for i := range spread {
		spread[i] = fmt.Sprintf("bench-%d-%d", stamp, i)
	}
	hot := fmt.Sprintf("bench-%d-hot", stamp)
	backends := []struct {
		name string
		rdb  redis.Scripter
	}{{"single", single}, {"cluster", cluster}}
	ps := []int{8, 64}
	slice := 250 * time.Millisecond
	if d := os.Getenv("CLUSTER_BENCH_SLICE"); d != "" {
		if v, err := time.ParseDuration(d); err == nil {
			slice = v
		}
	}

	// measure runs op on both backends in alternating slices of the same
	// length, four each, so that whatever else the machine does weighs on
	// both alike, and returns decisions per second for each.
	measure := func(p int, op [2]func(i int64) error) (r [2]float64) {
		var n [2]int64
		var took [2]time.Duration
		for round := 0; round < 4; round++ {
			for k := range op {
				var seq, done atomic.Int64
				var stop atomic.Bool
				var wg sync.WaitGroup
				start := time.Now()
				for g := 0; g < p; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for !stop.Load() {
							if err := op[k](seq.Add(1)); err != nil {
								b.Error(err)
								return
							}
							done.Add(1)
						}
					}()
				}
				time.Sleep(slice)
				stop.Store(true)
				wg.Wait()
				n[k] += done.Load()
				took[k] += time.Since(start)
			}
		}
		for k := range r {
			r[k] = float64(n[k]) / took[k].Seconds()
		}
		return r
	}

	type row struct {
		name, ids string
		p         int
		r         [2]float64
	}
	var rows []row
	for _, a := range algorithms {
		for _, ids := range []string{"spread", "hot"} {
			for _, p := range ps {
				var op [2]func(int64) error
				for k, be := range backends {
					l, err := a.make(be.rdb)
					if err != nil {
						b.Fatal(err)
					}
					op[k] = func(i int64) error {
						id := hot
						if ids == "spread" {
							id = spread[i%int64(len(spread))]
						}
						_, err := l.AllowN(ctx, id, 1)
						return err
					}
				}
				rows = append(rows, row{a.name, ids, p, measure(p, op)})
			}
		}
	}
	for _, p := range ps {
		var op [2]func(int64) error
		for k, be := range backends {
			cfg := distributed.BorrowConfig{Key: distributed.Key(fmt.Sprintf("%s-%s-%d", hot, be.name, p), "prefetch"),
				Limit: 1_000_000_000, Batch: 25, Window: time.Second}
			nodes := make([]*distributed.PrefetchNode, 4)
			for j := range nodes {
				var err error
				if nodes[j], err = distributed.NewPrefetchNode(be.rdb, cfg, distributed.NodeOptions{Timeout: time.Second}); err != nil {
					b.Fatal(err)
				}
			}
			op[k] = func(i int64) error {
				_, err := nodes[i%int64(len(nodes))].Allow(ctx)
				return err
			}
		}
		rows = append(rows, row{"prefetch b=25", "hot", p, measure(p, op)})
	}

	var t strings.Builder
	fmt.Fprintf(&t, "\ndecisions per second: 3-primary cluster vs one Redis (%d cores, GOMAXPROCS %d, 4 x %v slices each)\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), slice)
	fmt.Fprintf(&t, "%-16s %-7s %3s %12s %12s %8s\n", "algorithm", "ids", "P", "single/s", "cluster/s", "ratio")
	for _, r := range rows {
		fmt.Fprintf(&t, "%-16s %-7s %3d %12.0f %12.0f %7.2fx\n", r.name, r.ids, r.p, r.r[0], r.r[1], r.r[1]/r.r[0])
	}
	// Straight to stdout: the testing package prints a benchmark's log only
	// with -v.
	fmt.Print(t.String())
	b.ReportMetric(0, "ns/op")
}
