package service

import (
	"context"
	"errors"
	"sort"
	"sync"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// memoryNode names the in-memory store, its one node, in the logs and in
// ratelimit_store_up.
const memoryNode = "memory"

// unknownNode names the node of a key whose cluster slot table could not
// be read.
const unknownNode = "unknown"

// storeNode is one node of the store as the health check sees it: its
// address and a ping.
type storeNode struct {
	addr string
	ping func(context.Context) error
}

// nodeOf names the store node that holds key's count under c: on a Redis
// Cluster, the master serving the key's hash slot, as go-redis's slot
// table says (no round trip); otherwise the store's one node.
func (s *Service) nodeOf(ctx context.Context, c store.Counter, key string) string {
	rs, ok := s.st.(*redisStore)
	if !ok {
		return memoryNode
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

// storeNodes are the nodes the health check pings: every master of a
// cluster (as the cluster says now: a promoted replica replaces a failed
// master), the one Redis, or the in-memory store behind its Outage switch.
func (s *Service) storeNodes(ctx context.Context) []storeNode {
	rs, ok := s.st.(*redisStore)
	if !ok {
		return []storeNode{{addr: memoryNode, ping: func(context.Context) error {
			if store.OutageOf(s.st).Down() {
				return store.ErrDown
			}
			return nil
		}}}
	}
	cc, cluster := rs.client.(*redis.ClusterClient)
	if !cluster {
		return []storeNode{{addr: rs.soleNode(), ping: func(ctx context.Context) error { return rs.client.Ping(ctx).Err() }}}
	}
	// ForEachMaster reads the slot table again from one node, picked at
	// random: a frozen one would hold the round for the client's read
	// timeout, and then the table it had is used.
	rctx, cancel := context.WithTimeout(ctx, s.o.StorePatience)
	defer cancel()
	var mu sync.Mutex
	var out []storeNode
	err := cc.ForEachMaster(rctx, func(_ context.Context, c *redis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, storeNode{addr: c.Options().Addr, ping: func(ctx context.Context) error { return c.Ping(ctx).Err() }})
		return nil
	})
	if len(out) == 0 { // no slot table at all: the cluster is down
		if err == nil {
			err = errors.New("Redis Cluster: no master serves a slot")
		}
		return []storeNode{{addr: unknownNode, ping: func(context.Context) error { return err }}}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// soleNode is the address of a store of one node.
func (s *redisStore) soleNode() string {
	if c, ok := s.client.(*redis.Client); ok {
		return c.Options().Addr
	}
	return s.where
}
