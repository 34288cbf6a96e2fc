package store

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// MemoryNode names the in-memory store, its one node, in the logs and in
// ratelimit_store_up.
const MemoryNode = "memory"

// unknownNode names the node of a key whose cluster slot table could not
// be read.
const unknownNode = "unknown"

// Node is one node of a store as the health check sees it: its address
// and a ping.
type Node struct {
	Addr string
	Ping func(context.Context) error
}

// NodeOf names the node of st that holds key's count under c: on a Redis
// Cluster, the master serving the key's hash slot, as go-redis's slot
// table says (no round trip); otherwise the store's one node.
func NodeOf(ctx context.Context, st Store, c Counter, key string) string {
	rs, ok := st.(*redisStore)
	if !ok {
		return MemoryNode
	}
	cc, cluster := rs.client.(*redis.ClusterClient)
	rc, isRedis := c.(redisCounter)
	if !cluster || !isRedis {
		return rs.soleNode()
	}
	// The limiter's keys carry the identity as their hash tag: any of
	// them names the slot.
	master, err := cc.MasterForKey(ctx, distributed.Key(redisID(rc.unit+key), ""))
	if err != nil {
		return unknownNode
	}
	return master.Options().Addr
}

// Nodes are the nodes of st the health check pings: every master of a
// cluster (as the cluster says now: a promoted replica replaces a failed
// master; read within patience), the one Redis, or the in-memory store
// behind its Outage switch.
func Nodes(ctx context.Context, st Store, patience time.Duration) []Node {
	rs, ok := st.(*redisStore)
	if !ok {
		return []Node{{Addr: MemoryNode, Ping: func(context.Context) error {
			if OutageOf(st).Down() {
				return ErrDown
			}
			return nil
		}}}
	}
	cc, cluster := rs.client.(*redis.ClusterClient)
	if !cluster {
		return []Node{{Addr: rs.soleNode(), Ping: func(ctx context.Context) error { return rs.client.Ping(ctx).Err() }}}
	}
	// ForEachMaster reads the slot table again from one node, picked at
	// random: a frozen one would hold the round for the client's read
	// timeout, and then the table it had is used.
	rctx, cancel := context.WithTimeout(ctx, patience)
	defer cancel()
	var mu sync.Mutex
	var out []Node
	err := cc.ForEachMaster(rctx, func(_ context.Context, c *redis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, Node{Addr: c.Options().Addr, Ping: func(ctx context.Context) error { return c.Ping(ctx).Err() }})
		return nil
	})
	if len(out) == 0 { // no slot table at all: the cluster is down
		if err == nil {
			err = errors.New("no master of the Redis Cluster serves a slot")
		}
		return []Node{{Addr: unknownNode, Ping: func(context.Context) error { return err }}}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

// soleNode is the address of a store of one node.
func (s *redisStore) soleNode() string {
	if c, ok := s.client.(*redis.Client); ok {
		return c.Options().Addr
	}
	return s.where
}
