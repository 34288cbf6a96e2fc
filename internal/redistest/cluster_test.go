//go:build linux

package redistest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestClusterShape: three primaries own all 16384 slots, a third each, and
// each has one replica; a ClusterClient reaches every slot.
func TestClusterShape(t *testing.T) {
	start := time.Now()
	c := redistest.NewCluster(t)
	t.Logf("cluster from %s in %v: %v", c.How, time.Since(start).Round(time.Millisecond), c.Addrs)
	ctx := context.Background()
	cc := c.Client(t)
	shards, err := cc.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	slots, primaries := 0, 0
	for _, s := range shards {
		var roles []string
		for _, n := range s.Nodes {
			roles = append(roles, n.Role)
		}
		for _, r := range s.Slots {
			slots += int(r.End - r.Start + 1)
		}
		if len(s.Slots) > 0 {
			primaries++
			if len(s.Nodes) != 2 {
				t.Errorf("shard with slots %v has nodes %v, want a primary and a replica", s.Slots, roles)
			}
		}
	}
	if slots != 16384 || (c.Owned() && primaries != 3) {
		t.Fatalf("%d slots over %d primaries, want 16384 over 3", slots, primaries)
	}
	// 100 keys without a shared tag land on every primary.
	for i := 0; i < 100; i++ {
		k := fmt.Sprintf("redistest:shape:%d:%d", time.Now().UnixNano(), i)
		if err := cc.Set(ctx, k, i, time.Minute).Err(); err != nil {
			t.Fatalf("SET %s: %v", k, err)
		}
		if got, err := cc.Get(ctx, k).Int(); err != nil || got != i {
			t.Fatalf("GET %s = %d, %v; want %d", k, got, err, i)
		}
	}
}

// TestClusterNodeLifecycle: a paused replica stops answering and answers
// again after Resume; a killed one comes back with Restart and rejoins its
// primary from its nodes.conf.
func TestClusterNodeLifecycle(t *testing.T) {
	c := redistest.NewCluster(t)
	if !c.Owned() {
		t.Skip("REDIS_CLUSTER_ADDRS: the cluster's processes are not ours to pause or kill")
	}
	ctx := context.Background()
	replica := c.Addrs[5] // node i+3 replicates node i
	linkUp := func() bool {
		r := redis.NewClient(&redis.Options{Addr: replica, MaxRetries: -1})
		defer r.Close()
		info, err := r.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up")
	}
	on := func(do func(string) error) func() error { return func() error { return do(replica) } }
	checkLifecycle(t, replica, []lifecycleStep{
		{"paused", on(c.Pause), false},
		{"resumed", on(c.Resume), true},
		{"killed", on(c.Kill), false},
		{"restarted", on(c.Restart), true},
	})
	deadline := time.Now().Add(20 * time.Second)
	for !linkUp() {
		if time.Now().After(deadline) {
			t.Fatal("restarted replica never resynchronised with its primary")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := c.Restart(replica); err == nil {
		t.Fatal("Restart of a running node succeeded")
	}
}
