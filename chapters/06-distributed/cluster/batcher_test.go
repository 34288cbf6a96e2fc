package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestBatcherOnCluster: chapter 06's Batcher on a ClusterClient, whose
// pipelines go-redis splits by node. 64 callers at once send 640 requests
// over 8 identities that live on all three primaries, 80 each against a
// limit of 50 in one instant: exactly 50 of each are admitted, so every
// call reached its own key's primary and came back to its caller.
func TestBatcherOnCluster(t *testing.T) {
	cc, top := clusterTopology(t)
	ctx := context.Background()

	id := redistest.ID(t)
	var ids []string
	per := map[string]int{} // identities per primary, at most 3: 8 of them span all three
	for n := 0; len(ids) < 8; n++ {
		cand := fmt.Sprintf("%s.%d", id, n)
		owner, ok := top.Owner(KeySlot(distributed.Key(cand, "fw")))
		require.True(t, ok)
		if per[owner.ID] < 3 {
			per[owner.ID]++
			ids = append(ids, cand)
		}
	}
	require.Len(t, per, 3, "the identities span every primary")

	bt, err := distributed.NewBatcher(cc, distributed.BatcherOptions{})
	require.NoError(t, err)
	defer bt.Close()
	fw, err := distributed.NewFixedWindow(bt, fixedwindow.Config{Window: time.Hour, Limit: 50})
	require.NoError(t, err)
	now := time.Now()
	var admitted [8]atomic.Int64
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			for i := range 10 {
				k := (g + i) % 8
				d, err := fw.AllowNAt(ctx, ids[k], now, 1)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					admitted[k].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for k := range admitted {
		require.Equal(t, int64(50), admitted[k].Load(), "identity %d: admitted of 80 at limit 50", k)
	}
	s := bt.Stats()
	t.Logf("%d calls in %d pipelines, %d alone", s.Batched, s.Pipelines, s.Alone)
	require.Less(t, s.Pipelines, s.Batched, "pipelines carried more than one call each")
}
