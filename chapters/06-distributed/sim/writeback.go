package sim

import (
	"fmt"

	"github.com/ratelimit-course/ratelimit/core"
)

// WriteBackConfig describes one window of CONTRACT.md E14: each node decides
// locally and reports its count to the centre only every SyncMS.
type WriteBackConfig struct {
	Nodes    int   // 1..MaxNodes
	Limit    int   // global target for the window, 0..MaxLimit
	PerNode  int   // requests each node receives, evenly spread over the window
	WindowMS int64 // window width in ms, >= 1
	SyncMS   int64 // write-back interval in ms, >= 1 (>= WindowMS: no sync inside the window)
}

// Validate reports the first bad field as a *core.ParamError. Nodes,
// Limit and PerNode mean what they mean for E8, and are checked the same way.
func (c WriteBackConfig) Validate() error {
	if err := (PerNodeConfig{Nodes: c.Nodes, Limit: c.Limit, PerNode: c.PerNode}).Validate(); err != nil {
		return err
	}
	if c.WindowMS < 1 || c.WindowMS > MaxWindowMS {
		return core.BadParam("window", c.WindowMS, fmt.Sprintf("an integer number of ms from 1 to %d", MaxWindowMS))
	}
	if c.SyncMS < 1 || c.SyncMS > MaxWindowMS {
		return core.BadParam("sync", c.SyncMS, fmt.Sprintf("an integer number of ms from 1 to %d", MaxWindowMS))
	}
	return nil
}

// WriteBackResult is one window replayed with delayed write-back.
type WriteBackResult struct {
	Allowed   int   // admitted by all nodes together
	PerNode   []int // PerNode[i] is what node i+1 admitted
	Syncs     int   // write-backs inside the window
	Overshoot int   // max(0, Allowed - Limit)
}

// WriteBack replays one window in which node i's j-th request arrives
// at j × WindowMS / PerNode. A node admits while the last total it heard from
// the centre plus its own unreported count stays under Limit; every SyncMS
// all nodes report their counts and hear the new total (a sync at the same
// instant as a request happens first).
//
// Between two syncs the nodes are blind to each other, so each can spend the
// whole limit: with no sync inside the window, N nodes admit N × Limit.
// Shorter intervals shrink the overshoot but never remove it; only a check
// against the shared counter before admitting does.
func WriteBack(c WriteBackConfig) (WriteBackResult, error) {
	if err := c.Validate(); err != nil {
		return WriteBackResult{}, err
	}
	res := WriteBackResult{PerNode: make([]int, c.Nodes)}
	centre := 0
	seen := make([]int, c.Nodes)     // the total each node heard at its last sync
	unsynced := make([]int, c.Nodes) // admitted since the node last reported
	nextSync := c.SyncMS
	for j := 0; j < c.PerNode; j++ {
		t := int64(j) * c.WindowMS / int64(c.PerNode)
		if nextSync <= t { // t < WindowMS, so every sync up to t is inside the window
			for k := range unsynced {
				centre += unsynced[k]
				unsynced[k] = 0
			}
			for k := range seen {
				seen[k] = centre
			}
			// Syncs with no request between them change nothing: count
			// them all at once instead of looping over each.
			n := (t-nextSync)/c.SyncMS + 1
			res.Syncs += int(n)
			nextSync += n * c.SyncMS
		}
		for k := 0; k < c.Nodes; k++ {
			if seen[k]+unsynced[k] < c.Limit {
				unsynced[k]++
				res.PerNode[k]++
				res.Allowed++
			}
		}
	}
	res.Overshoot = max(0, res.Allowed-c.Limit)
	return res, nil
}
