// Package cluster is chapter 06's part 3: the chapter's limiters on a Redis
// Cluster, 16384 slots split over primaries, each primary with a replica it
// feeds asynchronously. It measures what that changes: hash tags keep an
// identity's keys in one slot (E21), a hot identity stays on one primary
// (E22), a failover forgets the writes the replica never got (E23), and a
// slot moves under traffic without a failed decision. The limiters are the
// parent package's, unchanged: a *redis.ClusterClient is a redis.Scripter.
// The processes, CONFIG SET, TAKEOVER and INFO parsing live in
// internal/redisproc; this package holds the lesson.
package cluster

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// KeySlot is the slot Redis Cluster gives key: CRC16 (XMODEM) of its hash
// tag, mod 16384. The tag is the text between the first "{" and the next
// "}", if that text is not empty; otherwise the whole key.
func KeySlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for k := 0; k < len(key); k++ {
		crc ^= uint16(key[k]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}

// NodeControl stops and starts the processes of a cluster the caller owns,
// by node address (internal/redisproc's Cluster is one). The failover needs
// it; a cluster that is someone else's has none.
type NodeControl interface {
	Pause(addr string) error   // freeze the process (SIGSTOP)
	Resume(addr string) error  // undo Pause
	Kill(addr string) error    // kill it at once
	Restart(addr string) error // start a killed node again from its nodes.conf
}

// topology reads the cluster behind cc from the first of its seeds that
// answers (the failover kills some of them).
func topology(ctx context.Context, cc *redis.ClusterClient) (redisproc.Topology, error) {
	return redisproc.ReadTopologyAny(ctx, cc.Options().Addrs)
}

// seedAddr is the first address the client was given.
func seedAddr(cc *redis.ClusterClient) string { return cc.Options().Addrs[0] }
