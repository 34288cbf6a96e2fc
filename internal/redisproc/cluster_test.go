package redisproc

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// TestClusterCloseWhileInUse: Close may run while another goroutine still
// asks the cluster whether it is owned and pauses and resumes its nodes
// (the app's screen tears the cluster down from its UI goroutine while the
// run's goroutine goes on). Under -race this once reported a data race on
// the node table; after Close every control says the cluster is closed.
func TestClusterCloseWhileInUse(t *testing.T) {
	testenv.NeedsProcesses(t)
	t.Setenv("REDIS_CLUSTER_ADDRS", "")
	c, err := OpenCluster(context.Background())
	if err == ErrNoCluster && os.Getenv("REQUIRE_REDIS") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	replica := c.Addrs[5]
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if !c.Owned() {
				t.Error("a cluster started here is not owned")
				return
			}
			_ = c.Pause(replica)
			_ = c.Resume(replica)
		}
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	for name, do := range map[string]func(string) error{"Pause": c.Pause, "Kill": c.Kill, "Restart": c.Restart} {
		if err := do(replica); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("%s after Close: %v, want an error saying the cluster is closed", name, err)
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestParseClusterNodes reads primaries with slot ranges (and a slot being
// migrated), a replica and a failing node.
func TestParseClusterNodes(t *testing.T) {
	text := `a1 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460 [5461->-b2]
b2 127.0.0.1:7002@17002 master - 0 0 2 connected 5461-10922 16000
c3 127.0.0.1:7003@17003 slave,fail a1 0 0 1 disconnected
d4 127.0.0.1:7004@17004 slave a1 0 0 1 connected`
	top, err := ParseClusterNodes(text)
	if err != nil {
		t.Fatal(err)
	}
	if p := top.Primaries(); len(p) != 2 || p[0].Addr != "127.0.0.1:7001" || p[0].SlotCount() != 5461 || p[1].SlotCount() != 5463 {
		t.Fatalf("primaries %+v", p)
	}
	if o, ok := top.Owner(16000); !ok || o.ID != "b2" {
		t.Errorf("owner of 16000: %+v, %v", o, ok)
	}
	if _, ok := top.Owner(16001); ok {
		t.Error("slot 16001 has an owner")
	}
	if r, ok := top.ReplicaOf("a1"); !ok || r.ID != "d4" {
		t.Errorf("live replica of a1: %+v, %v; want d4 (c3 is failing)", r, ok)
	}
	if _, err := ParseClusterNodes("a1 127.0.0.1:7001 master"); err == nil {
		t.Error("a short line parsed")
	}
}
