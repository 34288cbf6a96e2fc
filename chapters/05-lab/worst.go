package lab

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// maxWorstRequests bounds how large a burst the search has to build (the
// textbook bound b below): up to it Worst stays well under a second for
// every algorithm (BenchmarkWorst); L = 100 is 2L = 200 for a fixed window.
const maxWorstRequests = 256

// nearBoundary is how many ms on either side of a window boundary every
// start is tried, and denseOpenings how large a budget tries every opening
// burst; past them the search samples (see structured and starts).
const (
	nearBoundary  = 40
	denseOpenings = 8
)

// Worst searches for the arrival sequence (cost 1) that gets the most
// requests upstream inside one window of width W, and replays it.
//
// The search is deterministic. First it tries structured candidates: an
// optional opening burst (nothing, one request, or j requests at 0) followed
// by a greedy attack from a start s, where every request is sent at the
// earliest moment the key admits it (the rejection's RetryAfter says when).
// The starts cover a grid over two windows plus every millisecond next to a
// window boundary, which is where the interesting sequences live. Then a
// seeded local search moves, adds and drops single arrivals while the count
// does not fall. Rejected arrivals never help an attacker, so the sequence
// reported keeps only the allowed ones.
//
// Its cost, for a textbook bound b (2L, C + R·W, ...; at most 256): at most
// 8 + 8 openings times at most 200 + 3·81 starts greedy attacks of O(b)
// decisions each, then 4000 local moves of O(b log b): O(b log b) in all,
// with constants that keep b = 200 well under a second.
func Worst(algo Algorithm, p Params) (WorstResult, error) {
	if err := p.Validate(); err != nil {
		return WorstResult{}, err
	}
	if _, err := newStepper(algo, p); err != nil {
		return WorstResult{}, err
	}
	bound, boundText := textbookBound(algo, p)
	if bound > maxWorstRequests {
		return WorstResult{}, tooLarge(algo, p)
	}
	s := searcher{algo: algo, p: p, w: p.WindowMS, maxLen: 4*int(bound) + 16}

	best := s.structured()
	best = s.local(best, 4000)

	run := replay(algo, p, s.fresh(), best.arrivals, nil)
	wr := WorstResult{
		Algorithm:   algo,
		Params:      p,
		Arrivals:    best.arrivals,
		MaxInWindow: run.Metrics.MaxInWindow,
		Overshoot:   run.Metrics.Overshoot,
		Bound:       boundText,
		Run:         run,
	}
	if len(run.MaxWindows) > 0 {
		wr.Window = run.MaxWindows[0]
	}
	return wr, nil
}

// textbookBound is the worst case the chapters state (CONTRACT.md §3 E19), as a
// number to size the search and as text to print beside what it found.
func textbookBound(algo Algorithm, p Params) (float64, string) {
	l := float64(p.Limit)
	rw := p.RatePerS * float64(p.WindowMS) / 1000
	switch algo {
	case FixedWindow:
		return 2 * l, fmt.Sprintf("2L = %d", 2*p.Limit)
	case FixedWindowTTL:
		return 2*l - 1, fmt.Sprintf("2L-1 = %d", 2*p.Limit-1)
	case SlidingLog:
		return l, fmt.Sprintf("L = %d", p.Limit)
	case SlidingCounter:
		return 2 * l, fmt.Sprintf("2L = %d (the estimate is not a bound)", 2*p.Limit)
	case TokenBucket, GCRA:
		return float64(p.Capacity) + math.Ceil(rw),
			fmt.Sprintf("just under C + R*W = %g", float64(p.Capacity)+rw)
	default: // leaky-queue
		return math.Ceil(rw) + 1, fmt.Sprintf("about R*W = %g (departures are T apart)", rw)
	}
}

