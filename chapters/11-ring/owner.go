//go:build !exercise11

package ring

import (
	"cmp"
	"slices"
	"strconv"
)

// build puts vnodes points per peer on the circle, "peer#i" hashed, sorted
// by hash (a tie, astronomically rare, broken by the peer's name so that
// every peer builds the same ring).
func build(peers []string, vnodes int) ([]point, error) {
	points := make([]point, 0, len(peers)*vnodes)
	for _, p := range peers {
		for i := range vnodes {
			points = append(points, point{hash(p + "#" + strconv.Itoa(i)), p})
		}
	}
	slices.SortFunc(points, func(a, b point) int {
		if a.hash != b.hash {
			return cmp.Compare(a.hash, b.hash)
		}
		return cmp.Compare(a.peer, b.peer)
	})
	return points, nil
}

// ownerAt is the peer whose first point comes at or after h, going round
// past the top of the circle to the first point.
func (r *Ring) ownerAt(h uint64) string {
	i, _ := slices.BinarySearchFunc(r.points, h, func(p point, h uint64) int { return cmp.Compare(p.hash, h) })
	if i == len(r.points) {
		i = 0
	}
	return r.points[i].peer
}
