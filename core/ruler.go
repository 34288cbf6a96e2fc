package core

import "slices"

// MaxInWindow is the course's ruler (CONTRACT.md §1): the largest number of sent
// times inside any half-open interval [s, s+w), and every such interval that
// starts at a sent time. Every chapter measures an algorithm with it, so that
// differences come from the algorithm and never from how it was measured.
//
// Times and w share one unit (ms or ns, the caller's choice); sent need not be
// sorted and is not modified. A request of cost k can be measured as k equal
// times. An interval holding the most can always slide right until its start
// meets a sent time without losing one, so only those starts are checked: two
// pointers over the sorted times, O(n log n) for the sort.
func MaxInWindow(sent []int64, w int64) (best int, windows [][2]int64) {
	s := slices.Clone(sent)
	slices.Sort(s)
	j := 0
	for i := range s {
		if i > 0 && s[i] == s[i-1] {
			continue // same start, same interval, fewer requests
		}
		for j < len(s) && s[j] < s[i]+w {
			j++
		}
		switch n := j - i; {
		case n > best:
			best, windows = n, [][2]int64{{s[i], s[i] + w}}
		case n == best:
			windows = append(windows, [2]int64{s[i], s[i] + w})
		}
	}
	return best, windows
}
