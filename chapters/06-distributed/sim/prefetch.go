package sim

import (
	"fmt"

	"github.com/ratelimit-course/ratelimit/core"
)

// Bounds on a simulation. Counts come from the course's domain; the number
// of requests replayed is what keeps memory small: a prefetch replay keeps a
// snapshot of every node per request, at most 10,000 × 100 of them (8 MB).
const (
	MaxNodes    = 100
	MaxRequests = 10000
	MaxLimit    = core.MaxCount // 1e9, also the largest batch
	MaxRTTMS    = 60000
	MaxWindowMS = 86400000 // one day, for the write-back simulation
)

// checkPerNode validates per-node requests on nodes nodes (already valid):
// nodes × perNode at most MaxRequests, checked without forming the
// product, which a huge perNode would wrap.
func checkPerNode(perNode, nodes int) error {
	if most := MaxRequests / nodes; perNode < 0 || perNode > most {
		return core.BadParam("per-node", perNode, fmt.Sprintf(
			"an integer from 0 to %d (at most %d requests in all, to keep the replay small)", most, MaxRequests))
	}
	return nil
}

// PrefetchConfig describes one window of the local-quota-prefetch story
// (CONTRACT.md E12, E13): Nodes application nodes share a global Limit; each node
// borrows up to Batch permits from the centre per round trip and spends them
// locally.
type PrefetchConfig struct {
	Nodes   int   // application nodes, 1..MaxNodes
	PerNode int   // requests per node, sent round-robin 1,2,…,N,1,2,…; ignored when Order is set
	Limit   int   // global limit for the window, 0..MaxLimit
	Batch   int   // permits a node asks for per round trip, 1..MaxLimit
	Order   []int // explicit arrival order as 1-based node numbers; nil means round-robin
	RTTMS   int64 // one round trip to the centre in ms, 0..MaxRTTMS (only scales wait_ms)
}

// Validate reports the first bad field as a *core.ParamError whose Param is
// the CLI flag name: nodes, per-node, limit, batch, order or rtt.
func (c PrefetchConfig) Validate() error {
	if c.Nodes < 1 || c.Nodes > MaxNodes {
		return core.BadParam("nodes", c.Nodes, fmt.Sprintf("an integer from 1 to %d", MaxNodes))
	}
	if c.Order == nil {
		if err := checkPerNode(c.PerNode, c.Nodes); err != nil {
			return err
		}
	}
	if c.Limit < 0 || c.Limit > MaxLimit {
		return core.BadParam("limit", c.Limit, fmt.Sprintf("an integer from 0 to %d", MaxLimit))
	}
	if c.Batch < 1 || c.Batch > MaxLimit {
		return core.BadParam("batch", c.Batch, fmt.Sprintf("an integer from 1 to %d", MaxLimit))
	}
	if c.Order != nil {
		if len(c.Order) > MaxRequests {
			return core.BadParam("order", fmt.Sprintf("(%d entries)", len(c.Order)),
				fmt.Sprintf("at most %d node numbers, to keep the replay small", MaxRequests))
		}
		for _, n := range c.Order {
			if n < 1 || n > c.Nodes {
				return core.BadParam("order", n, fmt.Sprintf("node numbers from 1 to %d (--nodes)", c.Nodes))
			}
		}
	}
	if c.RTTMS < 0 || c.RTTMS > MaxRTTMS {
		return core.BadParam("rtt", c.RTTMS, fmt.Sprintf("an integer number of ms from 0 to %d", MaxRTTMS))
	}
	return nil
}

// ArrivalOrder returns the 1-based node of every request: Order if set, else
// PerNode rounds of 1..Nodes.
func (c PrefetchConfig) ArrivalOrder() []int {
	if c.Order != nil {
		return append([]int(nil), c.Order...)
	}
	order := make([]int, 0, c.Nodes*c.PerNode)
	for r := 0; r < c.PerNode; r++ {
		for n := 1; n <= c.Nodes; n++ {
			order = append(order, n)
		}
	}
	return order
}

// StepReason says how the prefetching node decided one request.
type StepReason string

const (
	// ReasonLocal means the node spent a permit it already held; no round
	// trip.
	ReasonLocal StepReason = "local"
	// ReasonBorrowed means the node held nothing, borrowed a batch (or what
	// was left of the window) in one round trip and spent one permit of it.
	ReasonBorrowed StepReason = "borrowed"
	// ReasonBorrowEmpty means the node asked and the centre had nothing
	// left; the round trip was spent on a rejection.
	ReasonBorrowEmpty StepReason = "borrow-empty"
	// ReasonWindowEmpty means the node held nothing and already knew the
	// window was drained, so it rejected without asking again.
	ReasonWindowEmpty StepReason = "window-empty"
)

