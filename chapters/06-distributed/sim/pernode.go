package sim

import (
	"fmt"

	"github.com/ratelimit-course/ratelimit/core"
)

// PerNodeConfig describes one window of CONTRACT.md E8: Nodes application nodes each
// receive PerNode requests, and the limit is meant to be Limit in total.
type PerNodeConfig struct {
	Nodes   int // 1..MaxNodes
	Limit   int // the intended global limit for the window, 0..MaxLimit
	PerNode int // requests each node receives in the window; Nodes × PerNode <= MaxRequests
}

// Validate reports the first bad field as a *core.ParamError.
func (c PerNodeConfig) Validate() error {
	if c.Nodes < 1 || c.Nodes > MaxNodes {
		return core.BadParam("nodes", c.Nodes, fmt.Sprintf("an integer from 1 to %d", MaxNodes))
	}
	if c.Limit < 0 || c.Limit > MaxLimit {
		return core.BadParam("limit", c.Limit, fmt.Sprintf("an integer from 0 to %d", MaxLimit))
	}
	return checkPerNode(c.PerNode, c.Nodes)
}

// PerNodeResult compares the two ways of counting.
type PerNodeResult struct {
	// LocalAllowed is the total admitted when every node keeps its own
	// counter against the full limit.
	LocalAllowed int
	// SharedAllowed is the total admitted when all nodes count in one shared
	// counter.
	SharedAllowed int
	// LocalPerNode[i] is what node i+1 admitted with its own counter.
	LocalPerNode []int
	// Multiplier is LocalAllowed / SharedAllowed (0 when nothing was shared).
	Multiplier float64
}

// PerNode replays one window of round-robin traffic under per-node
// counters and under one shared counter. A node counting alone cannot see
// what its peers admitted, so N nodes admit up to N × Limit: the limit is
// multiplied by the fleet size, and changes whenever the fleet scales.
func PerNode(c PerNodeConfig) (PerNodeResult, error) {
	if err := c.Validate(); err != nil {
		return PerNodeResult{}, err
	}
	local := make([]int, c.Nodes)
	res := PerNodeResult{LocalPerNode: local}
	shared := 0
	for r := 0; r < c.PerNode; r++ {
		for k := 0; k < c.Nodes; k++ {
			if local[k] < c.Limit {
				local[k]++
				res.LocalAllowed++
			}
			if shared < c.Limit {
				shared++
				res.SharedAllowed++
			}
		}
	}
	if res.SharedAllowed > 0 {
		res.Multiplier = float64(res.LocalAllowed) / float64(res.SharedAllowed)
	}
	return res, nil
}

// SplitKeyResult compares one hot key's limit split across shards with the
// single counter it replaces.
type SplitKeyResult struct {
	Single     int   // admitted by one counter holding the whole limit
	Split      int   // admitted when each shard enforces its share of the limit
	FullShares int   // admitted when each shard enforces the whole limit
	Shares     []int // each shard's share: limit / shards, the remainder to the first ones
}

// SplitKey shows why splitting a hot key into shards, each with part
// of the limit, is no fix: demand[i] requests reach shard i in one window.
// With shares that add up to the limit, a shard that gets more than its share
// rejects while quota sits idle on the others (under-admission); giving each
// shard the whole limit instead admits up to shards × limit (over-admission).
// Only an even spread of traffic makes the split exact, and hot keys are
// exactly the ones whose traffic is not under the node's control.
func SplitKey(limit int, demand []int) (SplitKeyResult, error) {
	if limit < 0 || limit > MaxLimit {
		return SplitKeyResult{}, core.BadParam("limit", limit, fmt.Sprintf("an integer from 0 to %d", MaxLimit))
	}
	if len(demand) < 1 || len(demand) > MaxNodes {
		return SplitKeyResult{}, core.BadParam("shards", len(demand), fmt.Sprintf("from 1 to %d shards", MaxNodes))
	}
	res := SplitKeyResult{Shares: make([]int, len(demand))}
	total := 0
	for i, d := range demand {
		if d < 0 || d > MaxRequests {
			return SplitKeyResult{}, core.BadParam("demand", d, fmt.Sprintf("an integer from 0 to %d", MaxRequests))
		}
		share := limit / len(demand)
		if i < limit%len(demand) {
			share++
		}
		res.Shares[i] = share
		res.Split += min(d, share)
		res.FullShares += min(d, limit)
		total += d
	}
	res.Single = min(total, limit)
	return res, nil
}
