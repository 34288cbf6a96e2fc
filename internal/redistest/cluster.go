package redistest

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// ClusterHow tells a skipped test what would have given it a cluster.
const ClusterHow = "no Redis Cluster for this test: install redis-server (" + redisproc.InstallHint + ") " +
	"or set REDIS_CLUSTER_ADDRS=host:port,...; REQUIRE_REDIS=1 makes this a failure"

// Cluster is a redisproc.Cluster of a test: three primaries with a replica
// each, started for the test and torn down when it ends (or the one
// REDIS_CLUSTER_ADDRS names, which is left alone). Its Pause, Resume, Kill
// and Restart control the nodes' processes.
type Cluster struct{ *redisproc.Cluster }

// Client returns a ClusterClient of the cluster, closed when the test ends.
func (c Cluster) Client(t testing.TB) *redis.ClusterClient {
	cc := redis.NewClusterClient(c.Options())
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// NewCluster gives the test a cluster: REDIS_CLUSTER_ADDRS if set, or one of
// its own started from redis-server on PATH and torn down when the test
// ends. Without either the test is skipped (failed with REQUIRE_REDIS=1),
// and under -short it is skipped whatever is there (testenv.NeedsProcesses).
func NewCluster(t testing.TB) Cluster {
	t.Helper()
	testenv.NeedsProcesses(t)
	c, err := redisproc.OpenCluster(context.Background())
	switch {
	case errors.Is(err, redisproc.ErrNoCluster) && os.Getenv("REQUIRE_REDIS") != "1":
		t.Skip(ClusterHow)
	case err != nil:
		t.Fatalf("redistest: cluster: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return Cluster{c}
}
