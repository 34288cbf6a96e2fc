//go:build !exercise11

package ring

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"
)

// TestE45_SameDecisionsAsGubernator sends the same seeded random requests,
// one at a time, to a three-peer gubernator v2.13.0 cluster (LEAKY_BUCKET,
// burst = limit) and to this chapter's three peers (Batching), each to the
// peer of the same index, and compares every decision: allowed and
// remaining. Limits are per hour, so neither bucket refills a whole token
// during the run. Each difference is classified:
//
//   - "hits 0": gubernator answers a peek (the state, nothing spent); this
//     chapter refuses hits below 1 with an error naming hits. Convention.
//   - "new key, hits > limit": gubernator creates the bucket drained
//     (OVER_LIMIT, remaining 0: "start with the bucket OVER_LIMIT" in its
//     leakyBucketNewItem); this chapter refuses without spending, as chapter
//     04's bucket refuses a cost above C. Convention.
//   - "after a drained start": a later decision on a key gubernator drained
//     that way, a consequence of the convention above.
//
// Anything else is a defect, and fails the test.
func TestE45_SameDecisionsAsGubernator(t *testing.T) {
	guber := startGubernator(t)
	ours := cluster(t, 3, nil)
	client := &http.Client{Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	rng := rand.New(rand.NewPCG(45, 11))
	limits := map[string]int{}
	for i := range 40 {
		limits[fmt.Sprintf("acct-%d", i)] = 1 + rng.IntN(20)
	}
	seen, drained := map[string]bool{}, map[string]bool{}
	classes := map[string]int{}
	const n = 2000
	for i := range n {
		key := fmt.Sprintf("acct-%d", rng.IntN(40))
		limit := limits[key]
		hits := []int{0, 1, 1, 1, 1, 2, 3, limit, limit + 1}[rng.IntN(9)]
		req := Request{Key: key, Hits: hits, Limit: limit, Duration: time.Hour}
		peer := rng.IntN(3)
		g, err := gubernatorCheck(client, guber[peer], req)
		if err != nil || g.Error != "" {
			t.Fatalf("request %d %+v: gubernator: %v %s", i, req, err, g.Error)
		}
		o := ours[peer].Check([]Request{req})[0]
		first := !seen[key] && hits > 0
		if hits > 0 {
			seen[key] = true
		}
		same := o.Error == "" && o.Allowed == g.Allowed && o.Remaining == g.Remaining
		switch {
		case hits == 0:
			classes["hits 0 (convention)"]++
			if o.Error == "" {
				t.Errorf("request %d: hits 0 answered %+v, want an error naming hits", i, o)
			}
		case same:
			classes["same"]++
		case first && hits > limit && !g.Allowed && g.Remaining == 0 && !o.Allowed && o.Remaining == limit:
			classes["new key, hits > limit (convention)"]++
			drained[key] = true
		case drained[key]:
			classes["after a drained start (consequence)"]++
		default:
			t.Errorf("request %d %+v at peer %d: ours %+v, gubernator %+v: unclassified difference", i, req, peer, o, g)
		}
	}
	t.Logf("%d decisions: %v", n, classes)
	if classes["same"] < n/2 {
		t.Errorf("only %d of %d decisions compared equal", classes["same"], n)
	}
}