// tooLarge names the flag that makes the worst case too large to build and
// the values that would fit.
func tooLarge(algo Algorithm, p Params) error {
	most := fmt.Sprintf("the search builds at most %d requests", maxWorstRequests)
	_, bound := textbookBound(algo, p)
	switch algo {
	case FixedWindow, FixedWindowTTL, SlidingCounter:
		return core.BadParam("limit", p.Limit, fmt.Sprintf("an integer from 1 to %d (%s; %s)", maxWorstRequests/2, most, bound))
	case SlidingLog:
		return core.BadParam("limit", p.Limit, fmt.Sprintf("an integer from 1 to %d (%s)", maxWorstRequests, most))
	case TokenBucket, GCRA:
		if p.Capacity >= maxWorstRequests {
			return core.BadParam("capacity", p.Capacity, fmt.Sprintf("an integer from 1 to %d (%s; %s)", maxWorstRequests-1, most, bound))
		}
		return core.BadParam("rate", p.RatePerS, fmt.Sprintf("at most %g per second with C = %d and W = %d ms (%s; %s)",
			float64(maxWorstRequests-p.Capacity)*1000/float64(p.WindowMS), p.Capacity, p.WindowMS, most, bound))
	}
	return core.BadParam("rate", p.RatePerS, fmt.Sprintf("at most %g per second with W = %d ms (%s; %s)",
		float64(maxWorstRequests-1)*1000/float64(p.WindowMS), p.WindowMS, most, bound))
}

type searcher struct {
	algo   Algorithm
	p      Params
	w      int64 // window in ms
	maxLen int
}

type candidate struct {
	arrivals []int64
	score    int   // max sent in any W
	burst    int64 // ns from first to last sent request in the first such W
}

// better prefers more upstream, then the tighter burst (it makes the point
// best), then the shorter sequence, then the earlier.
func (c candidate) better(o candidate) bool {
	if c.score != o.score {
		return c.score > o.score
	}
	if c.burst != o.burst {
		return c.burst < o.burst
	}
	if len(c.arrivals) != len(o.arrivals) {
		return len(c.arrivals) < len(o.arrivals)
	}
	for i := range c.arrivals {
		if c.arrivals[i] != o.arrivals[i] {
			return c.arrivals[i] < o.arrivals[i]
		}
	}
	return false
}

func (s *searcher) fresh() stepper {
	k, _ := newStepper(s.algo, s.p) // validated in Worst
	return k
}

// score replays arrivals on a fresh key and reads the ruler. Rejected
// arrivals never help an attacker (no algorithm here lets a rejection lower a
// later count), so the candidate keeps only the allowed ones.
func (s *searcher) score(arrivals []int64) candidate {
	k := s.fresh()
	kept := make([]int64, 0, len(arrivals))
	sent := make([]int64, 0, len(arrivals))
	for _, t := range arrivals {
		if d := k.allow(t, 1); d.Allowed {
			kept = append(kept, t)
			sent = append(sent, t*msNS+int64(d.Wait))
		}
	}
	return s.measure(kept, sent)
}

// measure reads the ruler over the sent times of the kept arrivals: the
// most inside any [s, s+W) and, for the first such window, how tight the
// burst in it is. It is core.MaxInWindow's reading (TestBusiest), without
// the copy and the list of every window the search does not need.
func (s *searcher) measure(kept, sent []int64) candidate {
	if !slices.IsSorted(sent) { // departures and arrivals are in order: never
		slices.Sort(sent)
	}
	n, first := busiest(sent, s.w*msNS)
	c := candidate{arrivals: kept, score: n}
	if n > 0 {
		last := first
		for _, t := range sent {
			if t >= first && t < first+s.w*msNS {
				last = max(last, t)
			}
		}
		c.burst = last - first
	}
	return c
}

// busiest is the ruler over sorted times: the most inside any [s, s+w), and
// the earliest sent time s that starts such a window.
func busiest(sorted []int64, w int64) (best int, first int64) {
	j := 0
	for i, t := range sorted {
		for j < len(sorted) && sorted[j] < t+w {
			j++
		}
		if j-i > best {
			best, first = j-i, t
		}
	}
	return best, first
}

// structured tries every opening burst with a greedy attack from every start.
func (s *searcher) structured() candidate {
	var best candidate
	for _, j := range s.openings() {
		open := make([]int64, j) // j requests at 0
		for _, start := range s.starts(j > 0) {
			if c := s.greedy(open, start); c.better(best) {
				best = c
			}
		}
	}
	return best
}

