package overload

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Lagged is counters shared with a lag: a region admits a request at t iff
// its own count plus the others' counts as they stood at t − lag is below
// the limit. arrivals[i] are region i's arrival times (from time zero); the
// result is how many each admitted. The overshoot is at most what the
// regions admit within one lag: regions × rate × lag (rounded up per region).
func Lagged(limit int, arrivals [][]time.Duration, lag time.Duration) ([]int, error) {
	if err := checkRegions(limit, make([]int, len(arrivals))); err != nil {
		return nil, err
	}
	if lag < 0 || lag > core.MaxWindow {
		return nil, core.BadParam("lag", lag, "a duration from 0 to 1e18ns")
	}
	type arrival struct {
		at     time.Duration
		region int
	}
	var all []arrival
	for i, ts := range arrivals {
		for _, at := range ts {
			if at < 0 || at > core.MaxWindow {
				return nil, core.BadParam("arrival", at, "a duration from 0 to 1e18ns")
			}
			all = append(all, arrival{at, i})
		}
	}
	slices.SortStableFunc(all, func(a, b arrival) int { return cmp.Compare(a.at, b.at) })
	admitted := make([][]time.Duration, len(arrivals)) // each region's admission times, in order
	for _, a := range all {
		view := len(admitted[a.region]) // its own count, at once
		for j, ts := range admitted {
			if j != a.region { // the others', as of lag ago
				view += countUpTo(ts, a.at-lag)
			}
		}
		if view < limit {
			admitted[a.region] = append(admitted[a.region], a.at)
		}
	}
	out := make([]int, len(arrivals))
	for i, ts := range admitted {
		out[i] = len(ts)
	}
	return out, nil
}

// countUpTo is how many of the sorted times ts are at or before t.
func countUpTo(ts []time.Duration, t time.Duration) int {
	return sort.Search(len(ts), func(k int) bool { return ts[k] > t })
}
