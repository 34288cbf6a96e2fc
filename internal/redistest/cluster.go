package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ClusterHow tells a skipped test what would have given it a cluster.
const ClusterHow = "no Redis Cluster for this test: install redis-server (apt-get install redis-server) " +
	"or set REDIS_CLUSTER_ADDRS=host:port,...; REQUIRE_REDIS=1 makes this a failure"

// ErrNoRedisServer is returned by OpenCluster when REDIS_CLUSTER_ADDRS is
// unset and no redis-server is on PATH.
var ErrNoRedisServer = errors.New("no redis-server on PATH and REDIS_CLUSTER_ADDRS unset: " +
	"install redis-server (apt-get install redis-server) or point REDIS_CLUSTER_ADDRS at a cluster")

// ClusterNodeTimeout is the cluster-node-timeout of a cluster started here:
// short, so that a stopped node is flagged and a failover settles in seconds.
const ClusterNodeTimeout = 2 * time.Second

// Cluster is a Redis Cluster of three primaries, each with one replica. One
// started here is six redis-server processes on loopback ports, persistence
// off, each in its own directory (its nodes.conf survives Kill, so Restart
// brings the same node back); they are killed on Close and, through the
// parent-death signal, if the test binary dies first. With REDIS_CLUSTER_ADDRS
// the cluster is someone else's: Owned is false and the process controls
// return an error.
type Cluster struct {
	How   string   // which path gave it, for logs
	Addrs []string // every node at the start, as seeds for a ClusterClient

	path  string
	dir   string
	mu    sync.Mutex
	nodes map[string]*clusterNode // by address; nil when not owned
}

type clusterNode struct {
	port int
	dir  string
	p    *proc
}

// Owned reports whether this package started the cluster's processes (and
// so may pause, kill and restart them).
func (c *Cluster) Owned() bool { return c.nodes != nil }

// Options returns ClusterClient options seeded with every node.
func (c *Cluster) Options() *redis.ClusterOptions {
	return &redis.ClusterOptions{Addrs: append([]string(nil), c.Addrs...)}
}