// openings lists the sizes of the opening burst at 0 to try: none, and every
// size up to max(L, C) when that is at most denseOpenings; for a larger
// budget the small ones and those near L and C (a burst that fills, or
// nearly fills, the key), which is where the worst cases start. More than
// maxLen at 0 is the same as maxLen: the attack has no room left (without
// the cap a window algorithm with a huge C would try a hundred thousand).
func (s *searcher) openings() []int {
	most := min(max(s.p.Limit, s.p.Capacity), s.maxLen)
	out := []int{0}
	for j := 1; j <= most; j++ {
		near := func(v int) bool { return v-2 <= j && j <= v || j == v/2 }
		if most <= denseOpenings || j <= denseOpenings || near(s.p.Limit) || near(s.p.Capacity) || j == most {
			out = append(out, j)
		}
	}
	return out
}

// starts lists attack starts over [0, 2W): a coarse grid plus every ms within
// a few of a window boundary (a window boundary, or the end of a TTL window
// opened at 0, both sit at multiples of W here).
func (s *searcher) starts(afterOpening bool) []int64 {
	set := map[int64]bool{}
	step := max(1, s.w/100)
	for t := int64(0); t < 2*s.w; t += step {
		set[t] = true
	}
	near := int64(min(s.maxLen, nearBoundary))
	for _, b := range []int64{0, s.w, 2 * s.w} {
		for d := -near; d <= near; d++ {
			if t := b + d; t >= 0 && t <= 2*s.w {
				set[t] = true
			}
		}
	}
	if afterOpening {
		delete(set, 0) // the opening already sits there
	}
	out := make([]int64, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// greedy sends the opening, then from start on sends each request at the
// earliest moment the key admits it, for one window, and measures what it
// sent (the same reading score would give the sequence).
func (s *searcher) greedy(open []int64, start int64) candidate {
	k := s.fresh()
	kept := make([]int64, 0, s.maxLen)
	sent := make([]int64, 0, s.maxLen)
	tried := 0
	send := func(t int64) core.Decision {
		tried++
		d := k.allow(t, 1)
		if d.Allowed {
			kept, sent = append(kept, t), append(sent, t*msNS+int64(d.Wait))
		}
		return d
	}
	for _, t := range open {
		send(t)
	}
	for t := start; t < start+s.w && tried < s.maxLen; {
		if d := send(t); !d.Allowed {
			t += max(1, ceilMS(d.RetryAfter))
		}
	}
	return s.measure(kept, sent)
}

func ceilMS(d time.Duration) int64 { return (int64(d) + msNS - 1) / msNS }

// local is a seeded hill climb: move one arrival, duplicate one, or drop one,
// keeping any change that does not lower the count (plateaus are how it walks
// between shapes).
func (s *searcher) local(start candidate, iters int) candidate {
	rng := splitmix(0x5eed)
	cur, best := start, start
	steps := []int64{1, 2, 3, 10, max(1, s.w/10), max(1, s.w/3), s.w}
	for range iters {
		a := append([]int64(nil), cur.arrivals...)
		switch op := rng.intn(3); {
		case len(a) == 0 || op == 1 && len(a) < s.maxLen:
			t := int64(0)
			if len(a) > 0 {
				t = a[rng.intn(len(a))]
			}
			a = append(a, max(0, t+rng.sign()*steps[rng.intn(len(steps))]*int64(rng.intn(2))))
		case op == 2 && len(a) > 1:
			i := rng.intn(len(a))
			a = append(a[:i], a[i+1:]...)
		default:
			i := rng.intn(len(a))
			a[i] = max(0, a[i]+rng.sign()*steps[rng.intn(len(steps))])
		}
		slices.Sort(a)
		c := s.score(a)
		if c.score >= cur.score {
			cur = c
		}
		if c.better(best) {
			best = c
		}
	}
	return best
}

// splitmix is a tiny seeded generator (SplitMix64). The lab owns it so that
// its searches and traffic give the same numbers on every Go version.
type splitmix uint64

func (r *splitmix) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *splitmix) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *splitmix) sign() int64 {
	if r.next()&1 == 0 {
		return -1
	}
	return 1
}

// float64 is uniform in [0, 1).
func (r *splitmix) float64() float64 { return float64(r.next()>>11) / (1 << 53) }

// exp is exponentially distributed with mean 1 (a Poisson stream's gaps).
func (r *splitmix) exp() float64 { return -math.Log(1 - r.float64()) }
