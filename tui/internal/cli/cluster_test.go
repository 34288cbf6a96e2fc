package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// TestClusterWithoutRedisServer: no redis-server on PATH and no
// REDIS_CLUSTER_ADDRS is one line on stderr and exit 2; so is a bad flag.
func TestClusterWithoutRedisServer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("REDIS_CLUSTER_ADDRS", "")
	for _, args := range [][]string{{"cluster"}, {"cluster", "--json"}, {"cluster", "--nodes", "3"}} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		if code != 2 || out.Len() != 0 || strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), "cluster: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out.String(), errOut.String())
		}
	}
	var errOut bytes.Buffer
	run([]string{"cluster"}, &bytes.Buffer{}, &errOut)
	if !strings.Contains(errOut.String(), "redis-server") || !strings.Contains(errOut.String(), "REDIS_CLUSTER_ADDRS") {
		t.Errorf("the hint names neither way to get a cluster: %q", errOut.String())
	}
}

// TestClusterReport: `cluster` turns the experiments' events into its
// report, each section once and in order, the JSON holding every figure.
// The run is a fake's (runAll): what the experiments measure on a real
// cluster is chapters/06-distributed/cluster's to test, and the app's
// cluster screen keeps the one real end-to-end run.
func TestClusterReport(t *testing.T) {
	e21 := cluster.HashTagResult{ID: "x-user-42", Slot: 15995, KeySlots: map[string]int{"a": 15995, "b": 15995},
		CrossSlot: "CROSSSLOT Keys in request don't hash to the same slot", SharedTag: "[0 0]", IDs: 10000,
		Split: []cluster.PrimaryShare{{Addr: "127.0.0.1:7001", Slots: 5461, Count: 3321, Share: 0.3321},
			{Addr: "127.0.0.1:7002", Slots: 5461, Count: 3332, Share: 0.3332}, {Addr: "127.0.0.1:7003", Slots: 5462, Count: 3347, Share: 0.3347}}}
	e22 := cluster.HotKeyResult{Config: cluster.DefaultHotKey(""), HotPrimary: "127.0.0.1:7003", HotShare: 0.8616,
		HotCentral: 8000, HotBorrow: 172, Reduction: 46.5,
		Split: cluster.SplitResult{Cases: []cluster.SplitCase{{Demand: []int{70, 10, 10, 10}, Single: 100, Split: 55, FullShares: 100}}}}
	e23 := []cluster.FailoverRun{{Mitigation: cluster.MitigationNone, Before: 200, Forgotten: 98, OverAdmitted: 98},
		{Mitigation: cluster.MitigationMinReplicas, LagRefused: 19}, {Mitigation: cluster.MitigationWait, WaitP50: 49}}
	mig := cluster.MigrationResult{Slot: 42, From: "127.0.0.1:7001", To: "127.0.0.1:7002", Keys: 3, Sent: 500, AdmittedFW: 100, CountOnTo: 500, Asking: 7}
	defer func(orig func(context.Context, *redis.ClusterClient, cluster.NodeControl, string, func(any)) error) {
		runAll = orig
	}(runAll)
	runAll = func(_ context.Context, _ *redis.ClusterClient, _ cluster.NodeControl, _ string, report func(any)) error {
		for _, ev := range []any{cluster.Stage{}, e21, cluster.HotKeyProgress{}, e22, e23[0], e23[1], e23[2], mig} {
			report(ev)
		}
		return nil
	}
	var text bytes.Buffer
	rep, err := clusterReport(context.Background(), &redisproc.Cluster{How: "fake", Addrs: []string{"127.0.0.1:7001"}},
		func(section func(io.Writer)) { section(&text) })
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(rep)
	var back clusterJSON
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if back.Source != "fake" || back.E21.IDs != 10000 || len(back.E21.Split) != 3 || back.E22.HotBorrow != 172 ||
		len(back.E23) != 3 || back.E23[0].OverAdmitted != 98 || back.E23Skipped != "" || back.Migration.Asking != 7 {
		t.Errorf("the report's JSON lost figures: %s", out)
	}
	sections := []string{"cluster: fake, 1 nodes", "E21 hash tags", "E22 the hot key", "E23 failover", "moving a slot"}
	last := -1
	for _, want := range sections {
		if n := strings.Count(text.String(), want); n != 1 {
			t.Errorf("the text has %q %d times, want once:\n%s", want, n, text.String())
		}
		i := strings.Index(text.String(), want)
		if i < last {
			t.Errorf("%q out of order:\n%s", want, text.String())
		}
		last = i
	}
	for _, want := range []string{"CROSSSLOT", "10000 identities", "3347   33.5%", "46.5x fewer", "70/10/10/10",
		"forgot admitted", "none                         0        0      98", "slot 42, 127.0.0.1:7001 -> 127.0.0.1:7002", "ASK 7 times"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line longer than 100 columns: %q", line)
		}
	}
}

// TestClusterReportSkippedFailover: on a cluster that is not its own the
// failover is skipped, and the report says why instead of a table.
func TestClusterReportSkippedFailover(t *testing.T) {
	defer func(orig func(context.Context, *redis.ClusterClient, cluster.NodeControl, string, func(any)) error) {
		runAll = orig
	}(runAll)
	runAll = func(_ context.Context, _ *redis.ClusterClient, _ cluster.NodeControl, _ string, report func(any)) error {
		report(cluster.Skipped{Part: 2, Why: "the cluster is REDIS_CLUSTER_ADDRS's"})
		return nil
	}
	var text bytes.Buffer
	rep, err := clusterReport(context.Background(), &redisproc.Cluster{How: "fake"}, func(section func(io.Writer)) { section(&text) })
	if err != nil || rep.E23Skipped != "the cluster is REDIS_CLUSTER_ADDRS's" || len(rep.E23) != 0 ||
		!strings.Contains(text.String(), "skipped: the cluster is REDIS_CLUSTER_ADDRS's") || strings.Contains(text.String(), "mitigation") {
		t.Errorf("err %v, report %+v, text:\n%s", err, rep, text.String())
	}
}
