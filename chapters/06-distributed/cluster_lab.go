package distributed

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Part 3 runs the chapter on a Redis Cluster: 16384 slots split over
// primaries, each primary with a replica it feeds asynchronously. The files
// cluster_*.go measure what that changes (E21–E23 and a slot migration); this
// one holds what they share: the slot function, the topology as the nodes
// report it, and the handles a test gives the experiments.

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
// by node address (internal/redistest's Cluster is one). E23 needs it; a
// cluster that is someone else's has none.
type NodeControl interface {
	Pause(addr string) error   // freeze the process (SIGSTOP)
	Resume(addr string) error  // undo Pause
	Kill(addr string) error    // kill it at once
	Restart(addr string) error // start a killed node again from its nodes.conf
}

// ClusterNode is one node as CLUSTER NODES describes it.
type ClusterNode struct {
	ID        string
	Addr      string // host:port
	Primary   bool
	PrimaryID string   // a replica's primary
	Slots     [][2]int // a primary's slot ranges, inclusive
	Failed    bool     // flagged fail or fail? by the node asked
}

// Owns reports whether the node serves slot.
func (n ClusterNode) Owns(slot int) bool {
	for _, r := range n.Slots {
		if slot >= r[0] && slot <= r[1] {
			return true
		}
	}
	return false
}

// SlotCount is how many slots the node serves.
func (n ClusterNode) SlotCount() int {
	s := 0
	for _, r := range n.Slots {
		s += r[1] - r[0] + 1
	}
	return s
}

// Topology is the cluster as one node sees it, primaries first, each group
// ordered by address.
type Topology []ClusterNode

// Primaries returns the nodes that serve slots.
func (t Topology) Primaries() []ClusterNode {
	var p []ClusterNode
	for _, n := range t {
		if n.Primary && len(n.Slots) > 0 {
			p = append(p, n)
		}
	}
	return p
}

// Owner returns the primary serving slot.
func (t Topology) Owner(slot int) (ClusterNode, bool) {
	for _, n := range t.Primaries() {
		if n.Owns(slot) {
			return n, true
		}
	}
	return ClusterNode{}, false
}

// ReplicaOf returns a live replica of the primary with the given id.
func (t Topology) ReplicaOf(id string) (ClusterNode, bool) {
	for _, n := range t {
		if !n.Primary && n.PrimaryID == id && !n.Failed {
			return n, true
		}
	}
	return ClusterNode{}, false
}

// ReadTopology asks the node at addr for CLUSTER NODES.
func ReadTopology(ctx context.Context, addr string) (Topology, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		return nil, err
	}
	return parseClusterNodes(text)
}

// parseClusterNodes reads lines "id host:port@cport flags primary ping pong
// epoch link slot...".
func parseClusterNodes(text string) (Topology, error) {
	var t Topology
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 {
			return nil, fmt.Errorf("CLUSTER NODES line %q: want at least 8 fields", line)
		}
		addr, _, _ := strings.Cut(f[1], "@")
		flags := "," + f[2] + ","
		n := ClusterNode{ID: f[0], Addr: addr, Primary: strings.Contains(flags, ",master,"),
			Failed: strings.Contains(flags, ",fail,") || strings.Contains(flags, ",fail?,")}
		if f[3] != "-" {
			n.PrimaryID = f[3]
		}
		for _, s := range f[8:] {
			if strings.HasPrefix(s, "[") { // a slot being migrated: [slot->-id] or [slot-<-id]
				continue
			}
			lo, hi, isRange := strings.Cut(s, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("CLUSTER NODES slot %q", s)
			}
			n.Slots = append(n.Slots, [2]int{a, b})
		}
		t = append(t, n)
	}
	sort.SliceStable(t, func(i, j int) bool {
		if t[i].Primary != t[j].Primary {
			return t[i].Primary
		}
		return t[i].Addr < t[j].Addr
	})
	return t, nil
}

// nodeClients opens one plain client per address, for the commands that
// must reach one node (INFO, CONFIG, CLUSTER SETSLOT, WAIT); close them with
// closeAll.
func nodeClients(addrs ...string) map[string]*redis.Client {
	m := map[string]*redis.Client{}
	for _, a := range addrs {
		m[a] = redis.NewClient(&redis.Options{Addr: a, MaxRetries: -1})
	}
	return m
}

func closeAll(m map[string]*redis.Client) {
	for _, c := range m {
		_ = c.Close()
	}
}

// infoField reads "name:value" from an INFO section; ok is false if absent.
func infoField(info, name string) (string, bool) {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v, true
		}
	}
	return "", false
}

// statCount reads one counter out of an INFO commandstats or errorstats
// line: statCount(info, "cmdstat_evalsha", "calls"), or
// statCount(info, "errorstat_MOVED", "count"). Absent means 0.
func statCount(info, line, field string) int64 {
	v, ok := infoField(info, line)
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

// scriptCalls is how many scripts the node ran since its last CONFIG
// RESETSTAT (EVALSHA and EVAL).
func scriptCalls(ctx context.Context, c *redis.Client) (int64, error) {
	info, err := c.Info(ctx, "commandstats").Result()
	if err != nil {
		return 0, err
	}
	return statCount(info, "cmdstat_evalsha", "calls") + statCount(info, "cmdstat_eval", "calls"), nil
}

// loadScripts loads every part 1 script and the borrow script on every
// primary, so that a counted run sends EVALSHA only (no NOSCRIPT round).
func loadScripts(ctx context.Context, cc *redis.ClusterClient) error {
	return cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		for _, s := range []*redis.Script{fixedWindowScript, fixedWindowTTLScript, slidingLogScript,
			slidingCounterScript, tokenBucketScript, gcraScript, borrowScript} {
			if err := s.Load(ctx, c).Err(); err != nil {
				return err
			}
		}
		return nil
	})
}
