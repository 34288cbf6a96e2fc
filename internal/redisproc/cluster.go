package redisproc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNoCluster is returned by OpenCluster when REDIS_CLUSTER_ADDRS is unset
// and no redis-server is on PATH.
var ErrNoCluster = errors.New("no redis-server on PATH and REDIS_CLUSTER_ADDRS unset: " +
	"install redis-server (" + InstallHint + ") or point REDIS_CLUSTER_ADDRS at a cluster")

// NodeTimeout is the cluster-node-timeout of a cluster started here: short,
// so that a stopped node is flagged and a failover settles in seconds.
const NodeTimeout = 2 * time.Second

// Cluster is a Redis Cluster of three primaries, each with one replica. One
// started here is six redis-server processes on loopback ports, persistence
// off, each in its own directory (its nodes.conf survives Kill, so Restart
// brings the same node back); they are killed on Close and, through the
// parent-death signal, if this process dies first. With REDIS_CLUSTER_ADDRS
// the cluster is someone else's: Owned is false and the process controls
// return an error.
type Cluster struct {
	How   string   // which path gave it, for logs
	Addrs []string // every node at the start, as seeds for a ClusterClient

	path   string
	dir    string
	owned  bool // set once, before the cluster is handed out
	mu     sync.Mutex
	closed bool
	nodes  map[string]*clusterNode // by address; nil when not owned
}

type clusterNode struct {
	port int
	dir  string
	p    *Proc // nil while killed
}

// Owned reports whether this package started the cluster's processes (and
// so may pause, kill and restart them).
func (c *Cluster) Owned() bool { return c.owned }

// Options returns ClusterClient options seeded with every node.
func (c *Cluster) Options() *redis.ClusterOptions {
	return &redis.ClusterOptions{Addrs: append([]string(nil), c.Addrs...)}
}

