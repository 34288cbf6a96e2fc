package cluster

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// clusterTopology is a client of the test's Redis Cluster and the cluster's
// primaries and replicas as it reports them.
func clusterTopology(t *testing.T) (*redis.ClusterClient, redisproc.Topology) {
	t.Helper()
	cc := redistest.NewCluster(t).Client(t)
	top, err := topology(context.Background(), cc)
	require.NoError(t, err)
	return cc, top
}