// Client returns a ClusterClient of the cluster, closed when the test ends.
func (c *Cluster) Client(t testing.TB) *redis.ClusterClient {
	cc := redis.NewClusterClient(c.Options())
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// NewCluster gives the test a cluster: REDIS_CLUSTER_ADDRS if set, or one of
// its own started from redis-server on PATH and torn down when the test
// ends. Without either the test is skipped (failed with REQUIRE_REDIS=1).
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	c, err := OpenCluster(context.Background())
	switch {
	case errors.Is(err, ErrNoRedisServer) && os.Getenv("REQUIRE_REDIS") != "1":
		t.Skip(ClusterHow)
	case err != nil:
		t.Fatalf("redistest: cluster: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// OpenCluster returns the cluster named by REDIS_CLUSTER_ADDRS
// (comma-separated host:port, checked for cluster_state:ok) or starts one
// from redis-server on PATH; the caller closes it.
func OpenCluster(ctx context.Context) (*Cluster, error) {
	if env := os.Getenv("REDIS_CLUSTER_ADDRS"); env != "" {
		addrs := strings.Split(env, ",")
		for i := range addrs {
			addrs[i] = strings.TrimSpace(addrs[i])
		}
		if err := clusterOK(ctx, addrs[0]); err != nil {
			return nil, fmt.Errorf("REDIS_CLUSTER_ADDRS=%s: %w", env, err)
		}
		return &Cluster{How: "REDIS_CLUSTER_ADDRS", Addrs: addrs}, nil
	}
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoRedisServer
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

// Close kills every process of an owned cluster and removes its files.
func (c *Cluster) Close() error {
	if c.nodes == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.nodes {
		n.stop()
	}
	c.nodes = map[string]*clusterNode{}
	return os.RemoveAll(c.dir)
}

func (n *clusterNode) stop() {
	if n.p == nil {
		return
	}
	if sigCont != nil {
		_ = n.p.cmd.Process.Signal(sigCont)
	}
	_ = n.p.cmd.Process.Kill()
	<-n.p.done
}

func (c *Cluster) node(addr string) (*clusterNode, error) {
	if c.nodes == nil {
		return nil, fmt.Errorf("redistest: cluster from %s: its processes are not ours to control", c.How)
	}
	n, ok := c.nodes[addr]
	if !ok {
		return nil, fmt.Errorf("redistest: no node %s in this cluster", addr)
	}
	if n.p == nil {
		return nil, fmt.Errorf("redistest: node %s is not running", addr)
	}
	return n, nil
}

func (c *Cluster) signal(addr string, s os.Signal) error {
	if s == nil {
		return errors.New("redistest: pausing a process needs SIGSTOP, which this system does not have")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.node(addr)
	if err != nil {
		return err
	}
	return n.p.cmd.Process.Signal(s)
}

// Pause freezes the node at addr (SIGSTOP): its connections stay open, it
// answers nothing and reads nothing, its primary's stream piles up.
func (c *Cluster) Pause(addr string) error { return c.signal(addr, sigStop) }

// Resume undoes Pause (SIGCONT).
func (c *Cluster) Resume(addr string) error { return c.signal(addr, sigCont) }

// Kill stops the node at addr at once (SIGKILL) and waits until it is gone.
func (c *Cluster) Kill(addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.node(addr)
	if err != nil {
		return err
	}
	n.stop()
	n.p = nil
	return nil
}

// Restart starts a killed node again on its port, from its nodes.conf: it
// rejoins the cluster as the node it was (a primary that was replaced comes
// back as a replica of its successor) with an empty dataset.
func (c *Cluster) Restart(addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nodes == nil {
		return fmt.Errorf("redistest: cluster from %s: its processes are not ours to control", c.How)
	}
	n, ok := c.nodes[addr]
	if !ok || n.p != nil {
		return fmt.Errorf("redistest: node %s is unknown or still running", addr)
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
	dir, err := os.MkdirTemp("", "redistest-cluster-")
	if err != nil {
		return nil, err
	}
	c = &Cluster{How: "redis-server cluster " + path, path: path, dir: dir, nodes: map[string]*clusterNode{}}
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
	nodes := make([]*clusterNode, len(ports))
	errs := make([]error, len(ports))
	var wg sync.WaitGroup
	for i, port := range ports {
		n := &clusterNode{port: port, dir: filepath.Join(dir, strconv.Itoa(port))}
		nodes[i] = n
		if err := os.Mkdir(n.dir, 0o755); err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() { defer wg.Done(); n.p, errs[i] = spawnNode(ctx, path, port, n.dir) }()
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
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
	}
	admin := make([]*redis.Client, len(c.Addrs))
	for i, a := range c.Addrs {
		admin[i] = redis.NewClient(&redis.Options{Addr: a, MaxRetries: -1})
		defer admin[i].Close()
	}
	ids := make([]string, len(admin))
	for i, a := range admin {
		if ids[i], err = a.ClusterMyID(ctx).Result(); err != nil {
			return nil, err
		}
	}
	// Slots as redis-cli --cluster create splits them: 0-5460, 5461-10922, 10923-16383.
	for i := 0; i < 3; i++ {
		lo, hi := i*16384/3, (i+1)*16384/3-1
		if i == 2 {
			hi = 16383
		}
		if err := admin[i].ClusterAddSlotsRange(ctx, lo, hi).Err(); err != nil {
			return nil, fmt.Errorf("ADDSLOTSRANGE %d %d: %w", lo, hi, err)
		}
		// Distinct epochs spare the cluster its epoch-collision round.
		if err := admin[i].Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err(); err != nil {
			return nil, err
		}
	}
	// Every pair meets directly: waiting for gossip to spread the news
	// from one node takes a second or more.
	for i := range admin {
		for _, port := range ports[i+1:] {
			if err := admin[i].ClusterMeet(ctx, "127.0.0.1", strconv.Itoa(port)).Err(); err != nil {
				return nil, err
			}
		}
	}
	if err := waitFor(ctx, 20*time.Second, "every node to know the other five", func() (bool, error) {
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
	}); err != nil {
		return nil, err
	}
	for i := 3; i < 6; i++ {
		if err := admin[i].ClusterReplicate(ctx, ids[i-3]).Err(); err != nil {
			return nil, fmt.Errorf("REPLICATE: %w", err)
		}
	}
	if err := waitFor(ctx, 30*time.Second, "cluster_state:ok with three replicas in sync", func() (bool, error) {
		for _, a := range admin {
			info, err := a.ClusterInfo(ctx).Result()
			if err != nil {
				return false, err
			}
			if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_size:3") {
				return false, nil
			}
			v, err := a.ClusterNodes(ctx).Result()
			if err != nil || strings.Count(v, "slave") != 3 || strings.Contains(v, "fail") {
				return false, err
			}
		}
		for _, a := range admin[3:] {
			info, err := a.Info(ctx, "replication").Result()
			if err != nil {
				return false, err
			}
			if !strings.Contains(info, "master_link_status:up") || !strings.Contains(info, "master_sync_in_progress:0") {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return nil, err
	}
	return c, nil
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
		p, err := freePort()
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

func portFree(p int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// spawnNode starts one cluster node on 127.0.0.1:port with its files in dir
// and waits until it answers PING. Full syncs go over the socket at once
// (no diskless delay), so a replica is in sync a moment after it attaches.
func spawnNode(ctx context.Context, path string, port int, dir string) (*proc, error) {
	return spawn(ctx, path, port, dir,
		"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
		"--cluster-node-timeout", strconv.FormatInt(ClusterNodeTimeout.Milliseconds(), 10),
		"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0")
}

// waitFor polls cond every 50 ms until it holds, fails, or limit passes.
func waitFor(ctx context.Context, limit time.Duration, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if ok && err == nil {
			return nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if lastErr != nil {
		return fmt.Errorf("waiting for %s: %w", what, lastErr)
	}
	return fmt.Errorf("waited %v for %s", limit, what)
}

// clusterOK checks that the node at addr answers and reports cluster_state:ok.
func clusterOK(ctx context.Context, addr string) error {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 3 * time.Second, MaxRetries: -1})
	defer c.Close()
	info, err := c.ClusterInfo(ctx).Result()
	if err != nil {
		return err
	}
	if !strings.Contains(info, "cluster_state:ok") {
		return errors.New("cluster_state is not ok")
	}
	return nil
}
