//go:build exercise11

package ring

// This file replaces owner.go and merge.go when you build with -tags
// exercise11 (make exercise CH=11). Write the ring's points and ownerAt, and
// the owner's merge of GLOBAL hits; the chapter's tests (E39 to E44) then
// check your code. README.md explains both.

import (
	"errors"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

func todo(what string) error {
	return errors.New("exercise: implement " + what + " in chapters/11-ring/exercise.go — see README")
}

// build puts vnodes points per peer on the circle.
//
// TODO: for each peer and i in [0, vnodes), a point{hash(peer + "#" + i), peer}
// (strconv.Itoa(i)); sort the points by hash (ties by peer name, so every
// peer builds the same ring). slices.SortFunc with cmp.Compare does it.
func build(peers []string, vnodes int) ([]point, error) {
	return nil, todo("build (the ring's virtual nodes) and ownerAt")
}

// ownerAt is the peer whose first point comes at or after h (Owner calls
// it with the key's hash).
//
// TODO: the first point with hash >= h (slices.BinarySearchFunc on
// r.points, cmp.Compare on the hashes); past the last point, wrap to the
// first.
func (r *Ring) ownerAt(h uint64) string { return "" }

// merge applies at now hits that another peer has already admitted: the
// bucket spends what it holds, up to hits, and returns the hits it could
// not cover.
//
// TODO: spend := min(hits, whole tokens at now: int(b.Tokens(now)+1e-9));
// if spend > 0, b.AllowN(now, spend); return hits - spend. Never refuse:
// the requests were already served.
func merge(b *buckets.TokenBucket, now time.Time, hits int) (int, error) {
	return 0, todo("merge (the owner's merge of GLOBAL hits)")
}
