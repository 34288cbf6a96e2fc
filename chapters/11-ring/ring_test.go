package ring

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestE39_RingMovesAboutOneInNPlusOne: a peer joining N peers takes about
// 1/(N+1) of the keys, all from the others, and none move between the old
// peers; a peer leaving N+1 gives away its own, about 1/(N+1), and no more.
func TestE39_RingMovesAboutOneInNPlusOne(t *testing.T) {
	keys := keysN(20000)
	for _, n := range []int{2, 3, 5, 9} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprintf("10.0.0.%d:81", i+1)
			}
			before, err := NewRing(DefaultVNodes, names...)
			if err != nil {
				t.Fatal(err)
			}
			after, err := before.With("10.0.0.99:81")
			if err != nil {
				t.Fatal(err)
			}
			want := 1 / float64(n+1)
			if got := Moved(before, after, keys); math.Abs(got-want) > 0.25*want {
				t.Errorf("join: %.3f of keys moved, want about %.3f", got, want)
			}
			for _, k := range keys {
				if o := after.Owner(k); o != before.Owner(k) && o != "10.0.0.99:81" {
					t.Fatalf("join: key %s moved between old peers (%s → %s)", k, before.Owner(k), o)
				}
			}
			back, err := after.Without("10.0.0.99:81")
			if err != nil {
				t.Fatal(err)
			}
			if got := Moved(before, back, keys); got != 0 {
				t.Errorf("leave: ring without the joiner differs from the old one on %.3f of keys", got)
			}
			for p, c := range shares(after, keys) {
				if share := float64(c) / float64(len(keys)); math.Abs(share-want) > 0.25*want {
					t.Errorf("peer %s owns %.3f of keys, want about %.3f", p, share, want)
				}
			}
		})
	}
}

// TestE39_OneVNodeIsUneven: with one point per peer the arcs are uneven, the
// reason for virtual nodes.
func TestE39_OneVNodeIsUneven(t *testing.T) {
	keys := keysN(20000)
	spread := func(vnodes int) float64 {
		r, err := NewRing(vnodes, "a", "b", "c", "d", "e")
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := len(keys), 0
		for _, c := range shares(r, keys) {
			lo, hi = min(lo, c), max(hi, c)
		}
		return float64(hi) / float64(max(lo, 1))
	}
	one, many := spread(1), spread(DefaultVNodes)
	if one < 2 || many > 1.25 {
		t.Errorf("largest/smallest share: %.2f with 1 vnode (want ≥ 2), %.2f with %d (want ≤ 1.25)", one, many, DefaultVNodes)
	}
}

func TestRingBadInput(t *testing.T) {
	r, _ := NewRing(8, "a")
	_, leave := r.Without("b")
	_, join := r.With("a")
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := NewRing(0, "a"); return err }(), "vnodes"},
		{func() error { _, err := NewRing(8); return err }(), "peers"},
		{func() error { _, err := NewRing(8, "a", ""); return err }(), "peers"},
		{join, "peers"},
		{leave, "peer"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", c.err, c.want)
		}
	}
}