// PrefetchStep is one request replayed under both designs, so a viewer can
// step through the window request by request.
type PrefetchStep struct {
	Index int // 1-based position in the arrival order
	Node  int // 1-based node the request arrived at

	// Central design: one atomic decrement per request.
	CentralAllowed   bool
	CentralRemaining int // the shared counter's permits left after this request

	// Prefetch design.
	Allowed       bool
	Reason        StepReason
	RoundTrip     bool  // the node called the centre for this request
	Granted       int   // permits that round trip handed over (0 without one)
	WaitMS        int64 // time this request spent on the round trip
	PoolRemaining int   // the centre's permits left after this request
	// WhileStranded marks a rejection while some other node held unused
	// permits: a false reject caused by stranding, not by the limit.
	WhileStranded bool
	// Held is every node's unused local allowance after this request
	// (Held[i] belongs to node i+1).
	Held []int
}

// CentralMetrics summarise the one-round-trip-per-request design. JSON names
// are CONTRACT-CLI.md §4's.
type CentralMetrics struct {
	Allowed    int   `json:"allowed"`
	Rejected   int   `json:"rejected"`
	RoundTrips int   `json:"round_trips"`
	WaitMS     int64 `json:"wait_ms"` // round trips × rtt: time requests spent waiting on the centre
}

// PrefetchMetrics summarise the prefetch design. JSON names are CONTRACT-CLI.md §4's.
type PrefetchMetrics struct {
	Allowed    int   `json:"allowed"`
	Rejected   int   `json:"rejected"`
	RoundTrips int   `json:"round_trips"`
	WaitMS     int64 `json:"wait_ms"`
	// CentralRemaining is what the centre still has at the end of the window.
	CentralRemaining int `json:"central_remaining"`
	// Stranded is the sum of permits borrowed but never spent: the window
	// paid for them and nobody used them.
	Stranded int `json:"stranded"`
	// FewerThanCentral is central allowed minus prefetch allowed.
	FewerThanCentral int `json:"fewer_than_central"`
	// RejectsWhileStranded counts rejections made while another node held
	// unused permits (false rejects).
	RejectsWhileStranded int `json:"rejects_while_stranded"`
}

// NodeQuota is one node's account at the end of the window.
type NodeQuota struct {
	Node     int `json:"node"`
	Borrowed int `json:"borrowed"` // permits taken from the centre
	Used     int `json:"used"`     // permits spent on allowed requests
	Stranded int `json:"stranded"` // borrowed - used: held when the window ended
	Rejected int `json:"rejected"` // requests this node rejected
}

// PrefetchResult is the replay of one window under both designs.
type PrefetchResult struct {
	Config   PrefetchConfig // as given, with Order filled in
	Steps    []PrefetchStep
	Central  CentralMetrics
	Prefetch PrefetchMetrics
	Nodes    []NodeQuota
}

// Prefetch replays one window of requests twice: against a central
// counter (every request is one atomic decrement, one round trip) and with
// local quota prefetch.
//
// Prefetch rules, one node at a time as requests arrive:
//   - a node holding a permit spends it locally, with no round trip;
//   - a node holding none asks the centre, which atomically grants
//     min(Batch, remaining) and reports what is left;
//   - once a node has seen the centre report 0 left, it rejects without
//     asking again until the window ends (otherwise every request at a
//     drained node would still pay a round trip just to hear "no").
//
// Within the window nothing is over-admitted: every allowed request spends
// a permit the centre handed out, so at most Limit are allowed. That holds
// per aligned window only: over a sliding window of the same width prefetch
// can admit 2 × Limit, as any fixed window can (Limit spent just before the
// edge, Limit just after; TestPrefetchAdmits2LAcrossWindowEdge). The cost of
// prefetch is stranded quota — permits sitting at one node while another
// rejects — which Batch = 1 removes at the price of a round trip per request.
func Prefetch(c PrefetchConfig) (PrefetchResult, error) {
	if err := c.Validate(); err != nil {
		return PrefetchResult{}, err
	}
	c.Order = c.ArrivalOrder()
	r := newPrefetchReplay(c)
	for i, n := range c.Order {
		st := PrefetchStep{Index: i + 1, Node: n}
		r.decideCentral(&st)
		r.decidePrefetch(&st)
		r.res.Steps = append(r.res.Steps, st)
	}
	return r.totals(), nil
}

