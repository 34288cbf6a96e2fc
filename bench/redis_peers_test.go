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

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	ulredis "github.com/ulule/limiter/v3/drivers/store/redis"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
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

// A redisDecide is one decision for id; it reports whether it was allowed.
type redisDecide func(ctx context.Context, id string) (bool, error)

type redisLimiter struct {
	name   string
	peer   string // the peer doing the same algorithm, if any
	decide redisDecide
}

// redisLimiters builds every limiter on one budget, 100 per second per
// identity (a window of 1 s and a limit of 100, or a capacity of 100 and a
// rate of 100/s), on the one client.
func redisLimiters(tb testing.TB, rdb *redis.Client) []redisLimiter {
	w := distributed.WindowConfig{Window: time.Second, Limit: 100}
	bk := distributed.BucketConfig{Capacity: 100, Rate: 100}
	s := distributed.AssumeNoEviction(rdb) // a fresh redis-server runs noeviction
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	course := func(l interface {
		Allow(context.Context, string) (core.Decision, error)
	}, err error) redisDecide {
		must(err)
		return func(ctx context.Context, id string) (bool, error) {
			d, err := l.Allow(ctx, id)
			return d.Allowed, err
		}
	}
	rr := redis_rate.NewLimiter(rdb)
	rrLimit := redis_rate.Limit{Rate: 100, Burst: 100, Period: time.Second}
	store, err := ulredis.NewStoreWithOptions(rdb, limiter.StoreOptions{Prefix: "ulule"})
	must(err)
	ul := limiter.New(store, limiter.Rate{Period: time.Second, Limit: 100})

	fw, err := distributed.NewFixedWindow(s, w)
	fwDecide := course(fw, err)
	fwt, err := distributed.NewFixedWindowTTL(s, w)
	fwtDecide := course(fwt, err)
	sl, err := distributed.NewSlidingLog(s, w)
	slDecide := course(sl, err)
	sc, err := distributed.NewSlidingCounter(s, w)
	scDecide := course(sc, err)
	tb2, err := distributed.NewTokenBucket(s, bk)
	tbDecide := course(tb2, err)
	g, err := distributed.NewGCRA(s, bk)
	gDecide := course(g, err)

	// The floor of a script: one declared key, one reply value, no call.
	floor := redis.NewScript("return 1")
	floorTime := redis.NewScript("redis.call('TIME') return 1") // what one redis.call adds
	must(rdb.FunctionLoadReplace(context.Background(), floorLib).Err())

	return []redisLimiter{
		{"incr", "", func(ctx context.Context, id string) (bool, error) {
			return true, rdb.Incr(ctx, "raw:"+id).Err()
		}},
		{"evalsha floor", "", func(ctx context.Context, id string) (bool, error) {
			return true, floor.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{"evalsha floor + TIME", "", func(ctx context.Context, id string) (bool, error) {
			return true, floorTime.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{"fcall floor", "", func(ctx context.Context, id string) (bool, error) {
			return true, rdb.FCall(ctx, "floor", []string{"floor:" + id}).Err()
		}},
		{"redis_rate (GCRA)", "", func(ctx context.Context, id string) (bool, error) {
			r, err := rr.Allow(ctx, id, rrLimit)
			if err != nil {
				return false, err
			}
			return r.Allowed > 0, nil
		}},
		{"ulule (fixed window)", "", func(ctx context.Context, id string) (bool, error) {
			c, err := ul.Get(ctx, id)
			return !c.Reached, err
		}},
		{"fixed-window", "ulule (fixed window)", fwDecide},
		{"fixed-window-ttl", "ulule (fixed window)", fwtDecide},
		{"sliding-log", "", slDecide},
		{"sliding-counter", "", scDecide},
		{"token-bucket", "redis_rate (GCRA)", tbDecide},
		{"gcra", "redis_rate (GCRA)", gDecide},
	}
}

// floorLib is the Redis 7 function that does what the EVALSHA floor does.
const floorLib = "#!lua name=benchfloor\nredis.register_function('floor', function(keys, args) return 1 end)"

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

// cmdStat is one command's line of INFO commandstats.
type cmdStat struct {
	calls int64
	usec  int64
}

func commandStats(ctx context.Context, rdb *redis.Client) (map[string]cmdStat, error) {
	info, err := rdb.Info(ctx, "commandstats").Result()
	if err != nil {
		return nil, err
	}
	out := map[string]cmdStat{}
	for _, line := range strings.Split(info, "\n") {
		name, rest, found := strings.Cut(strings.TrimSpace(line), ":")
		if !found || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		var s cmdStat
		for _, f := range strings.Split(rest, ",") {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "calls":
				s.calls, _ = strconv.ParseInt(v, 10, 64)
			case "usec":
				s.usec, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		out[strings.TrimPrefix(name, "cmdstat_")] = s
	}
	return out, nil
}

// serverRun is one limiter's server time over n decisions: the top-level
// commands' usec per decision (EVALSHA and EVAL for a script, INCR for the
// raw counter; a script's own usec includes the commands it calls), and the
// calls per decision of each command it issued.
type serverRun struct {
	usPerDecision float64
	inCalls       float64 // usec per decision inside the commands a script called
	allowed       float64
	calls         map[string]float64 // calls per decision
	usecPerCall   map[string]float64
}

func measureServer(ctx context.Context, rdb *redis.Client, l redisLimiter, ids []string, n int64) (serverRun, error) {
	if err := rdb.ConfigResetStat(ctx).Err(); err != nil {
		return serverRun{}, err
	}
	made, ok, err := drive(ctx, l.decide, ids, 8, n, 0)
	if err != nil {
		return serverRun{}, err
	}
	st, err := commandStats(ctx, rdb)
	if err != nil {
		return serverRun{}, err
	}
	r := serverRun{allowed: float64(ok) / float64(made), calls: map[string]float64{}, usecPerCall: map[string]float64{}}
	var top, inner int64
	for name, s := range st {
		switch {
		case strings.HasPrefix(name, "config"), name == "info":
			continue
		case name == "evalsha", name == "eval", name == "fcall":
			top += s.usec
		case name == "incr" && l.name == "incr":
			top += s.usec
		default:
			inner += s.usec
		}
		r.calls[name] = float64(s.calls) / float64(made)
		r.usecPerCall[name] = float64(s.usec) / float64(s.calls)
	}
	r.usPerDecision = float64(top) / float64(made)
	r.inCalls = float64(inner) / float64(made)
	return r, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// BenchmarkRedis prints two tables for the same limiters in one run:
// the server time per decision (CONFIG RESETSTAT, n decisions on 8
// goroutines, INFO commandstats; the median of five rounds that take turns)
// and the decisions per second at client parallelism 1, 8 and 64 (the
// median of three turns of 250 ms each), as ratios to a raw INCR. Every
// limiter allows 100 per second per identity, spread over 1000 identities.
// Run it with -benchtime 1x: it measures once whatever b.N is.
func BenchmarkRedis(b *testing.B) {
	addr := startRedis(b)
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 64})
	defer rdb.Close()
	ls := redisLimiters(b, rdb)
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%d", i)
	}
	for _, l := range ls { // load every script and create every key
		if _, _, err := drive(ctx, l.decide, ids, 8, int64(len(ids)), 0); err != nil {
			b.Fatalf("%s: %v", l.name, err)
		}
	}

	const rounds, n = 5, 10_000
	runs := make([][]serverRun, len(ls))
	for range rounds {
		for i, l := range ls {
			r, err := measureServer(ctx, rdb, l, ids, n)
			if err != nil {
				b.Fatalf("%s: %v", l.name, err)
			}
			runs[i] = append(runs[i], r)
		}
	}
	us := make(map[string]float64, len(ls))
	inCalls := make(map[string]float64, len(ls))
	for i, l := range ls {
		var xs, ys []float64
		for _, r := range runs[i] {
			xs = append(xs, r.usPerDecision)
			ys = append(ys, r.inCalls)
		}
		us[l.name], inCalls[l.name] = median(xs), median(ys)
	}

	var t strings.Builder
	fmt.Fprintf(&t, "\nServer time per decision (INFO commandstats over %d decisions on 8 goroutines, median of %d)\n\n", n, rounds)
	t.WriteString("| limiter | µs per decision | of which in calls | vs INCR | vs EVALSHA floor | vs peer (same algorithm) | allowed | calls per decision (µs per call) |\n")
	t.WriteString("|---|---|---|---|---|---|---|---|\n")
	for i, l := range ls {
		last := runs[i][len(runs[i])-1]
		var cmds []string
		for name, c := range last.calls {
			if c >= 0.005 && name != "evalsha" && name != "fcall" {
				cmds = append(cmds, fmt.Sprintf("%s %.2f (%.2f)", strings.ToUpper(name), c, last.usecPerCall[name]))
			}
		}
		sort.Strings(cmds)
		vsPeer := "—"
		if l.peer != "" {
			vsPeer = fmt.Sprintf("%.2fx %s", us[l.name]/us[l.peer], l.peer)
		}
		in := fmt.Sprintf("%.2f", inCalls[l.name])
		if l.name == "incr" || strings.Contains(l.name, "floor") {
			in = "—"
		}
		fmt.Fprintf(&t, "| %s | %.2f | %s | %.2fx | %.2fx | %s | %.0f%% | %s |\n", l.name, us[l.name], in, us[l.name]/us["incr"],
			us[l.name]/us["evalsha floor"], vsPeer, 100*last.allowed, strings.Join(cmds, ", "))
		unit := strings.Fields(l.name)[0]
		if strings.Contains(l.name, "floor") { // three of them: every word
			unit = strings.Join(strings.Fields(strings.ReplaceAll(l.name, "+", "")), "-")
		}
		b.ReportMetric(us[l.name], "µs/"+unit)
	}

	ps := []int{1, 8, 64}
	const turn = 400 * time.Millisecond
	rates := map[string][]float64{}  // name/p → decisions/s per round
	ratios := map[string][]float64{} // name/p → vs INCR of the same round
	for _, p := range ps {
		for range rounds {
			var base float64
			for _, l := range ls {
				made, _, err := drive(ctx, l.decide, ids, p, 0, turn)
				if err != nil {
					b.Fatalf("%s: %v", l.name, err)
				}
				r := float64(made) / turn.Seconds()
				if l.name == "incr" {
					base = r
				}
				k := fmt.Sprintf("%s/%d", l.name, p)
				rates[k] = append(rates[k], r)
				ratios[k] = append(ratios[k], r/base)
			}
		}
	}
	fmt.Fprintf(&t, "\nDecisions per second at client parallelism P (goroutines on one client, pool 64; median of %d turns of %v)\n\n", rounds, turn)
	t.WriteString("| limiter |")
	for _, p := range ps {
		fmt.Fprintf(&t, " P=%d /s | P=%d vs INCR |", p, p)
	}
	t.WriteString("\n|---|" + strings.Repeat("---|---|", len(ps)) + "\n")
	for _, l := range ls {
		fmt.Fprintf(&t, "| %s |", l.name)
		for _, p := range ps {
			k := fmt.Sprintf("%s/%d", l.name, p)
			fmt.Fprintf(&t, " %.0f | %.2fx |", median(rates[k]), median(ratios[k]))
		}
		t.WriteString("\n")
	}
	fmt.Print(t.String())
}
