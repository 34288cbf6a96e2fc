//go:build !exercise06

package distributed

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// benched are the algorithms BenchmarkRedis's tables compare, in their
// order: every script but fixed-window-ttl.
var benched = []string{"fixed-window", "sliding-log", "sliding-counter", "token-bucket", "gcra"}

// BenchmarkRedis measures decisions per second through EVALSHA for each
// algorithm, beside a raw INCR loop from the same process on the same Redis
// (the floor a one-round-trip script can approach), with P×GOMAXPROCS
// goroutines sharing one pooled client. It then prints the ratio table and
// the MEMORY USAGE table. Run it with `make bench-redis`.
func BenchmarkRedis(b *testing.B) {
	addr := redistest.Addr(b)
	ctx := context.Background()
	perSecond := map[string]float64{}
	ps := []int{1, 8}
	rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 8 * runtime.GOMAXPROCS(0)})
	defer rdb.Close()
	ids := make([]string, 1000) // spread over keys: a mix of allowed and rejected
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i)
	}

	run := func(name string, p int, op func(i int64) error) {
		key := fmt.Sprintf("%s/P=%d", name, p)
		b.Run(key, func(b *testing.B) {
			var seq atomic.Int64
			b.SetParallelism(p)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := op(seq.Add(1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			rate := float64(b.N) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "decisions/s")
			perSecond[key] = rate // the last (largest) run wins
		})
	}
	for _, p := range ps {
		run("incr", p, func(i int64) error {
			return rdb.Incr(ctx, Key(ids[i%int64(len(ids))], "raw")).Err()
		})
	}
	ls := everyScript(rdb, time.Second, 100, 100) // 100 per second per identity
	for _, name := range benched {
		l := ls[name]
		for _, p := range ps {
			run(name, p, func(i int64) error {
				_, err := l.decide(ctx, ids[i%int64(len(ids))], -1, 1)
				return err
			})
		}
	}

	var t strings.Builder
	fmt.Fprintf(&t, "\ndecisions per second through EVALSHA vs raw INCR (%d cores, GOMAXPROCS %d)\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(&t, "%-16s %6s %14s %10s\n", "algorithm", "P", "decisions/s", "vs INCR")
	for _, name := range append([]string{"incr"}, benched...) {
		for _, p := range ps {
			r, base := perSecond[fmt.Sprintf("%s/P=%d", name, p)], perSecond[fmt.Sprintf("incr/P=%d", p)]
			if r == 0 || base == 0 {
				continue
			}
			fmt.Fprintf(&t, "%-16s %6d %14.0f %9.2fx\n", name, p, r, r/base)
		}
	}
	rows, err := memoryTable(ctx, rdb, []int{100, 10000})
	if err != nil {
		b.Fatal(err)
	}
	t.WriteString(formatMemory(rows))
	// Straight to stdout: the testing package prints a parent benchmark's
	// log only with -v, and cuts it to ten lines.
	fmt.Print(t.String())
	cleanup(ctx, rdb, "rl:{bench-*")
}

// memRow is the memory one identity's state takes for one algorithm after
// L requests inside one window, per L.
type memRow struct {
	name  string
	bytes map[int]int64
}

// memoryTable fills one identity per algorithm with L allowed requests (each
// in its own millisecond, all inside the window) and asks Redis how much
// memory the identity's keys take (MEMORY USAGE … SAMPLES 0: every element
// counted, not estimated).
func memoryTable(ctx context.Context, rdb *redis.Client, ls []int) ([]memRow, error) {
	var rows []memRow
	stamp := time.Now().UnixNano()
	for _, a := range benched {
		row := memRow{name: a, bytes: map[int]int64{}}
		for _, L := range ls {
			l := everyScript(rdb, time.Hour, L, 0.001)[a]
			id := fmt.Sprintf("mem-%d-%s-%d", stamp, a, L)
			if err := fill(ctx, rdb, l, id, L); err != nil {
				return nil, err
			}
			n, err := usage(ctx, rdb, "rl:{"+id+"}:*")
			if err != nil {
				return nil, err
			}
			row.bytes[L] = n
		}
		rows = append(rows, row)
	}
	cleanup(ctx, rdb, fmt.Sprintf("rl:{mem-%d-*", stamp))
	return rows, nil
}

// fill sends n cost-1 requests at base+0, base+1, … ms through a pipeline
// (EVALSHA in batches of 1000) and checks they were all allowed.
func fill(ctx context.Context, rdb *redis.Client, l *limiter, id string, n int) error {
	if err := l.script.Load(ctx, rdb).Err(); err != nil {
		return err
	}
	for start := 0; start < n; start += 1000 {
		pipe := rdb.Pipeline()
		var cmds []*redis.Cmd
		for i := start; i < min(n, start+1000); i++ {
			args := append([]any{base + int64(i), 1}, l.params...)
			cmds = append(cmds, l.script.EvalSha(ctx, pipe, []string{Key(id, l.kind)}, args...))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
		for i, c := range cmds {
			res, err := c.Int64Slice()
			if err != nil {
				return err
			}
			if d, err := l.read(res); err != nil || !d.Allowed {
				return fmt.Errorf("%s: request %d of %d rejected while filling", l.name, start+i+1, n)
			}
		}
	}
	return nil
}

// usage sums MEMORY USAGE (all elements sampled) over the keys matching pattern.
func usage(ctx context.Context, rdb *redis.Client, pattern string) (int64, error) {
	var total int64
	iter := rdb.Scan(ctx, 0, pattern, 100).Iterator()
	for iter.Next(ctx) {
		n, err := rdb.MemoryUsage(ctx, iter.Val(), 0).Result()
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, iter.Err()
}

func cleanup(ctx context.Context, rdb *redis.Client, pattern string) {
	iter := rdb.Scan(ctx, 0, pattern, 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	sort.Strings(keys)
	for start := 0; start < len(keys); start += 500 {
		rdb.Unlink(ctx, keys[start:min(len(keys), start+500)]...)
	}
}

func formatMemory(rows []memRow) string {
	var ls []int
	for l := range rows[0].bytes {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	var t strings.Builder
	t.WriteString("\nMEMORY USAGE per identity after L allowed requests in one window (bytes)\n")
	fmt.Fprintf(&t, "%-16s", "algorithm")
	for _, l := range ls {
		fmt.Fprintf(&t, " %12s", fmt.Sprintf("L=%d", l))
	}
	t.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&t, "%-16s", r.name)
		for _, l := range ls {
			fmt.Fprintf(&t, " %12d", r.bytes[l])
		}
		t.WriteString("\n")
	}
	return t.String()
}

// TestMemoryUsageTable: the sliding log's state grows with L, every other
// algorithm's stays the same size (E19's per-key state column, in bytes).
func TestMemoryUsageTable(t *testing.T) {
	rdb := redistest.Client(t)
	rows, err := memoryTable(context.Background(), rdb, []int{100, 10000})
	require.NoError(t, err)
	t.Log(formatMemory(rows))
	for _, r := range rows {
		small, large := r.bytes[100], r.bytes[10000]
		require.Greater(t, small, int64(0), r.name)
		if r.name == "sliding-log" {
			require.Greater(t, large, 50*small, "sliding log is O(L): %d bytes at L=100, %d at L=10000", small, large)
		} else {
			require.LessOrEqual(t, large, small+16, "%s is O(1): %d bytes at L=100, %d at L=10000", r.name, small, large)
		}
	}
}

// BenchmarkSlidingLogCost: one sliding-log decision of cost 1 beside one of
// cost 1e6 (L = 1e6), in the same run. Each request comes a window after
// the last, so each is allowed and writes one entry. A cost-k request used
// to write k entries; now both costs do the same work.
func BenchmarkSlidingLogCost(b *testing.B) {
	rdb := redis.NewClient(&redis.Options{Addr: redistest.Addr(b)})
	defer rdb.Close()
	ctx := context.Background()
	const L = 1_000_000
	l := everyScript(rdb, time.Second, L, 1)["sliding-log"]
	perOp := map[int]float64{}
	for _, cost := range []int{1, L} {
		b.Run(fmt.Sprintf("cost=%d", cost), func(b *testing.B) {
			id := fmt.Sprintf("bench-log-%d-%d", time.Now().UnixNano(), cost)
			for i := 0; b.Loop(); i++ {
				d, err := l.AllowNAt(ctx, id, time.UnixMilli(base+int64(i)*1000), cost)
				if err != nil || !d.Allowed {
					b.Fatalf("request %d: %+v, %v", i, d, err)
				}
			}
			perOp[cost] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
	}
	if perOp[1] > 0 && perOp[L] > 0 {
		fmt.Printf("\nsliding log: cost 1 %.1f µs, cost %d %.1f µs per decision (%.2fx)\n",
			perOp[1]/1e3, L, perOp[L]/1e3, perOp[L]/perOp[1])
	}
	cleanup(ctx, rdb, "rl:{bench-log-*")
}

// BenchmarkPolicyRecheck prices the E20 re-check: three fixed-window
// limiters on the same Redis decide in turn, one decision each per
// iteration, so the machine's other work weighs on all three alike. "once"
// checks maxmemory-policy on its first decision only (the old behaviour),
// "every-1s" is the shipped PolicyRecheck, "every-decision" checks before
// every decision (a CONFIG GET per request). Read the ratios.
func BenchmarkPolicyRecheck(b *testing.B) {
	ctx := context.Background()
	rdb := redistest.Client(b)
	variants := []struct {
		name  string
		every time.Duration
	}{{"once", 1 << 62}, {"every-1s", PolicyRecheck}, {"every-decision", time.Nanosecond}}
	ls := make([]*limiter, len(variants))
	spent := make([]time.Duration, len(variants))
	for i, v := range variants {
		ls[i] = everyScript(rdb, time.Second, 1_000_000_000, 1)["fixed-window"]
		ls[i].policy.every = v.every
		if _, err := ls[i].AllowN(ctx, "policy-bench", 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		for i, l := range ls {
			start := time.Now()
			if _, err := l.AllowN(ctx, "policy-bench", 1); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
	}
	for i, v := range variants {
		b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N), "ns/decision-"+v.name)
	}
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "every-1s/once")
	b.ReportMetric(float64(spent[2])/float64(spent[0]), "every-decision/once")
}