// OpenCluster returns the cluster named by REDIS_CLUSTER_ADDRS
// (comma-separated host:port, checked with WaitClusterOK) or starts one from
// redis-server on PATH (ErrNoCluster if there is none); the caller closes
// it. It gives up when ctx ends.
func OpenCluster(ctx context.Context) (*Cluster, error) {
	if env := os.Getenv("REDIS_CLUSTER_ADDRS"); env != "" {
		addrs := strings.Split(env, ",")
		for i := range addrs {
			addrs[i] = strings.TrimSpace(addrs[i])
		}
		if err := WaitClusterOK(ctx, addrs, 10*time.Second); err != nil {
			return nil, fmt.Errorf("REDIS_CLUSTER_ADDRS=%s: %w", env, err)
		}
		return &Cluster{How: "REDIS_CLUSTER_ADDRS", Addrs: addrs}, nil
	}
	path, err := LookPath()
	if err != nil {
		return nil, ErrNoCluster
	}
	var lastErr error
	for attempt := 0; attempt < 3 && ctx.Err() == nil; attempt++ { // a free port may be taken before the node binds it
		c, err := startCluster(ctx, path)
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	if lastErr == nil {
		lastErr = ctx.Err()
	}
	return nil, lastErr
}

// Close kills every process of an owned cluster and removes its files. It
// may run while another goroutine still uses the cluster: the controls
// then return an error.
func (c *Cluster) Close() error {
	if !c.owned {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	for _, n := range c.nodes {
		if n.p != nil {
			n.p.Kill()
			n.p = nil
		}
	}
	return os.RemoveAll(c.dir)
}

// notOurs is the error of a control on a cluster this package did not
// start, or one already closed; the caller holds c.mu.
func (c *Cluster) notOurs() error {
	switch {
	case !c.owned:
		return fmt.Errorf("redisproc: cluster from %s: its processes are not ours to control", c.How)
	case c.closed:
		return errors.New("redisproc: the cluster is closed")
	}
	return nil
}

// running returns the process of the node at addr; the caller holds c.mu.
func (c *Cluster) running(addr string) (*Proc, error) {
	if err := c.notOurs(); err != nil {
		return nil, err
	}
	n, ok := c.nodes[addr]
	if !ok {
		return nil, fmt.Errorf("redisproc: no node %s in this cluster", addr)
	}
	if n.p == nil {
		return nil, fmt.Errorf("redisproc: node %s is not running", addr)
	}
	return n.p, nil
}

func (c *Cluster) with(addr string, do func(*Proc) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.running(addr)
	if err != nil {
		return err
	}
	return do(p)
}

// Pause freezes the node at addr (SIGSTOP): its connections stay open, it
// answers nothing and reads nothing, its primary's stream piles up.
func (c *Cluster) Pause(addr string) error { return c.with(addr, (*Proc).Pause) }

// Resume undoes Pause (SIGCONT).
func (c *Cluster) Resume(addr string) error { return c.with(addr, (*Proc).Resume) }

// Kill stops the node at addr at once (SIGKILL) and waits until it is gone.
func (c *Cluster) Kill(addr string) error {
	return c.with(addr, func(p *Proc) error {
		p.Kill()
		c.nodes[addr].p = nil
		return nil
	})
}

// Restart starts a killed node again on its port, from its nodes.conf: it
// rejoins the cluster as the node it was (a primary that was replaced comes
// back as a replica of its successor) with an empty dataset.
func (c *Cluster) Restart(addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.notOurs(); err != nil {
		return err
	}
	n, ok := c.nodes[addr]
	if !ok || n.p != nil {
		return fmt.Errorf("redisproc: node %s is unknown or still running", addr)
	}
	p, err := spawnNode(context.Background(), c.path, n.port, n.dir)
	if err != nil {
		return err
	}
	n.p = p
	return nil
}

// startCluster starts six nodes, gives the first three a third of the slots
// each, introduces them, makes node i+3 the replica of node i, and waits
// until every node reports the cluster healthy and every replica in sync.
func startCluster(ctx context.Context, path string) (c *Cluster, err error) {
	dir, err := os.MkdirTemp("", "redisproc-cluster-")
	if err != nil {
		return nil, err
	}
	c = &Cluster{How: "redis-server cluster " + path, path: path, dir: dir, owned: true, nodes: map[string]*clusterNode{}}
	started := c // the returns below set c to nil before this runs
	defer func() {
		if err != nil {
			_ = started.Close()
		}
	}()
	ports, err := clusterPorts(6)
	if err != nil {
		return nil, err
	}
	if err := c.spawnNodes(ctx, ports); err != nil {
		return nil, err
	}
	admin := NodeClients(c.Addrs...)
	defer CloseAll(admin)
	ids, err := nodeIDs(ctx, admin, c.Addrs)
	if err != nil {
		return nil, err
	}
	if err := assignSlots(ctx, admin, c.Addrs[:3]); err != nil {
		return nil, err
	}
	if err := meetAll(ctx, admin, c.Addrs, ports); err != nil {
		return nil, err
	}
	if err := attachReplicas(ctx, admin, c.Addrs, ids); err != nil {
		return nil, err
	}
	if err := waitHealthy(ctx, admin, c.Addrs); err != nil {
		return nil, err
	}
	return c, nil
}

// spawnNodes starts one node per port at once, each in its own directory
// under c.dir, and records every address in c.Addrs; a node that started is
// recorded in c.nodes too, so that Close stops it if a later step fails.
func (c *Cluster) spawnNodes(ctx context.Context, ports []int) error {
	nodes := make([]*clusterNode, len(ports))
	errs := make([]error, len(ports))
	var wg sync.WaitGroup
	for i, port := range ports { // every directory first: a failure here leaves no node running
		nodes[i] = &clusterNode{port: port, dir: filepath.Join(c.dir, strconv.Itoa(port))}
		if err := os.Mkdir(nodes[i].dir, 0o755); err != nil {
			return err
		}
	}
	for i, n := range nodes {
		wg.Add(1)
		go func() { defer wg.Done(); n.p, errs[i] = spawnNode(ctx, c.path, n.port, n.dir) }()
	}
	wg.Wait()
	for i, n := range nodes {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port))
		if errs[i] == nil {
			c.nodes[addr] = n // Close stops it
		}
		c.Addrs = append(c.Addrs, addr)
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

// nodeIDs asks each node for its cluster ID, in the order of addrs.
func nodeIDs(ctx context.Context, admin map[string]*redis.Client, addrs []string) ([]string, error) {
	ids := make([]string, len(addrs))
	for i, a := range addrs {
		var err error
		if ids[i], err = admin[a].ClusterMyID(ctx).Result(); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// assignSlots splits the 16384 slots among the primaries as redis-cli
// --cluster create does (0-5460, 5461-10922, 10923-16383 for three) and
// gives each its own config epoch.
func assignSlots(ctx context.Context, admin map[string]*redis.Client, primaries []string) error {
	for i, addr := range primaries {
		lo, hi := i*16384/3, (i+1)*16384/3-1
		if i == 2 {
			hi = 16383
		}
		a := admin[addr]
		if err := a.ClusterAddSlotsRange(ctx, lo, hi).Err(); err != nil {
			return fmt.Errorf("ADDSLOTSRANGE %d %d: %w", lo, hi, err)
		}
		// Distinct epochs spare the cluster its epoch-collision round.
		if err := a.Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err(); err != nil {
			return err
		}
	}
	return nil
}

// meetAll introduces every pair of nodes directly (waiting for gossip to
// spread the news from one node takes a second or more) and waits until
// each node knows the other five, with no handshake left.
func meetAll(ctx context.Context, admin map[string]*redis.Client, addrs []string, ports []int) error {
	for i, a := range addrs {
		for _, port := range ports[i+1:] {
			if err := admin[a].ClusterMeet(ctx, "127.0.0.1", strconv.Itoa(port)).Err(); err != nil {
				return err
			}
		}
	}
	return Poll(ctx, 20*time.Second, "every node to know the other five", func() (bool, error) {
		for _, a := range admin {
			v, err := a.ClusterNodes(ctx).Result()
			if err != nil {
				return false, err
			}
			lines := strings.Split(strings.TrimSpace(v), "\n")
			if len(lines) != 6 || strings.Contains(v, "handshake") || strings.Contains(v, "noaddr") {
				return false, nil
			}
		}
		return true, nil
	})
}

// attachReplicas makes node i+3 the replica of node i, whose ID is ids[i],
// and waits until every node sees three replicas.
func attachReplicas(ctx context.Context, admin map[string]*redis.Client, addrs, ids []string) error {
	for i := 3; i < 6; i++ {
		if err := admin[addrs[i]].ClusterReplicate(ctx, ids[i-3]).Err(); err != nil {
			return fmt.Errorf("REPLICATE: %w", err)
		}
	}
	return Poll(ctx, 30*time.Second, "every node to see three replicas", func() (bool, error) {
		for _, a := range admin {
			v, err := a.ClusterNodes(ctx).Result()
			if err != nil || strings.Count(v, "slave") != 3 {
				return false, err
			}
		}
		return true, nil
	})
}

// waitHealthy waits until every node reports the cluster ok and each
// replica (node i+3) is in sync with its primary (node i).
func waitHealthy(ctx context.Context, admin map[string]*redis.Client, addrs []string) error {
	if err := WaitClusterOK(ctx, addrs, 30*time.Second); err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err := WaitReplicaUp(ctx, admin[addrs[i]], admin[addrs[i+3]]); err != nil {
			return err
		}
	}
	return nil
}

// clusterPorts finds n free loopback ports p whose cluster bus port p+10000
// is free too.
func clusterPorts(n int) ([]int, error) {
	seen := map[int]bool{}
	var ports []int
	for tries := 0; len(ports) < n; tries++ {
		if tries > 200 {
			return nil, errors.New("no free pair of ports p, p+10000 on 127.0.0.1")
		}
		p, err := FreePort()
		if err != nil {
			return nil, err
		}
		if p+10000 > 65535 || seen[p] || seen[p+10000] || !portFree(p+10000) {
			continue
		}
		seen[p], seen[p+10000] = true, true
		ports = append(ports, p)
	}
	return ports, nil
}

// spawnNode starts one cluster node on 127.0.0.1:port with its files in dir
// and waits until it answers PING. Full syncs go over the socket at once
// (no diskless delay), so a replica is in sync a moment after it attaches.
func spawnNode(ctx context.Context, path string, port int, dir string) (*Proc, error) {
	return Spawn(ctx, path, port, dir,
		"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
		"--cluster-node-timeout", strconv.FormatInt(NodeTimeout.Milliseconds(), 10),
		"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0")
}
