package core

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMaxInWindow(t *testing.T) {
	const w = 1000
	cases := []struct {
		name string
		sent []int64
		max  int
		wins [][2]int64
	}{
		{"empty", nil, 0, nil},
		{"one", []int64{5}, 1, [][2]int64{{5, 1005}}},
		{"age exactly W is outside", []int64{0, 1000}, 1, [][2]int64{{0, 1000}, {1000, 2000}}},
		{"just inside", []int64{0, 999}, 2, [][2]int64{{0, 1000}}},
		{"same instant", []int64{7, 7, 7}, 3, [][2]int64{{7, 1007}}},
		{"unsorted input", []int64{1120, 820, 1000}, 3, [][2]int64{{820, 1820}}},
		{"E1 fixed window sends", []int64{820, 880, 940, 1000, 1060, 1120}, 6, [][2]int64{{820, 1820}}},
	}
	for _, tc := range cases {
		got, wins := MaxInWindow(tc.sent, w)
		if got != tc.max || !slices.Equal(wins, tc.wins) {
			t.Errorf("%s: %d %v, want %d %v", tc.name, got, wins, tc.max, tc.wins)
		}
	}
}

// FuzzMaxInWindow checks the two-pointer ruler against counting every window
// that starts at a sent time, the definition read literally.
func FuzzMaxInWindow(f *testing.F) {
	f.Add(uint64(1), uint8(10), int64(1000))
	f.Fuzz(func(t *testing.T, seed uint64, n uint8, w int64) {
		if w <= 0 || w > 1e6 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		sent := make([]int64, n)
		for i := range sent {
			sent[i] = rng.Int64N(3 * w)
		}
		got, wins := MaxInWindow(sent, w)
		count := func(lo, hi int64) int {
			c := 0
			for _, u := range sent {
				if u >= lo && u < hi {
					c++
				}
			}
			return c
		}
		best := 0
		for _, s := range sent {
			best = max(best, count(s, s+w))
		}
		if got != best {
			t.Fatalf("ruler %d, brute force %d on %v", got, best, sent)
		}
		for _, win := range wins {
			if c := count(win[0], win[1]); c != got {
				t.Fatalf("window %v holds %d, not %d", win, c, got)
			}
		}
	})
}
