//go:build !exercise06

package cluster

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/sim"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestE22_HotKey: one identity sends 80 % of 10,000 requests. Its primary
// runs its 8,000 script calls plus its third of the other 2,000 (INFO
// commandstats, counted exactly); prefetch with batch 25 cuts the hot
// identity's calls on that primary by at least 20× and no window admits
// more than the limit; the split key mis-counts as in TestSplitHotKey.
func TestE22_HotKey(t *testing.T) {
	c := redistest.NewCluster(t)
	evs := runPart(t, c, PartHotKey)
	results := reported[HotKeyResult](evs)
	require.Len(t, results, 1)
	res := results[0]
	cfg := res.Config
	require.Equal(t, DefaultHotKey(cfg.Prefix), cfg)
	// Each phase's last report carries the counts the result gives.
	final := map[string][]PrimaryShare{}
	for _, p := range reported[HotKeyProgress](evs) {
		if p.Final {
			final[p.Phase] = p.Calls
		}
	}
	require.Equal(t, res.Mixed, final[PhaseMixed])
	t.Logf("hot primary %s: %.1f%% of the script calls; per primary %+v", res.HotPrimary, 100*res.HotShare, res.Mixed)
	t.Logf("hot alone: %d calls without prefetch, %d with batch %d (%.1fx fewer); others %d",
		res.HotCentral, res.HotBorrow, cfg.Batch, res.Reduction, res.OtherCalls)
	t.Logf("admitted per window: mixed %v, central %v, prefetch %v", res.MixedAdmitted, res.CentralAdmitted, res.PrefetchAdmitted)
	t.Logf("split: %+v", res.Split)

	// The mixed run's calls are exactly the requests, routed by slot.
	var total int64
	hotCalls := int64(cfg.Requests * cfg.HotPercent / 100)
	for _, s := range res.Mixed {
		total += s.Count
	}
	require.Equal(t, int64(cfg.Requests), total, "script calls summed over the primaries")
	require.Len(t, res.Mixed, 3)
	for _, s := range res.Mixed {
		if s.Addr == res.HotPrimary {
			require.GreaterOrEqual(t, s.Count, hotCalls, "the hot primary runs every hot call")
			require.InDelta(t, 0.8+0.2/3, s.Share, 0.03, "80%% hot plus a third of the rest")
		} else {
			require.InDelta(t, 0.2/3, s.Share, 0.03, "an idle primary: a third of the other 20%%")
		}
	}

	// Hot alone: one call per request without prefetch, far fewer with it.
	require.Equal(t, hotCalls, res.HotCentral)
	require.Zero(t, res.OtherCalls, "the other primaries see nothing of the hot identity")
	require.GreaterOrEqual(t, res.Reduction, 20.0)
	windows := cfg.Windows
	perWindow := int64(cfg.Requests / windows * cfg.HotPercent / 100)
	for w := 0; w < windows; w++ {
		// 2,000 hot requests per window against a limit of 1,000: the
		// central counter admits exactly the limit, prefetch at most it.
		require.Equal(t, int64(cfg.Limit), res.MixedAdmitted[w], "mixed window %d", w)
		require.Equal(t, int64(cfg.Limit), res.CentralAdmitted[w], "central window %d", w)
		require.LessOrEqual(t, res.PrefetchAdmitted[w], int64(cfg.Limit), "prefetch window %d", w)
		require.Greater(t, res.PrefetchAdmitted[w], int64(cfg.Limit-cfg.AppNodes*cfg.Batch), "prefetch strands at most a batch per node")
		require.Less(t, int64(cfg.Limit), perWindow)
	}
	// At best one borrow per batch plus one "drained" answer per node.
	best := int64(windows) * int64(math.Ceil(float64(cfg.Limit)/float64(cfg.Batch))+float64(cfg.AppNodes))
	require.LessOrEqual(t, res.HotBorrow, 2*best)

	// The split key on the cluster counts as TestSplitHotKey computes.
	want := map[string][3]int{"[70 10 10 10]": {100, 55, 100}, "[100 100 100 100]": {100, 100, 400}}
	require.Len(t, res.Split.Cases, 2)
	for _, sc := range res.Split.Cases {
		split, err := sim.SplitKey(100, sc.Demand)
		require.NoError(t, err)
		got := [3]int{sc.Single, sc.Split, sc.FullShares}
		require.Equal(t, want[fmt.Sprint(sc.Demand)], got, "demand %v: single, split, full shares", sc.Demand)
		require.Equal(t, [3]int{split.Single, split.Split, split.FullShares}, got, "the cluster agrees with sim.SplitKey")
	}
}
