package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// SplitResult is E22's split key on the cluster: the hot identity's limit of
// 100 as four keys of 25 (four identities, so four slots), against one key
// of 100 and four keys of 100 each, for each demand of Cases.
type SplitResult struct {
	Primaries []string    `json:"primaries"` // the primary of each quarter's key
	Cases     []SplitCase `json:"cases"`
}

// SplitCase is one demand per shard and what each layout admitted.
type SplitCase struct {
	Demand     []int `json:"demand"`
	Single     int   `json:"single"`      // one key, limit 100
	Split      int   `json:"split"`       // four keys, limit 25 each
	FullShares int   `json:"full_shares"` // four keys, limit 100 each
}

// splitOnCluster replays TestSplitHotKey's 70/10/10/10 and 100/100/100/100
// cases on the cluster, every request a fixed-window call at one instant.
func splitOnCluster(ctx context.Context, cc *redis.ClusterClient, top redisproc.Topology, prefix string, at time.Time) (SplitResult, error) {
	var s SplitResult
	for q := 0; q < 4; q++ {
		owner, _ := top.Owner(KeySlot(distributed.Key(fmt.Sprintf("%s-0-quarter.%d", prefix, q), "fw")))
		s.Primaries = append(s.Primaries, owner.Addr)
	}
	// admit sends n requests for id against limit and counts the admitted.
	admit := func(id string, limit, n int) (int, error) {
		l, err := fixedWindow(cc, time.Minute, limit)
		if err != nil {
			return 0, err
		}
		got := 0
		for i := 0; i < n; i++ {
			d, err := l.AllowNAt(ctx, id, at, 1)
			if err != nil {
				return got, err
			}
			if d.Allowed {
				got++
			}
		}
		return got, nil
	}
	for c, demand := range [][]int{{70, 10, 10, 10}, {100, 100, 100, 100}} {
		sc := SplitCase{Demand: demand}
		total := 0
		for q, d := range demand {
			split, err := admit(fmt.Sprintf("%s-%d-quarter.%d", prefix, c, q), 25, d)
			if err != nil {
				return s, err
			}
			full, err := admit(fmt.Sprintf("%s-%d-full.%d", prefix, c, q), 100, d)
			if err != nil {
				return s, err
			}
			sc.Split, sc.FullShares, total = sc.Split+split, sc.FullShares+full, total+d
		}
		single, err := admit(fmt.Sprintf("%s-%d-single", prefix, c), 100, total)
		if err != nil {
			return s, err
		}
		sc.Single = single
		s.Cases = append(s.Cases, sc)
	}
	return s, nil
}
