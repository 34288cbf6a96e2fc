//go:build linux && !exercise06

package distributed

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestE23_FailoverLosesCounts freezes a replica while its primary admits
// one request per 10 ms, kills the primary and promotes the replica, three
// times: as shipped, with min-replicas-to-write 1 and with WAIT 1 50 ms
// after every decision (an unconfirmed decision refused, fail-closed).
// As shipped, the new primary forgets what never reached its replica and
// admits exactly that many extra in the same window. The two mitigations
// turn the loss into refused requests and admit no more than the limit.
func TestE23_FailoverLosesCounts(t *testing.T) {
	c := redistest.NewCluster(t)
	if !c.Owned() {
		t.Skip("REDIS_CLUSTER_ADDRS: E23 kills a primary, so it runs only on a cluster of its own")
	}
	cc := c.Client(t)
	ctx := context.Background()
	cfg := DefaultE23(redistest.ID(t))
	runs := map[string]E23Run{}
	for _, m := range []string{MitigationNone, MitigationMinReplicas, MitigationWait} {
		run, err := RunE23(ctx, cc, c, cfg, m)
		require.NoError(t, err, m)
		t.Logf("%+v", run)
		runs[m] = run
		// Whatever the mitigation: the old primary counted every request
		// that reached it, the run adds up, and every admission the new
		// primary forgot is one it admits again.
		require.Equal(t, cfg.Before, run.Before)
		require.Equal(t, run.LagSent, run.LagAdmitted+run.LagRefused, m)
		require.Equal(t, run.Total, run.Before+run.LagAdmitted+run.AfterAdmitted, m)
		require.GreaterOrEqual(t, run.NewCount, int64(cfg.Before), "%s: what was replicated survives", m)
		require.GreaterOrEqual(t, run.Forgotten, int64(0), m)
	}

	none := runs[MitigationNone]
	require.Zero(t, none.LagRefused, "as shipped the primary accepts every write")
	require.Equal(t, int64(cfg.Before+none.LagAdmitted), none.OldCount)
	require.Positive(t, none.Forgotten, "the writes after the primary dropped its frozen replica are lost")
	require.Equal(t, int(none.Forgotten), none.OverAdmitted, "each forgotten admission is admitted again")
	require.Zero(t, none.AfterRefused)

	mr := runs[MitigationMinReplicas]
	require.Positive(t, mr.LagRefused, "the primary refuses writes once its replica lags")
	require.Greater(t, mr.FirstRefuse, int64(0))
	require.LessOrEqual(t, mr.FirstRefuse, int64((cfg.MaxLag+2)*1000), "refusals start within max-lag plus the 1 s cron")
	require.Equal(t, int(mr.Forgotten), mr.OverAdmitted)
	require.Less(t, mr.OverAdmitted, none.OverAdmitted)
	require.Positive(t, mr.AfterRefused, "a new primary without a replica refuses every write")
	require.Positive(t, mr.NoReplicaMs)

	w := runs[MitigationWait]
	require.Zero(t, w.LagAdmitted, "no replica confirms while it is frozen: every decision is refused")
	require.Positive(t, w.LagRefused)
	require.Zero(t, w.OverAdmitted, "every admitted decision was on the replica")
	// Refused decisions that reached the replica still count there, so the
	// window admits a little less than the limit, never more.
	require.LessOrEqual(t, w.Total, cfg.Limit)
	require.GreaterOrEqual(t, w.Total, cfg.Limit-w.LagRefused-w.AfterRefused)
	require.Greater(t, w.WaitP50, w.PlainP50, "WAIT adds a replication round trip")
	require.Positive(t, w.AfterRefused, "WAIT 1 on a primary without a replica never confirms")
}
