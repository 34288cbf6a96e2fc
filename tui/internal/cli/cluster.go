package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const clusterUsage = `usage: tui cluster [--json]

Starts a Redis Cluster (3 primaries, 3 replicas) from redis-server on PATH, or
uses the one REDIS_CLUSTER_ADDRS names (host:port,...), and runs chapter 06
part 3 on it: E21 hash tags, E22 the hot key, E23 failover (only on a cluster
it started: it kills a primary), and a slot migration under traffic. Takes
about 40 seconds; every process it started is stopped at the end.
`

// clusterJSON is the shape of `cluster --json`.
type clusterJSON struct {
	Source     string                  `json:"source"`
	E21        cluster.HashTagResult   `json:"e21"`
	E22        cluster.HotKeyResult    `json:"e22"`
	E23        []cluster.FailoverRun   `json:"e23"`
	E23Skipped string                  `json:"e23_skipped,omitempty"`
	Migration  cluster.MigrationResult `json:"migration"`
}

// runCluster is the headless chapter 06 part 3 report.
func runCluster(args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	c := newCLIFlags("cluster")
	c.boolean("json", &asJSON)
	if code, ok := c.parseAll(args, stdout, stderr, clusterUsage); !ok {
		return code
	}
	// The failover kills a primary on purpose: go-redis would log every
	// refused dial to it on stderr.
	redisproc.QuietClientLogs()
	// Ctrl-C stops the experiments, and the deferred Close below still
	// kills the six processes and removes their files.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cl, err := redisproc.OpenCluster(ctx)
	if errors.Is(err, redisproc.ErrNoCluster) {
		fmt.Fprintf(stderr, "cluster: %v\n", err)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "cluster: cannot start a Redis Cluster: %v\n", err)
		return 1
	}
	defer cl.Close()
	rep, err := clusterReport(ctx, cl, func(section func(io.Writer)) {
		if !asJSON {
			section(stdout)
		}
	})
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "cluster: interrupted; the cluster is stopped")
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "cluster: %v\n", err)
		return 1
	}
	if asJSON {
		writeJSON(stdout, rep)
	}
	return 0
}

// runAll runs chapter 06 part 3's experiments (cluster.RunAll); a test
// replaces it with a run's events, the experiments being the chapter's to
// test on a real cluster.
var runAll = cluster.RunAll

// clusterReport runs every experiment on cl, in cluster.Experiments' order,
// handing each finished section to show as it completes.
func clusterReport(ctx context.Context, cl *redisproc.Cluster, show func(func(io.Writer))) (clusterJSON, error) {
	rep := clusterJSON{Source: cl.How}
	cc := redis.NewClusterClient(cl.Options())
	defer cc.Close()
	prefix := fmt.Sprintf("tui-%d-%d", os.Getpid(), time.Now().UnixNano())
	show(func(w io.Writer) { fmt.Fprintf(w, "cluster: %s, %d nodes\n\n", cl.How, len(cl.Addrs)) })
	var ctl cluster.NodeControl
	if cl.Owned() {
		ctl = cl
	}
	e23 := cluster.DefaultFailover(prefix)
	err := runAll(ctx, cc, ctl, prefix, func(ev any) {
		switch ev := ev.(type) {
		case cluster.HashTagResult:
			rep.E21 = ev
			show(func(w io.Writer) { writeE21(w, rep.E21) })
		case cluster.HotKeyResult:
			rep.E22 = ev
			show(func(w io.Writer) { writeE22(w, rep.E22) })
		case cluster.FailoverRun:
			if rep.E23 = append(rep.E23, ev); len(rep.E23) == len(cluster.Mitigations) {
				show(func(w io.Writer) { writeE23(w, e23, rep.E23, "") })
			}
		case cluster.Skipped:
			rep.E23Skipped = ev.Why
			show(func(w io.Writer) { writeE23(w, e23, nil, rep.E23Skipped) })
		case cluster.MigrationResult:
			rep.Migration = ev
			show(func(w io.Writer) { writeMigration(w, rep.Migration) })
		}
	})
	return rep, err
}

const clusterBarWidth = 30

// bar draws share (0..1) as a run of #.
func bar(share float64) string {
	n := int(share*clusterBarWidth + 0.5)
	return strings.Repeat("#", max(0, min(n, clusterBarWidth)))
}

func writeE21(w io.Writer, r cluster.HashTagResult) {
	fmt.Fprintf(w, "E21 hash tags\n")
	fmt.Fprintf(w, "  the %d keys of one identity (rl:{id}:fw, :tb, ...): all in slot %d\n", len(r.KeySlots), r.Slot)
	fmt.Fprintf(w, "  a script over two keys without a shared tag: %s\n", r.CrossSlot)
	fmt.Fprintf(w, "  the same script over two keys under one tag: ran, returned %s\n", r.SharedTag)
	fmt.Fprintf(w, "  %d identities over the primaries:\n", r.IDs)
	fmt.Fprintf(w, "    %-21s %6s %6s %7s\n", "primary", "slots", "ids", "share")
	for _, s := range r.Split {
		fmt.Fprintf(w, "    %-21s %6d %6d %6.1f%%  %s\n", s.Addr, s.Slots, s.Count, 100*s.Share, bar(s.Share))
	}
	fmt.Fprintln(w)
}

