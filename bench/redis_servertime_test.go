package bench

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

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

// BenchmarkScriptsBesidePeers is the server-time table's ratios alone, for
// a quick and steadier reading: each course script beside the peer doing its
// algorithm (redis_rate for GCRA and the token bucket, ulule for the fixed
// windows), every limiter in turn for 15 rounds of 10,000 decisions on 8
// goroutines, the first to go changing every round. It prints, and reports,
// the median over the rounds of each script's µs over its peer's in the
// same round, which a load that changes from second to second moves far
// less than the µs themselves. Run it with -benchtime 1x:
//
//	cd bench && go test -run '^$' -bench ScriptsBesidePeers -benchtime 1x .
func BenchmarkScriptsBesidePeers(b *testing.B) {
	addr := startRedis(b)
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 64})
	defer rdb.Close()
	var ls []redisLimiter
	for _, l := range limitersOn(b, rdb, rdb, "") {
		if l.peer != "" || l.name == "redis_rate (GCRA)" || l.name == "ulule (fixed window)" {
			ls = append(ls, l)
		}
	}
	ids := warmIDs(b, ls)
	const rounds, n = 15, 10_000
	us := make(map[string][]float64, len(ls))
	for r := range rounds {
		for j := range ls {
			l := ls[(j+r)%len(ls)]
			run, err := measureServer(ctx, rdb, l, ids, n)
			if err != nil {
				b.Fatalf("%s: %v", l.name, err)
			}
			us[l.name] = append(us[l.name], run.usPerDecision)
		}
	}
	fmt.Printf("\nServer µs per decision and the ratio to the peer in the same round (median of %d rounds of %d decisions)\n\n", rounds, n)
	fmt.Println("| limiter | µs per decision | vs peer, median | vs peer, middle half of the rounds |")
	fmt.Println("|---|---|---|---|")
	for _, l := range ls {
		if l.peer == "" {
			fmt.Printf("| %s | %.2f | — | — |\n", l.name, median(us[l.name]))
			continue
		}
		ratio := make([]float64, rounds)
		for r := range ratio {
			ratio[r] = us[l.name][r] / us[l.peer][r]
		}
		sort.Float64s(ratio)
		fmt.Printf("| %s | %.2f | %.2fx %s | %.2f-%.2fx |\n", l.name, median(us[l.name]), median(ratio),
			strings.Fields(l.peer)[0], ratio[rounds/4], ratio[rounds-1-rounds/4])
		b.ReportMetric(median(ratio), "x-"+l.name)
	}
}
