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

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
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
	// alone is, for a limiter sent through the Batcher, the name of the
	// same limiter sending each call on its own; empty for the latter.
	alone string
}

// batchedClient is the go-redis client with its script calls sent through
// chapter 06's Batcher: redis_rate and ulule take it as their client, so the
// peers share round trips exactly as the course's scripts do.
type batchedClient struct {
	*redis.Client
	bt *distributed.Batcher
}

func (c batchedClient) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return c.bt.Eval(ctx, script, keys, args...)
}

func (c batchedClient) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return c.bt.EvalSha(ctx, sha1, keys, args...)
}

// redisLimiters builds every limiter on one budget, 100 per second per
// identity (a window of 1 s and a limit of 100, or a capacity of 100 and a
// rate of 100/s), on the one client, and then the raw INCR, the peers and
// the course's scripts again through bt, chapter 06's Batcher on that client.
func redisLimiters(tb testing.TB, rdb *redis.Client, bt *distributed.Batcher) []redisLimiter {
	// The floor of a script: one declared key, one reply value, no call.
	floor := redis.NewScript("return 1")
	floorTime := redis.NewScript("redis.call('TIME') return 1") // what one redis.call adds
	if err := rdb.FunctionLoadReplace(context.Background(), floorLib).Err(); err != nil {
		tb.Fatal(err)
	}

	alone := []redisLimiter{
		{name: "incr", decide: func(ctx context.Context, id string) (bool, error) {
			return true, rdb.Incr(ctx, "raw:"+id).Err()
		}},
		{name: "evalsha floor", decide: func(ctx context.Context, id string) (bool, error) {
			return true, floor.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{name: "evalsha floor + TIME", decide: func(ctx context.Context, id string) (bool, error) {
			return true, floorTime.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{name: "fcall floor", decide: func(ctx context.Context, id string) (bool, error) {
			return true, rdb.FCall(ctx, "floor", []string{"floor:" + id}).Err()
		}},
	}
	alone = append(alone, limitersOn(tb, rdb, rdb, "")...)
	batched := []redisLimiter{{name: "incr, pipelined", alone: "incr", decide: func(ctx context.Context, id string) (bool, error) {
		return true, bt.Do(ctx, "incr", "raw:"+id).Err()
	}}}
	batched = append(batched, limitersOn(tb, batchedClient{rdb, bt}, bt, ", pipelined")...)
	return append(alone, batched...)
}

// peerClient is what redis_rate and ulule take as their client.
type peerClient interface {
	ulredis.Client
	redis.Scripter
}

// limitersOn builds the two peers on client and the course's six scripts on
// sc, their names ending in suffix.
func limitersOn(tb testing.TB, client peerClient, sc redis.Scripter, suffix string) []redisLimiter {
	w := fixedwindow.Config{Window: time.Second, Limit: 100}
	sw := sliding.Config{Window: time.Second, Limit: 100}
	bk := buckets.Config{Capacity: 100, Rate: 100}
	s := distributed.AssumeNoEviction(sc) // a fresh redis-server runs noeviction
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
	rr := redis_rate.NewLimiter(client)
	rrLimit := redis_rate.Limit{Rate: 100, Burst: 100, Period: time.Second}
	store, err := ulredis.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: "ulule"})
	must(err)
	ul := limiter.New(store, limiter.Rate{Period: time.Second, Limit: 100})

	fw, err := distributed.NewFixedWindow(s, w)
	fwDecide := course(fw, err)
	fwt, err := distributed.NewFixedWindowTTL(s, w)
	fwtDecide := course(fwt, err)
	sl, err := distributed.NewSlidingLog(s, sw)
	slDecide := course(sl, err)
	sc2, err := distributed.NewSlidingCounter(s, sw)
	scDecide := course(sc2, err)
	tb2, err := distributed.NewTokenBucket(s, bk)
	tbDecide := course(tb2, err)
	g, err := distributed.NewGCRA(s, bk)
	gDecide := course(g, err)

	ls := []redisLimiter{
		{name: "redis_rate (GCRA)", decide: func(ctx context.Context, id string) (bool, error) {
			r, err := rr.Allow(ctx, id, rrLimit)
			if err != nil {
				return false, err
			}
			return r.Allowed > 0, nil
		}},
		{name: "ulule (fixed window)", decide: func(ctx context.Context, id string) (bool, error) {
			c, err := ul.Get(ctx, id)
			return !c.Reached, err
		}},
		{name: "fixed-window", peer: "ulule (fixed window)", decide: fwDecide},
		{name: "fixed-window-ttl", peer: "ulule (fixed window)", decide: fwtDecide},
		{name: "sliding-log", decide: slDecide},
		{name: "sliding-counter", decide: scDecide},
		{name: "token-bucket", peer: "redis_rate (GCRA)", decide: tbDecide},
		{name: "gcra", peer: "redis_rate (GCRA)", decide: gDecide},
	}
	for i := range ls {
		if suffix != "" {
			ls[i].alone = ls[i].name
			ls[i].name += suffix
			if ls[i].peer != "" {
				ls[i].peer += suffix
			}
		}
	}
	return ls
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
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%d", i)
	}
	for _, l := range ls { // load every script and create every key
		if _, _, err := drive(ctx, l.decide, ids, 8, int64(len(ids)), 0); err != nil {
			b.Fatalf("%s: %v", l.name, err)
		}
	}
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

// serverTime writes the table of server time per decision for ls (each call
// on its own: the Batcher changes the round trips, not what a script costs
// the server) and reports each limiter's µs as a metric.
func serverTime(b *testing.B, t *strings.Builder, rdb *redis.Client, ls []redisLimiter, ids []string) {
	ctx := context.Background()
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

	fmt.Fprintf(t, "\nServer time per decision (INFO commandstats over %d decisions on 8 goroutines, median of %d)\n\n", n, rounds)
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
		fmt.Fprintf(t, "| %s | %.2f | %s | %.2fx | %.2fx | %s | %.0f%% | %s |\n", l.name, us[l.name], in, us[l.name]/us["incr"],
			us[l.name]/us["evalsha floor"], vsPeer, 100*last.allowed, strings.Join(cmds, ", "))
		unit := strings.Fields(l.name)[0]
		if strings.Contains(l.name, "floor") { // three of them: every word
			unit = strings.Join(strings.Fields(strings.ReplaceAll(l.name, "+", "")), "-")
		}
		b.ReportMetric(us[l.name], "µs/"+unit)
	}
}
