package lab

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// A stepper is one key of one chapter algorithm, wrapped so the lab can read
// its state. The wrappers live in algorithms.go; they call the chapters' own
// AllowN and State and never re-implement a rule.
type stepper interface {
	// step decides one request and counts the values the key holds right
	// after it: the numbers, and nothing a person would read.
	step(nowMS int64, cost int) (d core.Decision, values int)
	// explain is step that also puts the key in words: its state right
	// after the request and one line on why. It decides exactly as step,
	// so a replay may mix the two; only explain formats or copies state.
	explain(nowMS int64, cost int) (d core.Decision, values int, state, why string)
	// allow decides and nothing else: the searches' path. A key driven by
	// allow is not driven by step or explain.
	allow(nowMS int64, cost int) core.Decision
	// window is the window the key counted its latest request in, [from,
	// to) in ns, read from the algorithm's own state after step; ok is
	// false for the algorithms that count no windows (the log, the buckets).
	window() (from, to int64, ok bool)
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

// replay runs validated input through k and measures it: the decisions, the
// send times and the ruler's reading, in time and memory linear in the
// number of requests whatever L or C. Nothing is put in words here; the
// Result keeps what Explain needs to replay a request when someone asks.
func replay(algo Algorithm, p Params, k stepper, arrivals []int64, costs []int) Result {
	res := Result{Algorithm: algo, Params: p, Requests: make([]Request, len(arrivals))}
	sentNS := make([]int64, 0, len(arrivals))
	var times []int64 // SentMS and WaitMS point into it, two per allowed request
	m := &res.Metrics
	for i, t := range arrivals {
		cost := 1
		if costs != nil {
			cost = costs[i]
		}
		d, values := k.step(t, cost)
		r := &res.Requests[i]
		*r = Request{Index: i + 1, ArrivalMS: t, Cost: cost, Allowed: d.Allowed}
		if d.Allowed {
			m.Allowed++
			sent := t*msNS + int64(d.Wait)
			sentNS = append(sentNS, sent)
			if len(times) == cap(times) {
				times = make([]int64, 0, min(2*(len(arrivals)-i), 1<<14))
			}
			sentMS := roundMS(sent)
			times = append(times, sentMS, sentMS-t)
			r.SentMS, r.WaitMS = &times[len(times)-2], &times[len(times)-1]
			m.MaxWaitMS = max(m.MaxWaitMS, sentMS-t)
		} else {
			m.Rejected++
		}
		m.StateValues = max(m.StateValues, values)
		if from, to, ok := k.window(); ok {
			for _, b := range [2]int64{roundMS(from), roundMS(to)} {
				if n := len(res.Boundaries); n == 0 || b > res.Boundaries[n-1] {
					res.Boundaries = append(res.Boundaries, b)
				}
			}
		}
	}
	var windowsNS [][2]int64
	m.MaxInWindow, windowsNS = core.MaxInWindow(sentNS, p.WindowMS*msNS)
	m.Overshoot = max(0, m.MaxInWindow-p.Limit)
	res.MaxWindows = make([][2]int64, 0, len(windowsNS))
	for _, w := range windowsNS {
		res.MaxWindows = append(res.MaxWindows, [2]int64{roundMS(w[0]), roundMS(w[1])})
	}
	if len(res.MaxWindows) == 0 {
		res.MaxWindows = nil
	}
	res.words = &explainer{algo: algo, p: p, requests: res.Requests}
	return res
}

// explainer puts the requests of one run in words by replaying them on a
// fresh key: explain for the one asked about, step for those before it. It
// keeps its key where it stopped, so asking for the requests in order (a
// printed table, a cursor moving right) costs one step each, and asking
// again for the same one costs nothing.
type explainer struct {
	algo     Algorithm
	p        Params
	requests []Request

	mu   sync.Mutex
	k    stepper // has seen requests[:next]
	next int
	last Explanation // of requests[next-1]
}

func (e *explainer) at(i int) Explanation {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.k != nil && i == e.next-1 {
		return e.last
	}
	if e.k == nil || i < e.next {
		e.k, e.next = mustStepper(e.algo, e.p), 0
	}
	for ; e.next < i; e.next++ {
		q := e.requests[e.next]
		e.k.step(q.ArrivalMS, q.Cost)
	}
	q := e.requests[i]
	_, values, state, why := e.k.explain(q.ArrivalMS, q.Cost)
	e.last, e.next = Explanation{State: state, Why: why, Values: values}, i+1
	return e.last
}

func mustStepper(algo Algorithm, p Params) stepper {
	k, err := newStepper(algo, p)
	if err != nil {
		panic("lab: a run's own algorithm failed to build: " + err.Error())
	}
	return k
}

// Explain describes request i (0-based, as in Requests) of the run: the
// key's state right after it and why it was decided so. It replays the run
// up to i on a fresh key, or on from the request explained last, so a
// viewer that shows one request at a time pays for that one. Safe for
// concurrent use; an i out of range is a zero Explanation.
func (r Result) Explain(i int) Explanation {
	if r.words == nil || i < 0 || i >= len(r.words.requests) {
		return Explanation{}
	}
	return r.words.at(i)
}

// Explanations describes every request of the run in one replay: what a
// table of all of them needs.
func (r Result) Explanations() []Explanation {
	if r.words == nil {
		return nil
	}
	out := make([]Explanation, len(r.words.requests))
	k := mustStepper(r.words.algo, r.words.p)
	for i, q := range r.words.requests {
		_, values, state, why := k.explain(q.ArrivalMS, q.Cost)
		out[i] = Explanation{State: state, Why: why, Values: values}
	}
	return out
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
