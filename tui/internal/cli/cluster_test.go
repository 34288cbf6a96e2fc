package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
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

// TestClusterReport runs `cluster --json` on a cluster of its own and checks
// the figures against what E21–E23 must show, then prints the text tables
// from the same figures.
func TestClusterReport(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil && os.Getenv("REDIS_CLUSTER_ADDRS") == "" {
		if os.Getenv("REQUIRE_REDIS") == "1" {
			t.Fatal("REQUIRE_REDIS=1 but no redis-server on PATH and no REDIS_CLUSTER_ADDRS")
		}
		t.Skip("no redis-server on PATH (apt-get install redis-server) and no REDIS_CLUSTER_ADDRS")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"cluster", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr not empty: %q", errOut.String())
	}
	var rep clusterJSON
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	e21, e22 := rep.E21, rep.E22
	if !strings.Contains(e21.CrossSlot, "CROSSSLOT") || len(e21.Split) != 3 {
		t.Errorf("E21: cross-slot %q, split %+v", e21.CrossSlot, e21.Split)
	}
	var ids int64
	for _, s := range e21.Split {
		ids += s.Count
		if s.Share < 0.30 || s.Share > 0.37 {
			t.Errorf("E21: %s holds %.3f of the identities, want about a third", s.Addr, s.Share)
		}
	}
	if ids != 10000 {
		t.Errorf("E21: %d identities counted, want 10000", ids)
	}
	if e22.HotShare < 0.8 || e22.HotShare > 0.9 || e22.Reduction < 20 || e22.HotCentral != 8000 {
		t.Errorf("E22: hot share %.3f, reduction %.1f, central calls %d", e22.HotShare, e22.Reduction, e22.HotCentral)
	}
	for w, n := range e22.PrefetchAdmitted {
		if n > int64(e22.Config.Limit) {
			t.Errorf("E22: prefetch admitted %d in window %d, over the limit %d", n, w, e22.Config.Limit)
		}
	}
	if sc := e22.Split.Cases[0]; sc.Split != 55 || sc.Single != 100 {
		t.Errorf("E22 split key: %+v, want 55 split, 100 single", sc)
	}
	if rep.E23Skipped == "" {
		if len(rep.E23) != 3 {
			t.Fatalf("E23: %d runs, want 3", len(rep.E23))
		}
		none, mr, wait := rep.E23[0], rep.E23[1], rep.E23[2]
		if none.Mitigation != cluster.MitigationNone || none.Forgotten <= 0 || none.OverAdmitted != int(none.Forgotten) {
			t.Errorf("E23 as shipped: %+v", none)
		}
		if mr.LagRefused <= 0 || mr.OverAdmitted != int(mr.Forgotten) || mr.OverAdmitted >= none.OverAdmitted {
			t.Errorf("E23 min-replicas-to-write: %+v", mr)
		}
		if wait.OverAdmitted != 0 || wait.LagAdmitted != 0 || wait.WaitP50 <= 0 {
			t.Errorf("E23 WAIT: %+v", wait)
		}
	}
	m := rep.Migration
	if m.Errors != 0 || m.AdmittedFW != int64(m.Config.Limit) || m.CountOnTo != m.Sent || m.Asking <= 0 {
		t.Errorf("slot migration: %+v", m)
	}

	// The text report of the same figures.
	var text bytes.Buffer
	writeE21(&text, e21)
	writeE22(&text, e22)
	writeE23(&text, cluster.DefaultFailover(""), rep.E23, rep.E23Skipped)
	writeMigration(&text, m)
	for _, want := range []string{"CROSSSLOT", "10000 identities", "hot", "x fewer",
		"70/10/10/10", "E23 failover", "moving a slot", "0 errors"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line longer than 100 columns: %q", line)
		}
	}
	t.Log("\n" + text.String())
}
