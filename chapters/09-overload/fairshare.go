package overload

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ratelimit-course/ratelimit/core"
)

// MaxMinFair splits capacity among tenants max-min fair by weight: every
// tenant gets min(demand, its weighted share), and what a tenant does not
// need is shared again among the others by weight ("water filling"). No
// tenant can get more without taking from one whose share per unit of weight
// is no larger: a small tenant gets all it asks, a heavy one cannot crowd it
// out. Served in increasing demand per unit of weight, each tenant takes
// min(demand, its weight's part of what is left).
func MaxMinFair(capacity float64, weight, demand []float64) ([]float64, error) {
	if err := checkShares(capacity, demand); err != nil {
		return nil, err
	}
	if len(weight) != len(demand) {
		return nil, core.BadParam("weights", len(weight), fmt.Sprintf("one per tenant (%d)", len(demand)))
	}
	order, w := make([]int, len(demand)), 0.0
	for i := range order {
		if !(weight[i] > 0 && weight[i] <= 1e6) {
			return nil, core.BadParam("weight", weight[i], "a number above 0 and at most 1e6")
		}
		order[i], w = i, w+weight[i]
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(demand[a]/weight[a], demand[b]/weight[b]) })
	out, left := make([]float64, len(demand)), capacity
	for _, i := range order {
		out[i] = min(demand[i], left*weight[i]/w)
		left, w = left-out[i], w-weight[i]
	}
	return out, nil
}

// Proportional splits capacity in proportion to demand, which is what
// first-come service converges to under overload: the tenant that sends the
// most gets the most, whatever its weight.
func Proportional(capacity float64, demand []float64) ([]float64, error) {
	if err := checkShares(capacity, demand); err != nil {
		return nil, err
	}
	total := 0.0
	for _, d := range demand {
		total += d
	}
	out := make([]float64, len(demand))
	for i, d := range demand {
		if total > 0 {
			out[i] = min(d, capacity*d/total)
		}
	}
	return out, nil
}

func checkShares(capacity float64, demand []float64) error {
	if !(capacity > 0 && capacity <= core.MaxRate) {
		return core.BadParam("capacity", capacity, "a number above 0 and at most 1e9")
	}
	if len(demand) == 0 {
		return core.BadParam("tenants", 0, "at least 1")
	}
	for _, d := range demand {
		if !(d >= 0 && d <= core.MaxRate) {
			return core.BadParam("demand", d, "a number from 0 to 1e9")
		}
	}
	return nil
}
