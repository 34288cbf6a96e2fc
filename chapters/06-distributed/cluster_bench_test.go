package distributed

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// BenchmarkCluster measures decisions per second for each algorithm on the
// cluster (three primaries, a ClusterClient) against the one shared Redis (a
// Client), with P goroutines at P = 8 and 64, for identities spread over
// 1,000 keys and for one hot identity; and prefetch (four PrefetchNodes,
// batch 25) on the hot identity. It prints the table with the cluster /
// single ratios of this one run. Run it with
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
	w := WindowConfig{Window: time.Second, Limit: 100}
	bk := BucketConfig{Capacity: 100, Rate: 100}
	algorithms := []struct {
		name string
		make func(redis.Scripter) (decider, error)
	}{
		{"fixed-window", func(r redis.Scripter) (decider, error) { return NewFixedWindow(r, w) }},
		{"sliding-log", func(r redis.Scripter) (decider, error) { return NewSlidingLog(r, w) }},
		{"sliding-counter", func(r redis.Scripter) (decider, error) { return NewSlidingCounter(r, w) }},
		{"token-bucket", func(r redis.Scripter) (decider, error) { return NewTokenBucket(r, bk) }},
		{"gcra", func(r redis.Scripter) (decider, error) { return NewGCRA(r, bk) }},
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
	rate := map[string]float64{}

	run := func(key string, p int, op func(i int64) error) {
		b.Run(key, func(b *testing.B) {
			var seq atomic.Int64
			b.SetParallelism((p + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := op(seq.Add(1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			r := float64(b.N) / b.Elapsed().Seconds()
			b.ReportMetric(r, "decisions/s")
			rate[key] = r // the last (largest) run wins
		})
	}
	for _, a := range algorithms {
		for _, ids := range []string{"spread", "hot"} {
			for _, p := range ps {
				for _, be := range backends {
					l, err := a.make(be.rdb)
					if err != nil {
						b.Fatal(err)
					}
					run(fmt.Sprintf("%s/%s/P=%d/%s", a.name, ids, p, be.name), p, func(i int64) error {
						id := hot
						if ids == "spread" {
							id = spread[i%int64(len(spread))]
						}
						_, err := l.AllowN(ctx, id, 1)
						return err
					})
				}
			}
		}
	}
	for _, p := range ps {
		for _, be := range backends {
			cfg := BorrowConfig{Key: Key(fmt.Sprintf("%s-%s-%d", hot, be.name, p), "prefetch"),
				Limit: 1_000_000_000, Batch: 25, Window: time.Second}
			nodes := make([]*PrefetchNode, 4)
			for k := range nodes {
				var err error
				if nodes[k], err = NewPrefetchNode(be.rdb, cfg, NodeOptions{Timeout: time.Second}); err != nil {
					b.Fatal(err)
				}
			}
			run(fmt.Sprintf("prefetch/hot/P=%d/%s", p, be.name), p, func(i int64) error {
				_, err := nodes[i%int64(len(nodes))].Allow(ctx)
				return err
			})
		}
	}

	var t strings.Builder
	fmt.Fprintf(&t, "\ndecisions per second: 3-primary cluster vs one Redis (%d cores, GOMAXPROCS %d)\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(&t, "%-16s %-7s %3s %12s %12s %8s\n", "algorithm", "ids", "P", "single/s", "cluster/s", "ratio")
	names := []string{"fixed-window", "sliding-log", "sliding-counter", "token-bucket", "gcra", "prefetch"}
	for _, name := range names {
		for _, ids := range []string{"spread", "hot"} {
			for _, p := range ps {
				k := fmt.Sprintf("%s/%s/P=%d/", name, ids, p)
				s, cl := rate[k+"single"], rate[k+"cluster"]
				if s == 0 || cl == 0 {
					continue
				}
				fmt.Fprintf(&t, "%-16s %-7s %3d %12.0f %12.0f %7.2fx\n", name, ids, p, s, cl, cl/s)
			}
		}
	}
	// Straight to stdout: a parent benchmark's log is cut to ten lines.
	fmt.Print(t.String())
}
