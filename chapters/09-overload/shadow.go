package overload

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Shadow runs a limiter in shadow mode: the wrapped algorithm decides every
// request exactly as it would when enforcing, its state included, and a
// rejection is recorded as a would-reject but served anyway. With Enforce the
// decisions pass through unchanged. Either way the limiter sees the same
// calls, so on the same traffic shadow mode counts exactly the rejections
// enforcement would make. Shadow is a core.Algorithm: wrap it in core.Keyed
// for many keys. Not safe for concurrent use on its own.
type Shadow struct {
	alg         core.Algorithm
	Enforce     bool
	WouldReject int // rejections served anyway (shadow mode)
	Rejected    int // rejections enforced
}

// NewShadow wraps alg, in shadow mode unless enforce.
func NewShadow(alg core.Algorithm, enforce bool) *Shadow {
	return &Shadow{alg: alg, Enforce: enforce}
}

// MaxCost is the wrapped algorithm's.
func (s *Shadow) MaxCost() int { return s.alg.MaxCost() }

// AllowN decides with the wrapped algorithm. In shadow mode a rejection comes
// back Allowed (with the true Remaining, so quota headers stay honest) and is
// counted in WouldReject. A bad cost is passed through: it is a caller's bug
// to be seen, not a would-reject.
func (s *Shadow) AllowN(now time.Time, cost int) core.Decision {
	d := s.alg.AllowN(now, cost)
	switch {
	case d.Allowed || cost < 1 || cost > s.alg.MaxCost():
		return d
	case s.Enforce:
		s.Rejected++
		return d
	}
	s.WouldReject++
	return core.Decision{Allowed: true, Remaining: d.Remaining}
}

// NearLimit fires when a key's Remaining stays below a fraction of its
// maximum for a set time: a warning, before the key is rejected, that a
// customer is about to hit its limit (or already lives at it). It fires once
// per episode and re-arms when Remaining recovers.
type NearLimit struct {
	max      int
	fraction float64
	hold     time.Duration
	since    time.Time // when the current low episode began; zero if none
	fired    bool
}

// NewNearLimit watches a key whose Remaining is at most max (1 to 1e9) for
// staying below fraction × max (above 0, at most 1) for hold (1 ns to 1e18 ns).
func NewNearLimit(max int, fraction float64, hold time.Duration) (*NearLimit, error) {
	if err := core.CheckCount("max", max); err != nil {
		return nil, err
	}
	if !(fraction > 0 && fraction <= 1) {
		return nil, core.BadParam("fraction", fraction, "a number above 0 and at most 1")
	}
	if err := core.CheckWindow("hold", hold); err != nil {
		return nil, err
	}
	return &NearLimit{max: max, fraction: fraction, hold: hold}, nil
}

// Observe takes the key's decision at now and reports whether the signal
// fires on it.
func (n *NearLimit) Observe(now time.Time, d core.Decision) bool {
	if float64(d.Remaining) >= n.fraction*float64(n.max) {
		n.since, n.fired = time.Time{}, false
		return false
	}
	if n.since.IsZero() {
		n.since = now
	}
	if n.fired || now.Sub(n.since) < n.hold {
		return false
	}
	n.fired = true
	return true
}
