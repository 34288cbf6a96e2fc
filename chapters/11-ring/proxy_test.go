package ring

import (
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// TestE42_RoutingAtTheProxy: a proxy that routes each key by the ring (as
// Envoy's RING_HASH load balancer with a hash policy on the key) sends it to
// one limiter, which counts it in its own memory: 0 hops and exactly the
// limit. A fourth limiter joins: the keys that moved start over, and the same
// requests admit one more limit for each of them and nothing for the rest.
func TestE42_RoutingAtTheProxy(t *testing.T) {
	now := newClock().now()
	keys := keysN(1000)
	counts := map[string]map[string]*buckets.TokenBucket{} // limiter → key → bucket
	send := func(r *Ring) (admitted int) {
		for _, k := range keys {
			owner := r.Owner(k)
			if counts[owner] == nil {
				counts[owner] = map[string]*buckets.TokenBucket{}
			}
			b := counts[owner][k]
			if b == nil {
				b, _ = buckets.NewTokenBucket(buckets.Config{Capacity: 10, Rate: 10 / time.Hour.Seconds()})
				counts[owner][k] = b
			}
			for range 20 {
				if b.AllowN(now, 1).Allowed {
					admitted++
				}
			}
		}
		return admitted
	}
	three, err := NewRing(DefaultVNodes, "limiter-a", "limiter-b", "limiter-c")
	if err != nil {
		t.Fatal(err)
	}
	four, err := three.With("limiter-d")
	if err != nil {
		t.Fatal(err)
	}
	if got := send(three); got != 10*len(keys) {
		t.Fatalf("before the change: %d admitted, want exactly %d", got, 10*len(keys))
	}
	moved := int(Moved(three, four, keys)*float64(len(keys)) + 0.5)
	got := send(four)
	t.Logf("%d of %d keys moved to the new limiter; they admitted %d more", moved, len(keys), got)
	if got != 10*moved || moved < len(keys)/6 || moved > len(keys)/3 {
		t.Errorf("after the join: %d admitted for %d moved keys, want 10 each and about a quarter of the keys moved", got, moved)
	}
}
