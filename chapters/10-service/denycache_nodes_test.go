package service

import (
	"math"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// E34 measured the deny cache on one node. With several nodes each keeps
// its own cache, and for a token bucket a refusal is remembered only until
// the next token (its RetryAfter), so every node asks the store again about
// once per token interval. This simulation plays that on a deterministic
// clock: one shared token bucket (chapter 04's) stands for the store, each
// node has the service's own denyCache, and a load balancer deals the
// requests round-robin.

// denyCacheRun is one key's traffic: a token bucket of capacity and rate,
// offered requests a second spread evenly over nodes, for seconds.
type denyCacheRun struct {
	capacity int
	rate     float64 // tokens a second
	offered  float64 // requests a second
	nodes    int
	seconds  int
}

// storeCallsPerSecond plays the run and returns how many requests a second
// reached the store, and how many a second the store admitted.
func (r denyCacheRun) storeCallsPerSecond(t *testing.T) (calls, admitted float64) {
	t.Helper()
	store, err := buckets.NewTokenBucket(buckets.Config{Capacity: r.capacity, Rate: r.rate})
	if err != nil {
		t.Fatal(err)
	}
	caches := make([]*denyCache[string], r.nodes)
	for i := range caches {
		caches[i] = newDenyCache[string](100)
	}
	t0 := time.Unix(1_000_000, 0)
	n := int(r.offered * float64(r.seconds))
	step := time.Duration(float64(time.Second) / r.offered)
	var reached, allowed int
	for i := range n {
		now, c := t0.Add(time.Duration(i)*step), caches[i%r.nodes]
		if _, over := c.over("k", now, 1); over {
			continue
		}
		reached++
		d := store.AllowN(now, 1)
		if d.Allowed {
			allowed++
			continue
		}
		c.remember("k", now.Add(d.RetryAfter), 1, now)
	}
	return float64(reached) / float64(r.seconds), float64(allowed) / float64(r.seconds)
}

// TestE34_DenyCacheAcrossNodes: the store sees about min(offered, rate +
// nodes × rate) calls a second, nodes ÷ RetryAfter besides the admitted
// ones, so the saving shrinks as nodes grow and vanishes once each node's
// share of the traffic arrives slower than the bucket refills.
func TestE34_DenyCacheAcrossNodes(t *testing.T) {
	cases := []struct {
		name       string
		run        denyCacheRun
		calls      float64 // store calls a second, measured by the run
		tolerance  float64
		noSavingAt bool // the cache saves nothing: every request reaches the store
	}{
		// E34's shape on one node: 10x a 20/s bucket; one call admitted and
		// one refused per token interval.
		{"one node, 10x a 20/s bucket", denyCacheRun{20, 20, 200, 1, 60}, 40, 1, false},
		// The partner answer's hot user: 5/s, 20,000/s offered through
		// 8 and 20 servers: Retry-After 0.2 s, each server asks 5 times a
		// second.
		{"partner user, 8 servers", denyCacheRun{5, 5, 20_000, 8, 30}, 45, 1, false},
		{"partner user, 20 servers", denyCacheRun{5, 5, 20_000, 20, 30}, 105, 1, false},
		// The per-user answer: 100 a minute, a user at 10x (1,000 a minute)
		// over 20 servers: each server sees one request every 1.2 s, later
		// than the next token (0.6 s), so nothing is ever cached.
		{"per-user 100/min, 10x over 20 servers", denyCacheRun{100, 100.0 / 60, 1000.0 / 60, 20, 600}, 1000.0 / 60, 0.1, true},
	}
	for _, tc := range cases {
		calls, admitted := tc.run.storeCallsPerSecond(t)
		t.Logf("%s: %.1f store calls/s of %.1f offered (%.1f admitted/s)", tc.name, calls, tc.run.offered, admitted)
		if math.Abs(calls-tc.calls) > tc.tolerance {
			t.Errorf("%s: %.2f store calls a second, want %.2f ± %g", tc.name, calls, tc.calls, tc.tolerance)
		}
		if saved := calls < tc.run.offered-0.01; saved == tc.noSavingAt {
			t.Errorf("%s: %.2f calls of %.2f offered: saving = %v, want %v", tc.name, calls, tc.run.offered, saved, !tc.noSavingAt)
		}
		// The bound: the admitted rate plus each node once per token.
		if bound := math.Min(tc.run.offered, tc.run.rate*float64(1+tc.run.nodes)); calls > bound+tc.tolerance {
			t.Errorf("%s: %.2f calls a second, above the bound %.2f", tc.name, calls, bound)
		}
	}
}
