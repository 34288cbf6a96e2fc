package redisproc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// InfoField reads "name:value" from an INFO section; ok is false if absent.
func InfoField(info, name string) (string, bool) {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v, true
		}
	}
	return "", false
}

// StatCount reads one counter out of an INFO commandstats or errorstats
// line: StatCount(info, "cmdstat_evalsha", "calls"), or
// StatCount(info, "errorstat_MOVED", "count"). Absent means 0.
func StatCount(info, line, field string) int64 {
	v, ok := InfoField(info, line)
	if !ok {
		return 0
	}
	for _, kv := range strings.Split(v, ",") {
		if n, ok := strings.CutPrefix(kv, field+"="); ok {
			x, _ := strconv.ParseInt(n, 10, 64)
			return x
		}
	}
	return 0
}

// Calls is how many times the node ran each of the commands named (INFO
// commandstats, lower case: "evalsha") since its last CONFIG RESETSTAT.
func Calls(ctx context.Context, c *redis.Client, commands ...string) (int64, error) {
	info, err := c.Info(ctx, "commandstats").Result()
	if err != nil {
		return 0, err
	}
	var n int64
	for _, cmd := range commands {
		n += StatCount(info, "cmdstat_"+cmd, "calls")
	}
	return n, nil
}

// ConfigSet sets each name, value pair of kv on c.
func ConfigSet(ctx context.Context, c *redis.Client, kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if err := c.ConfigSet(ctx, kv[i], kv[i+1]).Err(); err != nil {
			return fmt.Errorf("CONFIG SET %s %s on %s: %w", kv[i], kv[i+1], c.Options().Addr, err)
		}
	}
	return nil
}

// ReplicaOffset is the offset the primary's first replica acknowledged
// (INFO replication "slave0:ip=…,port=…,state=online,offset=N,lag=0"), or
// -1 when it has no replica online.
func ReplicaOffset(info string) int64 {
	v, ok := InfoField(info, "slave0")
	if !ok || !strings.Contains(v, "state=online") {
		return -1
	}
	for _, kv := range strings.Split(v, ",") {
		if n, ok := strings.CutPrefix(kv, "offset="); ok {
			x, _ := strconv.ParseInt(n, 10, 64)
			return x
		}
	}
	return -1
}

// WaitReplicated waits until the primary pc's replica has acknowledged
// every write pc has made so far.
func WaitReplicated(ctx context.Context, pc *redis.Client) error {
	info, err := pc.Info(ctx, "replication").Result()
	if err != nil {
		return err
	}
	want, _ := InfoField(info, "master_repl_offset")
	target, _ := strconv.ParseInt(want, 10, 64)
	return Poll(ctx, 10*time.Second, "the replica to catch up", func() (bool, error) {
		info, err := pc.Info(ctx, "replication").Result()
		return ReplicaOffset(info) >= target, err
	})
}

// WaitReplicaUp waits until the replica rc is in sync with the primary pc.
func WaitReplicaUp(ctx context.Context, pc, rc *redis.Client) error {
	return Poll(ctx, 30*time.Second, "the replica "+rc.Options().Addr+" to be in sync", func() (bool, error) {
		info, err := rc.Info(ctx, "replication").Result()
		if err != nil {
			return false, nil // a node back from a restart, not answering yet
		}
		link, _ := InfoField(info, "master_link_status")
		syncing, _ := InfoField(info, "master_sync_in_progress")
		pinfo, err := pc.Info(ctx, "replication").Result()
		return link == "up" && syncing == "0" && err == nil && ReplicaOffset(pinfo) >= 0, nil
	})
}

// AckTime times rounds writes of key on the primary pc, each followed by
// WAIT 1 on the same connection, and returns the slowest: how far behind a
// healthy replica is on this machine now.
func AckTime(ctx context.Context, pc *redis.Client, key string, rounds int) (time.Duration, error) {
	var slowest time.Duration
	for i := 0; i < rounds; i++ {
		start := time.Now()
		pipe := pc.Pipeline()
		pipe.Set(ctx, key, i, time.Minute)
		acks := redis.NewIntCmd(ctx, "wait", 1, 10000)
		_ = pipe.Process(ctx, acks)
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, fmt.Errorf("timing the replica: %w", err)
		}
		if acks.Val() < 1 {
			return 0, errors.New("timing the replica: it acknowledged nothing within 10s")
		}
		slowest = max(slowest, time.Since(start))
	}
	return slowest, nil
}

// Takeover makes the replica rc take over its dead primary's slots (CLUSTER
// FAILOVER TAKEOVER) once it sees that primary gone, then waits until every
// node of cc but the dead one, and cc itself, route key's slot to it.
func Takeover(ctx context.Context, cc *redis.ClusterClient, rc *redis.Client, dead, key string) error {
	raddr := rc.Options().Addr
	if err := Poll(ctx, 10*time.Second, "the replica to see its primary gone", func() (bool, error) {
		info, err := rc.Info(ctx, "replication").Result()
		v, _ := InfoField(info, "master_link_status")
		return v == "down", err
	}); err != nil {
		return err
	}
	slot, err := rc.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		return err
	}
	if err := rc.Do(ctx, "CLUSTER", "FAILOVER", "TAKEOVER").Err(); err != nil && !strings.Contains(err.Error(), "replica") {
		return fmt.Errorf("CLUSTER FAILOVER TAKEOVER: %w", err)
	}
	if err := Poll(ctx, 20*time.Second, "every node to route the slot to the new primary", func() (bool, error) {
		for _, a := range cc.Options().Addrs {
			if a == dead {
				continue
			}
			t, err := ReadTopology(ctx, a)
			if err != nil {
				return false, nil // a node not answering yet
			}
			if o, ok := t.Owner(int(slot)); !ok || o.Addr != raddr {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return err
	}
	// The client reloads its slot map in the background from a node it
	// picks at random, the dead one among them; on a loaded machine that
	// once took more than 10 s.
	return Poll(ctx, 30*time.Second, "the client to route the slot to the new primary", func() (bool, error) {
		cc.ReloadState(ctx)
		n, err := cc.MasterForKey(ctx, key)
		return err == nil && n.Options().Addr == raddr, nil
	})
}
