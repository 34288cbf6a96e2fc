//go:build !exercise06

// Part 3's tests start a Redis Cluster each and measure the reference
// scripts on it; make exercise CH=06 leaves them out.

package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// runPart runs part p as Experiments lists it (the run tui cluster makes)
// on c, its identities named after the test, and returns what it reported.
func runPart(t *testing.T, c redistest.Cluster, p Part) []any {
	t.Helper()
	var ctl NodeControl
	if c.Owned() {
		ctl = c
	}
	var got []any
	err := Find(p).Run(context.Background(), c.Client(t), ctl, redistest.ID(t), func(ev any) { got = append(got, ev) })
	require.NoError(t, err)
	return got
}

// reported returns the reports of type T among evs.
func reported[T any](evs []any) []T {
	var out []T
	for _, ev := range evs {
		if v, ok := ev.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// TestExperimentsOrder: every part runs once, in CLUSTER.md's order, and
// only the failover needs to kill nodes.
func TestExperimentsOrder(t *testing.T) {
	var parts []Part
	for _, e := range Experiments {
		parts = append(parts, e.Part)
		require.Equal(t, e.Part == PartFailover, e.Kills, "%s", e.Title)
		require.Equal(t, e, Find(e.Part))
	}
	require.Equal(t, []Part{PartHashTags, PartHotKey, PartFailover, PartMigration}, parts)
	require.Equal(t, []Mitigation{MitigationNone, MitigationMinReplicas, MitigationWait}, Mitigations)
}

// clusterBase is an epoch-ms origin aligned to whole seconds, as in the
// single-Redis tests, so the worked examples' windows line up.
const clusterBase = int64(1_700_000_000_000)

// TestE21_HashTags: every key of one identity is in the slot of its tag;
// a script over two keys of two slots is refused with CROSSSLOT, over two
// keys of one tag it runs; 10,000 identities split about evenly over the
// three primaries.
func TestE21_HashTags(t *testing.T) {
	c := redistest.NewCluster(t)
	evs := runPart(t, c, PartHashTags)
	require.Equal(t, Stage{PartHashTags, Find(PartHashTags).Title}, evs[0])
	results := reported[HashTagResult](evs)
	require.Len(t, results, 1)
	res := results[0]
	t.Logf("%s: slot %d for %d keys; split %+v", res.ID, res.Slot, len(res.KeySlots), res.Split)
	t.Logf("without a shared tag: %s", res.CrossSlot)

	require.Len(t, res.KeySlots, len(keyKinds))
	for k, s := range res.KeySlots {
		require.Equal(t, res.Slot, s, k)
	}
	require.Contains(t, res.CrossSlot, "CROSSSLOT")
	require.Equal(t, "[0 0]", res.SharedTag)
	require.Len(t, res.Split, 3)
	var total int64
	for _, s := range res.Split {
		total += s.Count
		require.InDelta(t, 1.0/3, s.Share, 0.03, "%s holds %d of the ids", s.Addr, s.Count)
		require.InDelta(t, 16384/3, s.Slots, 1)
	}
	require.Equal(t, int64(10000), total)

	t.Run("KeySlot matches CLUSTER KEYSLOT", func(t *testing.T) { keySlotMatchesServer(t, c.Addrs[0]) })
}

// TestEveryLimiterOnCluster runs each chapter 06 limiter's worked example
// through a ClusterClient, unchanged, once for an identity on each of the
// three primaries: the decisions are the contract's.
func TestEveryLimiterOnCluster(t *testing.T) {
	cc, top := clusterTopology(t)
	ctx := context.Background()
	require.Len(t, top.Primaries(), 3)

	w3 := fixedwindow.Config{Window: time.Second, Limit: 3}
	s3 := sliding.Config{Window: time.Second, Limit: 3}
	c3r3, c3r2 := buckets.Config{Capacity: 3, Rate: 3}, buckets.Config{Capacity: 3, Rate: 2}
	e1 := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	type atLimiter interface {
		AllowNAt(ctx context.Context, id string, now time.Time, cost int) (core.Decision, error)
	}
	replay := func(l atLimiter, arrivals []int64) func(id string) (string, error) {
		return func(id string) (string, error) {
			var b strings.Builder
			for _, a := range arrivals {
				d, err := l.AllowNAt(ctx, id, time.UnixMilli(clusterBase+a), 1)
				if err != nil {
					return b.String(), err
				}
				b.WriteByte("RA"[b2i(d.Allowed)])
			}
			return b.String(), nil
		}
	}
	must := func(l atLimiter, err error) atLimiter { require.NoError(t, err); return l }
	naive, err := distributed.NewNaiveCounter(cc, time.Minute, 3)
	require.NoError(t, err)
	tests := []struct {
		name string
		run  func(id string) (string, error)
		want string
	}{
		{"E1/fixed-window", replay(must(distributed.NewFixedWindow(cc, w3)), e1), "AAARAAAR"},
		{"E1/sliding-log", replay(must(distributed.NewSlidingLog(cc, s3)), e1), "AAARRRRA"},
		{"E3/sliding-counter", replay(must(distributed.NewSlidingCounter(cc, s3)), []int64{0, 10, 20, 1200, 1220, 1240}), "AAAARR"},
		{"E4/sliding-counter", replay(must(distributed.NewSlidingCounter(cc, s3)), []int64{970, 980, 990, 1500, 1510, 1520}), "AAAAAR"},
		{"E4/sliding-log", replay(must(distributed.NewSlidingLog(cc, s3)), []int64{970, 980, 990, 1500, 1510, 1520}), "AAARRR"},
		{"E5/token-bucket", replay(must(distributed.NewTokenBucket(cc, c3r3)), []int64{0, 0, 0, 334, 667}), "AAAAA"},
		{"E6/token-bucket", replay(must(distributed.NewTokenBucket(cc, c3r2)), []int64{0, 10, 20, 30}), "AAAR"},
		{"E6/gcra", replay(must(distributed.NewGCRA(cc, c3r2)), []int64{0, 10, 20, 30}), "AAAR"},
		{"fixed-window-ttl", replay(must(distributed.NewFixedWindowTTL(cc, w3)), []int64{0, 10, 20, 30}), "AAAR"},
		{"E10/expire-on-first-hit", replay(must(distributed.NewExpireOnFirstHit(cc, w3)), []int64{0, 10, 20, 30}), "AAAR"},
		{"E9/naive-counter", func(id string) (string, error) {
			var b strings.Builder
			for i := 0; i < 4; i++ {
				d, err := naive.Allow(ctx, id)
				if err != nil {
					return b.String(), err
				}
				b.WriteByte("RA"[b2i(d.Allowed)])
			}
			return b.String(), nil
		}, "AAAR"},
		{"E12/prefetch", func(id string) (string, error) {
			cfg := distributed.BorrowConfig{Key: distributed.Key(id, "prefetch"), Limit: 6, Batch: 4, Window: time.Second}
			var nodes [2]*distributed.PrefetchNode
			for i := range nodes {
				var err error
				if nodes[i], err = distributed.NewPrefetchNode(cc, cfg, distributed.NodeOptions{Timeout: time.Second}); err != nil {
					return "", err
				}
			}
			var b strings.Builder
			for i, n := range []int{0, 1, 0, 1, 1} {
				ok, err := nodes[n].AllowAt(ctx, time.UnixMilli(clusterBase+int64(i)))
				if err != nil {
					return b.String(), err
				}
				b.WriteByte("RA"[b2i(ok)])
			}
			return b.String(), nil
		}, "AAAAR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range top.Primaries() {
				id := idOn(top, p.Addr, redistest.ID(t))
				got, err := tc.run(id)
				require.NoError(t, err, "identity %s on %s", id, p.Addr)
				require.Equal(t, tc.want, got, "identity %s on %s", id, p.Addr)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keySlotMatchesServer: KeySlot agrees with CLUSTER KEYSLOT, on the
// examples of the Redis Cluster specification and on the chapter's keys.
func keySlotMatchesServer(t *testing.T, addr string) {
	ctx := context.Background()
	seed := redis.NewClient(&redis.Options{Addr: addr})
	defer seed.Close()
	known := map[string]int{"123456789": 12739, "foo": 12182}
	keys := []string{"123456789", "foo", "", "{", "}", "{}", "{}x", "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}",
		"{user1000}.following", "{user1000}.followers", distributed.Key("user-7", "fw"), distributed.Key("user-7", "tb"), "rl:user-7:fw"}
	for i := 0; i < 200; i++ {
		keys = append(keys, distributed.Key(fmt.Sprintf("id-%d", i), "gcra"))
	}
	for _, k := range keys {
		s, err := seed.ClusterKeySlot(ctx, k).Result()
		require.NoError(t, err)
		require.Equal(t, int(s), KeySlot(k), "key %q", k)
		if want, ok := known[k]; ok {
			require.Equal(t, want, KeySlot(k), "key %q", k)
		}
	}
	require.Equal(t, KeySlot("{user1000}.following"), KeySlot("{user1000}.followers"))
	require.Equal(t, KeySlot("bar"), KeySlot("foo{bar}{zap}"))
	require.Equal(t, KeySlot("{bar"), KeySlot("foo{{bar}}zap"))
}
