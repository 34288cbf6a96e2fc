package service

import (
	"fmt"
	"testing"
	"time"
)

// TestDenyCacheBounded: the cache answers only before until and only for a
// cost at least the refused one, never holds more than its bound, and makes
// room from expired entries (at most one sweep a second).
func TestDenyCacheBounded(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	c := newDenyCache[string](3)
	c.remember("a", t0.Add(time.Second), 2, t0)
	cases := []struct {
		at   time.Duration
		cost int
		want bool
	}{
		{0, 2, true}, {999 * time.Millisecond, 5, true}, {500 * time.Millisecond, 1, false}, {time.Second, 2, false},
	}
	for _, tc := range cases {
		if _, got := c.over("a", t0.Add(tc.at), tc.cost); got != tc.want {
			t.Errorf("over(a, +%v, cost %d) = %v, want %v", tc.at, tc.cost, got, tc.want)
		}
	}
	for i := range 10 {
		c.remember(fmt.Sprint("k", i), t0.Add(time.Minute), 1, t0)
	}
	if n := c.len(); n != 3 {
		t.Errorf("holds %d, want its bound 3", n)
	}
	// All three unexpired: a new key is not remembered (the store still answers).
	if _, known := c.over("k9", t0, 1); known {
		t.Error("k9 remembered past the bound")
	}
	// After they expire, a new key makes room.
	later := t0.Add(2 * time.Minute)
	c.remember("fresh", later.Add(time.Second), 1, later)
	if _, known := c.over("fresh", later, 1); !known || c.len() != 1 {
		t.Errorf("fresh not remembered after the sweep (len %d)", c.len())
	}
	if _, known := (*denyCache[string])(nil).over("x", t0, 1); known {
		t.Error("a nil (disabled) cache answered")
	}
}