func writeE22(w io.Writer, r cluster.HotKeyResult) {
	c := r.Config
	fmt.Fprintf(w, "E22 the hot key: %d requests, %d%% from one identity, %d others, limit %d per window, %d windows\n",
		c.Requests, c.HotPercent, c.Spread, c.Limit, c.Windows)
	fmt.Fprintf(w, "  script calls per primary (INFO commandstats, reset before the run):\n")
	for _, s := range r.Mixed {
		tag := ""
		if s.Addr == r.HotPrimary {
			tag = " hot"
		}
		fmt.Fprintf(w, "    %-21s %-4s %6d %6.1f%%  %s\n", s.Addr, tag, s.Count, 100*s.Share, bar(s.Share))
	}
	fmt.Fprintf(w, "  the hot identity alone, %d requests: %d script calls on its primary without prefetch,\n",
		c.Requests*c.HotPercent/100, r.HotCentral)
	fmt.Fprintf(w, "  %d with prefetch (batch %d, %d app nodes): %.1fx fewer; other primaries: %d calls\n",
		r.HotBorrow, c.Batch, c.AppNodes, r.Reduction, r.OtherCalls)
	fmt.Fprintf(w, "  admitted per window (limit %d): central %s, prefetch %s\n",
		c.Limit, text.JoinInts(r.CentralAdmitted, "/"), text.JoinInts(r.PrefetchAdmitted, "/"))
	fmt.Fprintf(w, "  splitting the key, limit 100 (the four shards on %s):\n", strings.Join(text.ShortAddrs(r.Split.Primaries), " "))
	fmt.Fprintf(w, "    %-18s %9s %13s %17s\n", "demand per shard", "one key", "4 keys of 25", "4 keys of 100")
	for _, sc := range r.Split.Cases {
		fmt.Fprintf(w, "    %-18s %9d %13d %17d\n", text.JoinInts(sc.Demand, "/"), sc.Single, sc.Split, sc.FullShares)
	}
	fmt.Fprintln(w)
}

func writeE23(w io.Writer, c cluster.FailoverConfig, runs []cluster.FailoverRun, skipped string) {
	fmt.Fprintf(w, "E23 failover loses counts: limit %d, %d admitted and replicated, then the replica frozen\n", c.Limit, c.Before)
	fmt.Fprintf(w, "  for %v with one request per %v; the primary killed, the replica promoted (TAKEOVER)\n", c.Lag, c.Every)
	if skipped != "" {
		fmt.Fprintf(w, "  skipped: %s\n\n", skipped)
		return
	}
	fmt.Fprintf(w, "    %-21s %17s %7s %16s\n", "", "while frozen", "", "after promotion")
	fmt.Fprintf(w, "    %-21s %8s %8s %7s %8s %7s %6s %5s %9s\n",
		"mitigation", "admitted", "refused", "forgot", "admitted", "refused", "total", "over", "failover")
	for _, r := range runs {
		fmt.Fprintf(w, "    %-21s %8d %8d %7d %8d %7d %6d %5d %7dms\n", r.Mitigation,
			r.LagAdmitted, r.LagRefused, r.Forgotten, r.AfterAdmitted, r.AfterRefused, r.Total, r.OverAdmitted, r.FailoverMs)
	}
	for _, r := range runs {
		switch r.Mitigation {
		case cluster.MitigationMinReplicas:
			fmt.Fprintf(w, "  min-replicas-to-write 1, max-lag %d s: writes accepted for %d ms after the freeze, then\n",
				c.MaxLag, r.FirstRefuse)
			fmt.Fprintf(w, "    refused, %.0f ms per refused decision; with no replica the new primary refused every\n", r.RefuseMs)
			fmt.Fprintf(w, "    write for %d ms (here the old primary came back as its replica at once)\n", r.NoReplicaMs)
		case cluster.MitigationWait:
			fmt.Fprintf(w, "  WAIT 1 %v, with a healthy replica: p50 %d -> %d us per decision (+%d us),\n",
				c.WaitTimeout, r.PlainP50, r.WaitP50, r.WaitP50-r.PlainP50)
			fmt.Fprintf(w, "    p99 %d -> %d us;\n", r.PlainP99, r.WaitP99)
			fmt.Fprintf(w, "    frozen replica: every decision waited %.0f ms and was refused\n", r.RefuseMs)
		}
	}
	fmt.Fprintln(w)
}

func writeMigration(w io.Writer, r cluster.MigrationResult) {
	fmt.Fprintf(w, "moving a slot under traffic: slot %d, %s -> %s\n", r.Slot, r.From, r.To)
	fmt.Fprintf(w, "  %d keys moved in %d ms; %d requests from %d goroutines, %d during the move, %d errors\n",
		r.Keys, r.TookMs, r.Sent, r.Config.Workers, r.During, r.Errors)
	fmt.Fprintf(w, "  admitted %d (fixed window) and %d (sliding log) of limit %d; count on the new owner %d\n",
		r.AdmittedFW, r.AdmittedLog, r.Config.Limit, r.CountOnTo)
	fmt.Fprintf(w, "  the client followed ASK %d times and MOVED %d times\n", r.Asking, r.Moved)
}
