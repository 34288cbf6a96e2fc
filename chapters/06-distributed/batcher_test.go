package distributed

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

func newBatcher(t *testing.T, rdb Pipeliner) *Batcher {
	t.Helper()
	b, err := NewBatcher(rdb, BatcherOptions{})
	require.NoError(t, err)
	t.Cleanup(b.Close)
	return b
}

// TestBatcherExactAt64Callers: 64 callers at once through shared pipelines,
// for every script, each making 10 requests on one shared key with a limit
// of 100 and, between them, 10 on a key of its own. Of the 640 on the shared
// key exactly 100 are admitted, and their Remaining values are 99 down to 0
// once each: every decision saw all the ones before it, so the script stays
// atomic per key. Each caller's own key answers Remaining 99, 98, … in its
// order: no reply went to another caller. The pipelines carried more than
// one call each on average.
func TestBatcherExactAt64Callers(t *testing.T) {
	rdb := redistest.Client(t)
	bt := newBatcher(t, rdb)
	now := time.Now().Truncate(time.Millisecond)
	// 100 per hour: at one instant each admits exactly 100 of a key's
	// requests. The E20 check goes through the Batcher to its client.
	for name, l := range everyScript(bt, time.Hour, 100, 100.0/3600) {
		t.Run(name, func(t *testing.T) {
			id := redistest.ID(t)
			ctx := context.Background()
			var mu sync.Mutex
			var remaining []int
			var wg sync.WaitGroup
			for g := range 64 {
				wg.Go(func() {
					own := fmt.Sprintf("%s.own%d", id, g)
					for i := range 10 {
						d, err := l.AllowNAt(ctx, id, now, 1)
						if err != nil {
							t.Error(err)
							return
						}
						if d.Allowed {
							mu.Lock()
							remaining = append(remaining, d.Remaining)
							mu.Unlock()
						}
						if d, err = l.AllowNAt(ctx, own, now, 1); err != nil || !d.Allowed || d.Remaining != 99-i {
							t.Errorf("caller %d's own key, request %d: %+v, %v; want allowed, Remaining %d", g, i+1, d, err, 99-i)
							return
						}
					}
				})
			}
			wg.Wait()
			require.Len(t, remaining, 100, "admitted of 640 at one instant, limit 100")
			sort.Ints(remaining)
			for i, r := range remaining {
				require.Equal(t, i, r, "the admitted requests' Remaining, sorted")
			}
		})
	}
	s := bt.Stats()
	t.Logf("%d calls in %d pipelines (%.1f per pipeline), %d alone", s.Batched, s.Pipelines, float64(s.Batched)/float64(max(s.Pipelines, 1)), s.Alone)
	require.GreaterOrEqual(t, s.Batched+s.Alone, int64(6*1280), "every decision is one call")
	require.Less(t, s.Pipelines, s.Batched, "pipelines carried more than one call each")
}

// TestBatcherReloadsFlushedScripts: after SCRIPT FLUSH, the EVALSHAs that
// share a pipeline fail with NOSCRIPT each, go-redis's Script sends each one's
// EVAL, and every decision still comes back right.
func TestBatcherReloadsFlushedScripts(t *testing.T) {
	rdb := redistest.Client(t)
	bt := newBatcher(t, rdb)
	l := everyScript(AssumeNoEviction(bt), time.Hour, 100, 1)["gcra"] // not the exercise's bucket
	ctx := context.Background()
	id := redistest.ID(t)
	_, err := l.AllowN(ctx, id, 1)
	require.NoError(t, err)
	require.NoError(t, rdb.ScriptFlush(ctx).Err())
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if _, err := l.AllowN(ctx, id, 1); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	d, err := l.AllowN(ctx, id, 1)
	require.NoError(t, err)
	require.Equal(t, 100-34, d.Remaining, "34 requests spent one permit each (refill under 1)")
}

// TestBatcherClose: calls in flight when Close runs all return, those still
// queued with redis.ErrClosed, and every call after Close fails at once with
// it; Close twice is Close once.
func TestBatcherClose(t *testing.T) {
	rdb := redistest.Client(t)
	bt, err := NewBatcher(rdb, BatcherOptions{})
	require.NoError(t, err)
	l := everyScript(AssumeNoEviction(bt), time.Hour, 1_000_000, 1)["fixed-window"]
	id := redistest.ID(t)
	done := make(chan error, 64)
	var answered sync.WaitGroup // each caller has had an answer: all 64 are calling
	answered.Add(64)
	for range 64 {
		go func() {
			var err error
			for n := 0; err == nil; n++ {
				_, err = l.AllowN(context.Background(), id, 1)
				if n == 0 {
					answered.Done()
				}
			}
			done <- err
		}()
	}
	answered.Wait()
	bt.Close()
	bt.Close()
	for range 64 {
		select {
		case err := <-done:
			require.ErrorIs(t, err, redis.ErrClosed)
		case <-time.After(10 * time.Second):
			t.Fatal("a caller still waits 10 s after Close")
		}
	}
	_, err = l.AllowN(context.Background(), id, 1)
	require.ErrorIs(t, err, redis.ErrClosed)
}

func TestBatcherOptions(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}) // never dialled
	defer rdb.Close()
	for _, tc := range []struct {
		o     BatcherOptions
		param string
	}{
		{BatcherOptions{Workers: -1}, "Workers"},
		{BatcherOptions{Workers: 65}, "Workers"},
		{BatcherOptions{Max: -1}, "Max"},
		{BatcherOptions{Max: 10_001}, "Max"},
		{BatcherOptions{Timeout: time.Microsecond}, "Timeout"},
		{BatcherOptions{Timeout: time.Hour}, "Timeout"},
		{BatcherOptions{Timeout: -time.Second}, "Timeout"},
	} {
		t.Run(fmt.Sprintf("%+v", tc.o), func(t *testing.T) {
			b, err := NewBatcher(rdb, tc.o)
			var pe *core.ParamError
			require.True(t, errors.As(err, &pe), "got %v", err)
			require.Equal(t, tc.param, pe.Param)
			require.Nil(t, b)
		})
	}
	b, err := NewBatcher(rdb, BatcherOptions{Workers: 64, Max: 10_000, Timeout: time.Minute})
	require.NoError(t, err)
	b.Close()
}
