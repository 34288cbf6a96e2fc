package lab

import (
	"fmt"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// A stepper is one key of one chapter algorithm, wrapped so the lab can read
// its state in words. The wrappers live in algorithms.go; they call the
// chapters' own AllowN and State and never re-implement a rule.
type stepper interface {
	// step decides one request and describes the key right after it: the
	// state in words, one line on why, and how many values the key holds.
	step(nowMS int64, cost int) (d core.Decision, state, why string, values int)
	// allow decides without describing: the fast path for searches.
	allow(nowMS int64, cost int) core.Decision
	maxCost() int
	maxCostName() string // "the limit" or "the capacity", for messages
}

const msNS = int64(time.Millisecond)

// at turns lab milliseconds into the time.Time the chapters take.
func at(ms int64) time.Time { return time.UnixMilli(ms) }

// maxMS bounds arrivals and the window (about 31 years in ms), so that every
// instant stays an exact int64 count of nanoseconds with room to add W.
const maxMS = 1_000_000_000_000

func checkArrivals(arrivals []int64) error {
	const accept = "integers from 0 to 1e12 in non-decreasing order (ms), comma-separated"
	for i, t := range arrivals {
		if t < 0 || t > maxMS {
			return core.BadParam("arrivals", t, accept)
		}
		if i > 0 && t < arrivals[i-1] {
			return core.BadParam("arrivals", fmt.Sprintf("%d after %d", t, arrivals[i-1]), accept)
		}
	}
	return nil
}

// replay runs validated input through k and measures it.
func replay(algo string, p Params, k stepper, arrivals []int64, costs []int) Result {
	res := Result{Algorithm: algo, Params: p, Requests: make([]Request, len(arrivals))}
	sentNS := make([]int64, 0, len(arrivals))
	m := &res.Metrics
	for i, t := range arrivals {
		cost := 1
		if costs != nil {
			cost = costs[i]
		}
		d, state, why, values := k.step(t, cost)
		r := Request{Index: i + 1, ArrivalMS: t, Cost: cost, Allowed: d.Allowed,
			State: state, Why: why, StateValues: values}
		if d.Allowed {
			m.Allowed++
			sent := t*msNS + int64(d.Wait)
			sentNS = append(sentNS, sent)
			sentMS := roundMS(sent)
			waitMS := sentMS - t
			r.SentMS, r.WaitMS = &sentMS, &waitMS
			m.MaxWaitMS = max(m.MaxWaitMS, waitMS)
		} else {
			m.Rejected++
		}
		m.StateValues = max(m.StateValues, values)
		res.Requests[i] = r
	}
	var windowsNS [][2]int64
	m.MaxInWindow, windowsNS = core.MaxInWindow(sentNS, p.WindowMS*msNS)
	m.Overshoot = max(0, m.MaxInWindow-p.Limit)
	for _, w := range windowsNS {
		res.MaxWindows = append(res.MaxWindows, [2]int64{roundMS(w[0]), roundMS(w[1])})
	}
	return res
}

// roundMS rounds nanoseconds to the nearest millisecond. Departures from the
// leaky queue need it when T = 1000/R is not a whole number of ms; the ruler
// itself always measures the exact times.
func roundMS(ns int64) int64 { return (ns + msNS/2) / msNS }

// listShown is how many values a state's list prints in full. A longer one
// (a log of thousands, a deep queue) shows its ends and its length, so a
// snapshot stays one readable line and a long run stays linear.
const listShown = 12

// listText formats n items as "[a b c]", or "[a b c d e .. v w x y z] (n)"
// when n is over listShown.
func listText(n int, item func(i int) string) string {
	parts := make([]string, 0, min(n, listShown+1))
	if n <= listShown {
		for i := range n {
			parts = append(parts, item(i))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	for i := range listShown / 2 {
		parts = append(parts, item(i))
	}
	parts = append(parts, "..")
	for i := n - listShown/2; i < n; i++ {
		parts = append(parts, item(i))
	}
	return fmt.Sprintf("[%s] (%d)", strings.Join(parts, " "), n)
}

// num formats a float the way the course prints estimates and tokens.
func num(f float64) string { return fmt.Sprintf("%.2f", f) }
