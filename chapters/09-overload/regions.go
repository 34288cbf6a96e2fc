package overload

import (
	"slices"

	"github.com/ratelimit-course/ratelimit/core"
)

// One global limit over several regions, three ways. A counter shared across
// an ocean costs a cross-region round trip per request, so each region
// decides locally from something it was given (a fixed share, a lease) or
// from a view of the others that lags.

// StaticSplit gives each region limit/n (rounded down) and returns what each
// admits from its demand: min(demand, share). Quota a quiet region does not
// use is lost to a busy one.
func StaticSplit(limit int, demand []int) ([]int, error) {
	if err := checkRegions(limit, demand); err != nil {
		return nil, err
	}
	share := limit / len(demand)
	out := make([]int, len(demand))
	for i, d := range demand {
		out[i] = min(d, share)
	}
	return out, nil
}

// Leases is a coordinator that leases the limit to regions in proportion to
// their recent demand (equal shares if there was none), rounded so that the
// leases add up to the limit exactly: lease i is the whole part of limit ×
// (demand up to i)/total minus that of the regions before it. Each region
// spends only its lease, so together they never exceed the limit; when demand
// moves, the next round of leases follows it.
func Leases(limit int, demand []int) ([]int, error) {
	if err := checkRegions(limit, demand); err != nil {
		return nil, err
	}
	weight, total := demand, 0
	for _, d := range demand {
		total += d
	}
	if total == 0 {
		weight, total = slices.Repeat([]int{1}, len(demand)), len(demand)
	}
	out, upTo := make([]int, len(demand)), 0
	for i, w := range weight {
		out[i] = limit*(upTo+w)/total - limit*upTo/total
		upTo += w
	}
	return out, nil
}

func checkRegions(limit int, demand []int) error {
	if err := core.CheckCount("limit", limit); err != nil {
		return err
	}
	if len(demand) == 0 || len(demand) > 1000 {
		return core.BadParam("regions", len(demand), "from 1 to 1000")
	}
	total := 0 // at most 1e9, so limit × total fits an int64
	for _, d := range demand {
		if d < 0 || d > core.MaxCount-total {
			return core.BadParam("demand", demand, "integers from 0, adding up to at most 1e9")
		}
		total += d
	}
	return nil
}
