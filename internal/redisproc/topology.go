package redisproc

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Node is one node as CLUSTER NODES describes it.
type Node struct {
	ID        string
	Addr      string // host:port
	Primary   bool
	PrimaryID string   // a replica's primary
	Slots     [][2]int // a primary's slot ranges, inclusive
	Failed    bool     // flagged fail or fail? by the node asked
}

// Owns reports whether the node serves slot.
func (n Node) Owns(slot int) bool {
	for _, r := range n.Slots {
		if slot >= r[0] && slot <= r[1] {
			return true
		}
	}
	return false
}

// SlotCount is how many slots the node serves.
func (n Node) SlotCount() int {
	s := 0
	for _, r := range n.Slots {
		s += r[1] - r[0] + 1
	}
	return s
}

// Topology is the cluster as one node sees it, primaries first, each group
// ordered by address.
type Topology []Node

// Primaries returns the nodes that serve slots.
func (t Topology) Primaries() []Node {
	var p []Node
	for _, n := range t {
		if n.Primary && len(n.Slots) > 0 {
			p = append(p, n)
		}
	}
	return p
}

// Owner returns the primary serving slot.
func (t Topology) Owner(slot int) (Node, bool) {
	for _, n := range t.Primaries() {
		if n.Owns(slot) {
			return n, true
		}
	}
	return Node{}, false
}

// ReplicaOf returns a live replica of the primary with the given id.
func (t Topology) ReplicaOf(id string) (Node, bool) {
	for _, n := range t {
		if !n.Primary && n.PrimaryID == id && !n.Failed {
			return n, true
		}
	}
	return Node{}, false
}

// ReadTopology asks the node at addr for CLUSTER NODES.
func ReadTopology(ctx context.Context, addr string) (Topology, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		return nil, err
	}
	return ParseClusterNodes(text)
}

// ReadTopologyAny reads the topology from the first of addrs that answers
// (a failover experiment kills some of them).
func ReadTopologyAny(ctx context.Context, addrs []string) (Topology, error) {
	lastErr := fmt.Errorf("no address to read the topology from")
	for _, a := range addrs {
		t, err := ReadTopology(ctx, a)
		if err == nil {
			return t, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// ParseClusterNodes reads lines "id host:port@cport flags primary ping pong
// epoch link slot...".
func ParseClusterNodes(text string) (Topology, error) {
	var t Topology
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 {
			return nil, fmt.Errorf("CLUSTER NODES line %q: want at least 8 fields", line)
		}
		addr, _, _ := strings.Cut(f[1], "@")
		flags := "," + f[2] + ","
		n := Node{ID: f[0], Addr: addr, Primary: strings.Contains(flags, ",master,"),
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

// WaitClusterOK waits up to limit until every node of addrs answers with
// cluster_state:ok and flags no node as failing: a cluster just started, or
// a node back from a freeze or a restart, refuses with CLUSTERDOWN for a
// moment.
func WaitClusterOK(ctx context.Context, addrs []string, limit time.Duration) error {
	nodes := NodeClients(addrs...)
	defer CloseAll(nodes)
	return Poll(ctx, limit, "cluster_state:ok on every node", func() (bool, error) {
		for _, n := range nodes {
			info, err := n.ClusterInfo(ctx).Result()
			if err != nil {
				return false, nil // not answering yet
			}
			if v, _ := InfoField(info, "cluster_state"); v != "ok" {
				return false, nil
			}
			t, err := ReadTopology(ctx, n.Options().Addr)
			if err != nil {
				return false, nil
			}
			for _, x := range t {
				if x.Failed {
					return false, nil
				}
			}
		}
		return true, nil
	})
}

// NodeClients opens one plain client per address, for the commands that
// must reach one node (INFO, CONFIG, CLUSTER SETSLOT, WAIT); close them with
// CloseAll.
func NodeClients(addrs ...string) map[string]*redis.Client {
	m := map[string]*redis.Client{}
	for _, a := range addrs {
		m[a] = redis.NewClient(&redis.Options{Addr: a, MaxRetries: -1})
	}
	return m
}

// CloseAll closes every client of m.
func CloseAll(m map[string]*redis.Client) {
	for _, c := range m {
		_ = c.Close()
	}
}
