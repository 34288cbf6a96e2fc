package ring

import (
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/ratelimit-course/ratelimit/core"
)

// DefaultVNodes is the number of points each peer has on the ring.
// gubernator's default is 512 (its DefaultReplicas); with 3 peers the
// share of keys a peer owns is then within a few per cent of a third.
const DefaultVNodes = 512

// Ring is a consistent-hash ring: each peer is hashed onto VNodes points of
// a 64-bit circle, and a key belongs to the peer whose point comes first at
// or after the key's hash. A Ring never changes: With and Without return a
// new one, so readers share it without a lock.
type Ring struct {
	vnodes int
	peers  []string // sorted
	points []point  // sorted by hash
}

// point is one virtual node: a place on the circle and the peer it stands for.
type point struct {
	hash uint64
	peer string
}

// NewRing returns a ring of the given peers (at least one, no duplicates,
// none empty) with vnodes points each (1 to 4096).
func NewRing(vnodes int, peers ...string) (*Ring, error) {
	if vnodes < 1 || vnodes > 4096 {
		return nil, core.BadParam("vnodes", vnodes, "1 to 4096 points per peer")
	}
	if len(peers) == 0 {
		return nil, core.BadParam("peers", "none", "at least one peer")
	}
	sorted := slices.Clone(peers)
	slices.Sort(sorted)
	for i, p := range sorted {
		if p == "" || (i > 0 && sorted[i-1] == p) {
			return nil, core.BadParam("peers", fmt.Sprintf("%q", p), "distinct, non-empty peer names")
		}
	}
	points, err := build(sorted, vnodes)
	if err != nil {
		return nil, err
	}
	return &Ring{vnodes: vnodes, peers: sorted, points: points}, nil
}

// Peers returns the ring's peers, sorted.
func (r *Ring) Peers() []string { return slices.Clone(r.peers) }

// With returns the ring with one more peer.
func (r *Ring) With(peer string) (*Ring, error) {
	return NewRing(r.vnodes, append(r.Peers(), peer)...)
}

// Without returns the ring without peer (which must be on it, and not the last).
func (r *Ring) Without(peer string) (*Ring, error) {
	rest := slices.DeleteFunc(r.Peers(), func(p string) bool { return p == peer })
	if len(rest) == len(r.peers) {
		return nil, core.BadParam("peer", fmt.Sprintf("%q", peer), "a peer on the ring")
	}
	return NewRing(r.vnodes, rest...)
}

// Owner is the peer that owns key: the owner of its hash's place.
func (r *Ring) Owner(key string) string { return r.ownerAt(hash(key)) }

// Moved is the fraction of keys whose owner differs between a and b.
func Moved(a, b *Ring, keys []string) float64 {
	if len(keys) == 0 {
		return 0
	}
	n := 0
	for _, k := range keys {
		if a.Owner(k) != b.Owner(k) {
			n++
		}
	}
	return float64(n) / float64(len(keys))
}

// hash places a string on the circle: FNV-1a, then splitmix64's finalizer,
// because FNV alone leaves strings that differ only in their last digits
// ("peer#1", "peer#2") close together, and the peers' arcs uneven.
func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Arcs divides the circle into cells equal arcs and names the owner of the
// start of each: the ring as a strip, for the app's ring screen.
func (r *Ring) Arcs(cells int) []string {
	out := make([]string, max(cells, 0))
	for i := range out {
		out[i] = r.ownerAt(uint64(float64(i) / float64(cells) * (1 << 64)))
	}
	return out
}