// prefetchReplay is Prefetch's state as it replays the window: both
// designs' counters, each node's permits, and the result so far.
type prefetchReplay struct {
	c       PrefetchConfig
	res     PrefetchResult
	central int    // the central counter's permits left
	pool    int    // the centre's permits left to lend under prefetch
	held    []int  // each node's unused local permits (held[k] is node k+1's)
	drained []bool // the node has seen the centre report 0 left
	nodes   []NodeQuota
}

func newPrefetchReplay(c PrefetchConfig) *prefetchReplay {
	r := &prefetchReplay{
		c:       c,
		res:     PrefetchResult{Config: c, Steps: make([]PrefetchStep, 0, len(c.Order))},
		central: c.Limit,
		pool:    c.Limit,
		held:    make([]int, c.Nodes),
		drained: make([]bool, c.Nodes),
		nodes:   make([]NodeQuota, c.Nodes),
	}
	for i := range r.nodes {
		r.nodes[i].Node = i + 1
	}
	return r
}

// decideCentral decides st's request against the central counter. The
// decrement is a round trip whatever the answer, so a rejection costs one
// too.
func (r *prefetchReplay) decideCentral(st *PrefetchStep) {
	r.res.Central.RoundTrips++
	if r.central > 0 {
		r.central--
		st.CentralAllowed = true
		r.res.Central.Allowed++
	} else {
		r.res.Central.Rejected++
	}
	st.CentralRemaining = r.central
}

// decidePrefetch decides st's request at its node under prefetch: the node
// borrows if it must and may, then spends a permit or rejects.
func (r *prefetchReplay) decidePrefetch(st *PrefetchStep) {
	k := st.Node - 1
	switch {
	case r.held[k] > 0:
		st.Reason = ReasonLocal
	case r.drained[k]:
		st.Reason = ReasonWindowEmpty
	default:
		r.borrow(k, st)
	}
	if r.held[k] > 0 {
		r.held[k]--
		r.nodes[k].Used++
		st.Allowed = true
		r.res.Prefetch.Allowed++
	} else {
		r.nodes[k].Rejected++
		r.res.Prefetch.Rejected++
		if r.strandedElsewhere(k) {
			st.WhileStranded = true
			r.res.Prefetch.RejectsWhileStranded++
		}
	}
	st.PoolRemaining = r.pool
	st.Held = append([]int(nil), r.held...)
}

// borrow is node k+1's round trip to the centre, which grants min(Batch,
// what is left); a node that hears 0 left remembers the window is drained.
func (r *prefetchReplay) borrow(k int, st *PrefetchStep) {
	st.RoundTrip = true
	st.WaitMS = r.c.RTTMS
	r.res.Prefetch.RoundTrips++
	grant := min(r.c.Batch, r.pool)
	r.pool -= grant
	r.held[k] += grant
	r.nodes[k].Borrowed += grant
	st.Granted = grant
	if r.pool == 0 {
		r.drained[k] = true
	}
	if grant > 0 {
		st.Reason = ReasonBorrowed
	} else {
		st.Reason = ReasonBorrowEmpty
	}
}

// strandedElsewhere reports whether a node other than k+1 holds unused
// permits: a rejection at k+1 is then a false one.
func (r *prefetchReplay) strandedElsewhere(k int) bool {
	for j, h := range r.held {
		if j != k && h > 0 {
			return true
		}
	}
	return false
}

// totals closes the window: the time spent waiting on the centre, what
// the centre and the nodes still hold, and what prefetch admitted less.
func (r *prefetchReplay) totals() PrefetchResult {
	res := r.res
	res.Central.WaitMS = int64(res.Central.RoundTrips) * r.c.RTTMS
	res.Prefetch.WaitMS = int64(res.Prefetch.RoundTrips) * r.c.RTTMS
	res.Prefetch.CentralRemaining = r.pool
	for k := range r.nodes {
		r.nodes[k].Stranded = r.held[k]
		res.Prefetch.Stranded += r.held[k]
	}
	res.Prefetch.FewerThanCentral = res.Central.Allowed - res.Prefetch.Allowed
	res.Nodes = r.nodes
	return res
}
