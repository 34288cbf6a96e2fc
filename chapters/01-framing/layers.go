package framing

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Real systems stack limiters, each counting a different dimension with the
// algorithm that fits it: a short fixed window per IP against floods, a long
// sliding log per user for the daily quota, a token bucket per endpoint to
// protect capacity (CONTRACT.md E16). Dimensions are applied together: a request
// must pass every layer. The Identity each layer keys on comes from the
// Identify stage: a verified key's user, an address read by the
// trusted-proxy rule.

// Layer is one limiter in a stack together with the key it counts.
type Layer struct {
	Name    string
	Key     KeyFunc
	Limiter Limiter
	// Cost prices a route for this layer; nil means every request costs 1
	// (window counters usually count requests, buckets may weigh them).
	Cost func(route string) int
}

// Stack evaluates layers in order, like nested middlewares: the first layer
// that rejects answers, and the layers behind it never see the request
// (they spend nothing). Layers in front of it have already counted it, as
// they would in a real chain.
type Stack []Layer

// StackDecision is a stack's answer: the decision of the rejecting layer,
// or on success the allowed decision with the fewest permits left.
type StackDecision struct {
	core.Decision
	Layer string // the layer that rejected, or the tightest one on success
}

// Sweep drops the idle keys of every layer whose limiter is a Sweeper and
// reports how many. Run it on the request clock, e.g. once per the longest
// layer's window, as Limit does for the chain.
func (s Stack) Sweep(now time.Time) int {
	n := 0
	for _, l := range s {
		if sw, ok := l.Limiter.(Sweeper); ok {
			n += sw.Sweep(now)
		}
	}
	return n
}

// AllowN runs the request through every layer in order.
func (s Stack) AllowN(id Identity, route string, now time.Time) (StackDecision, error) {
	var out StackDecision
	for i, l := range s {
		key, err := l.Key(id, route)
		if err != nil {
			return StackDecision{}, fmt.Errorf("layer %s: %w", l.Name, err)
		}
		cost := 1
		if l.Cost != nil {
			cost = l.Cost(route)
		}
		d, err := l.Limiter.AllowN(key, now, cost)
		if err != nil {
			return StackDecision{}, fmt.Errorf("layer %s: %w", l.Name, err)
		}
		if !d.Allowed {
			return StackDecision{Decision: d, Layer: l.Name}, nil
		}
		if i == 0 || d.Remaining < out.Remaining {
			out = StackDecision{Decision: d, Layer: l.Name}
		}
	}
	return out, nil
}
