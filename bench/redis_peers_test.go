package bench

// The course's Redis scripts (chapter 06) beside github.com/go-redis/redis_rate
// (GCRA) and the Redis store of github.com/ulule/limiter (fixed window), and
// a raw INCR, on one loopback redis-server this file starts:
//
//	make bench-redis-peers    # or: cd bench && go test -run '^$' -bench Redis -benchtime 1x .

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// startRedis starts a redis-server of its own on a free loopback port, with
// no persistence, and stops it when the benchmark ends. The course's
// internal/redistest cannot be imported from this module.
func startRedis(tb testing.TB) string {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		tb.Skip("redis-server not found (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", tb.TempDir())
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return addr
		}
		if time.Now().After(deadline) {
			tb.Fatalf("redis-server on %s did not answer PING", addr)
		}
	}
}

// drive makes decisions for ids in turn on g goroutines until n have been
// made (n > 0) or d has passed, and returns how many were made and allowed.
func drive(ctx context.Context, dec redisDecide, ids []string, g int, n int64, d time.Duration) (made, allowed int64, err error) {
	var seq, ok atomic.Int64
	var once sync.Once
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for range g {
		wg.Go(func() {
			for i := int64(0); ; i++ {
				k := seq.Add(1)
				if (n > 0 && k > n) || (n <= 0 && i%16 == 0 && time.Now().After(stop)) {
					return
				}
				a, e := dec(ctx, ids[k%int64(len(ids))])
				if e != nil {
					once.Do(func() { err = e })
					return
				}
				if a {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	made = seq.Load() - int64(g)
	if n > 0 {
		made = n
	}
	return made, ok.Load(), err
}

// warmIDs returns the 1,000 identities every Redis benchmark decides for,
// after one decision for each with every limiter in ls: every script is
// loaded and every key exists before anything is timed.
func warmIDs(b *testing.B, ls []redisLimiter) []string {
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%d", i)
	}
	for _, l := range ls {
		if _, _, err := drive(context.Background(), l.decide, ids, 8, int64(len(ids)), 0); err != nil {
			b.Fatalf("%s: %v", l.name, err)
		}
	}
	return ids
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// BenchmarkRedis prints three tables for the same limiters in one run:
// the server time per decision (CONFIG RESETSTAT, n decisions on 8
// goroutines, INFO commandstats; the median of five rounds that take turns);
// the decisions per second at client parallelism 1, 8 and 64, each call on
// its own round trip and then through chapter 06's Batcher, as ratios to a
// raw INCR sent the same way (the median of five turns of 400 ms each); and
// what the Batcher gained, each limiter's pipelined turn over its own turn
// just before. Every limiter allows 100 per second per identity, spread over
// 1000 identities. Run it with -benchtime 1x: it measures once whatever b.N is.
func BenchmarkRedis(b *testing.B) {
	addr := startRedis(b)
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 64})
	defer rdb.Close()
	bt, err := distributed.NewBatcher(rdb, distributed.BatcherOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer bt.Close()
	ls := redisLimiters(b, rdb, bt)
	ids := warmIDs(b, ls)
	// Each limiter, and its pipelined twin right after it.
	var alone, turns []redisLimiter
	for _, l := range ls {
		if l.alone == "" {
			alone = append(alone, l)
			turns = append(turns, l)
			for _, p := range ls {
				if p.alone == l.name {
					turns = append(turns, p)
				}
			}
		}
	}

	var t strings.Builder
	serverTime(b, &t, rdb, alone, ids)

	ps := []int{1, 8, 64}
	const rounds, turn = 5, 400 * time.Millisecond
	rates := map[string][]float64{}  // name/p → decisions/s per round
	ratios := map[string][]float64{} // name/p → vs INCR, sent the same way, of the same round
	gains := map[string][]float64{}  // name/p → over its own turn without the Batcher
	for _, p := range ps {
		for range rounds {
			this := map[string]float64{}
			for _, l := range turns {
				made, _, err := drive(ctx, l.decide, ids, p, 0, turn)
				if err != nil {
					b.Fatalf("%s: %v", l.name, err)
				}
				r := float64(made) / turn.Seconds()
				this[l.name] = r
				base := this["incr"]
				k := fmt.Sprintf("%s/%d", l.name, p)
				if l.alone != "" {
					base = this["incr, pipelined"]
					gains[k] = append(gains[k], r/this[l.alone])
				}
				rates[k] = append(rates[k], r)
				ratios[k] = append(ratios[k], r/base)
			}
		}
	}
	fmt.Fprintf(&t, "\nDecisions per second at client parallelism P (goroutines on one client, pool 64; median of %d turns of %v);\n", rounds, turn)
	t.WriteString("\"pipelined\" is the same limiter through chapter 06's Batcher, and its ratio is to INCR through the Batcher\n\n")
	t.WriteString("| limiter |")
	for _, p := range ps {
		fmt.Fprintf(&t, " P=%d /s | P=%d vs INCR |", p, p)
	}
	t.WriteString("\n|---|" + strings.Repeat("---|---|", len(ps)) + "\n")
	for _, l := range turns {
		fmt.Fprintf(&t, "| %s |", l.name)
		for _, p := range ps {
			k := fmt.Sprintf("%s/%d", l.name, p)
			fmt.Fprintf(&t, " %.0f | %.2fx |", median(rates[k]), median(ratios[k]))
		}
		t.WriteString("\n")
	}
	t.WriteString("\nWhat the Batcher gains: each limiter's decisions per second through it over its own turn just before (median)\n\n")
	t.WriteString("| limiter | P=1 | P=8 | P=64 |\n|---|---|---|---|\n")
	for _, l := range turns {
		if l.alone == "" {
			continue
		}
		fmt.Fprintf(&t, "| %s |", l.alone)
		for _, p := range ps {
			fmt.Fprintf(&t, " %.2fx |", median(gains[fmt.Sprintf("%s/%d", l.name, p)]))
		}
		t.WriteString("\n")
		if l.name == "ulule (fixed window), pipelined" || l.name == "gcra, pipelined" {
			b.ReportMetric(median(gains[l.name+"/64"]), "x-gain-P64/"+strings.Fields(l.alone)[0])
		}
	}
	fmt.Print(t.String())
}
