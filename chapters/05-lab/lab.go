package lab

import (
	"fmt"
	"math"

	"github.com/ratelimit-course/ratelimit/core"
)

// Params is the locked budget every algorithm in a comparison shares. Window
// algorithms read WindowMS, Limit (and SubWindows); bucket algorithms read
// Capacity and RatePerS. The JSON names are the ones CONTRACT-CLI.md §4 prints.
type Params struct {
	WindowMS   int64   `json:"window_ms"`  // W in ms, > 0; also the ruler's width
	Limit      int     `json:"limit"`      // L, >= 1
	Capacity   int     `json:"capacity"`   // C, >= 1
	RatePerS   float64 `json:"rate_per_s"` // R per second, > 0
	SubWindows int     `json:"subwindows"` // sliding counter's N, >= 1 (1 = two counters)
}

// DefaultParams is the CONTRACT-CLI.md §4 default budget: W 1000 ms, L 3, C 3, R 2/s, N 1.
func DefaultParams() Params {
	return Params{WindowMS: 1000, Limit: 3, Capacity: 3, RatePerS: 2, SubWindows: 1}
}

// Validate reports the first bad field as a *core.ParamError whose Param is
// the CLI flag name: window, limit, capacity, rate or subwindows.
func (p Params) Validate() error {
	switch {
	case p.WindowMS <= 0 || p.WindowMS > maxMS:
		return core.BadParam("window", p.WindowMS, "an integer number of ms > 0 (at most 1e12)")
	case p.Limit < 1:
		return core.BadParam("limit", p.Limit, "an integer >= 1")
	case p.Capacity < 1:
		return core.BadParam("capacity", p.Capacity, "an integer >= 1")
	case !(p.RatePerS > 0) || math.IsInf(p.RatePerS, 0):
		return core.BadParam("rate", p.RatePerS, "a finite number > 0 (requests per second)")
	case p.SubWindows < 1 || int64(p.SubWindows) > p.WindowMS:
		return core.BadParam("subwindows", p.SubWindows, fmt.Sprintf("an integer from 1 to the window in ms (%d)", p.WindowMS))
	}
	return nil
}

// Request is one arrival after the algorithm has decided it: the numbers
// only. What the key held afterwards, in words, is Result.Explain's.
type Request struct {
	Index     int    `json:"index"`      // 1-based position in the sequence
	ArrivalMS int64  `json:"arrival_ms"` // when it arrived
	Cost      int    `json:"cost"`       // permits it asked for
	Allowed   bool   `json:"allowed"`    //
	SentMS    *int64 `json:"sent_ms"`    // when it went upstream; nil when rejected
	WaitMS    *int64 `json:"wait_ms"`    // SentMS - ArrivalMS; nil when rejected
	// (A queue whose T = 1000/R is not a whole number of ms departs between
	// milliseconds: SentMS is rounded to the nearest one, while the ruler
	// measures the exact departures.)
}

// Explanation is what one key held right after one request, for people.
type Explanation struct {
	// State is the key's state in words, e.g. "window 0: count 3", "log
	// [820 880 940]", "prev 3 curr 1 est 2.40", "tokens 0.06", "TAT 1500",
	// "TAT 1500, queue [500 1000]". A list longer than 12 shows its ends and
	// its length: "[0 0 1 1 2 2 .. 3 4 4 5 5 6] (13)"; a log of more than
	// 1024 timestamps only its size.
	State string `json:"state"`
	// Why is one line saying why the request was allowed or rejected.
	Why string `json:"why"`
	// Values is how many values the key holds on the hot path after this
	// request (see Metrics.StateValues).
	Values int `json:"-"`
}

// Metrics is the ruler's reading of one run.
type Metrics struct {
	Allowed     int   `json:"allowed"`
	Rejected    int   `json:"rejected"`
	MaxInWindow int   `json:"max_in_window"` // most sent requests in any [s, s+W)
	Overshoot   int   `json:"overshoot"`     // max(0, MaxInWindow - L)
	MaxWaitMS   int64 `json:"max_wait_ms"`   // longest queue wait (leaky-queue only)
	// StateValues is the peak number of values the key keeps on the hot
	// path: fixed 2, log = peak timestamps kept, counter 3, token 2, gcra 1,
	// leaky-queue 1 + peak queued.
	StateValues int `json:"state_values"`
}

// Result is one algorithm's run over one sequence.
type Result struct {
	Algorithm Algorithm `json:"algorithm"`
	Params    Params    `json:"params"`
	Requests  []Request `json:"requests"`
	Metrics   Metrics   `json:"metrics"`
	// MaxWindows are the half-open windows [s, s+W) holding MaxInWindow sent
	// requests, each starting at a sent time, so a UI can frame them.
	MaxWindows [][2]int64 `json:"-"`
	// Boundaries are where the windows the key counted its requests in
	// begin and end (ms, ascending, each once), as the algorithm's own state
	// reports them: for the fixed window the aligned kW its requests fell
	// in and the ends (k+1)W; for the TTL window each opening (a request
	// after the previous window expired) and its expiry W later; for the
	// sliding counter the sub-windows of W/N its requests fell in, rounded
	// to the ms. Nil for the log and the buckets, which count no windows.
	Boundaries []int64 `json:"-"`

	words *explainer // replays the run to put a request in words (Explain)
}

// Run replays arrivals (ms, non-decreasing, from 0 to 1e12) through a fresh key of the
// named algorithm and measures the result. costs gives each request's cost;
// nil means every request costs 1. Bad input returns a *core.ParamError
// naming the CLI flag (algo, arrivals, costs, or a Params field).
func Run(algo Algorithm, p Params, arrivals []int64, costs []int) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	k, err := newStepper(algo, p)
	if err != nil {
		return Result{}, err
	}
	if err := checkArrivals(arrivals); err != nil {
		return Result{}, err
	}
	if costs != nil {
		if len(costs) != len(arrivals) {
			return Result{}, core.BadParam("costs", "("+values(len(costs))+")",
				"one cost per arrival ("+values(len(arrivals))+")")
		}
		for _, c := range costs {
			if c < 1 || c > k.maxCost() {
				return Result{}, core.BadParam("costs", c,
					fmt.Sprintf("integers from 1 to %s (%d)", k.maxCostName(), k.maxCost()))
			}
		}
	}
	return replay(algo, p, k, arrivals, costs), nil
}

// MaxCost is the largest cost one request may carry with the named algorithm
// and budget (L for the window algorithms, C for the buckets) and what it is
// called ("the limit", "the capacity"), for checking costs read from
// elsewhere. Bad input is the *core.ParamError Run would return.
func MaxCost(algo Algorithm, p Params) (max int, name string, err error) {
	if err := p.Validate(); err != nil {
		return 0, "", err
	}
	k, err := newStepper(algo, p)
	if err != nil {
		return 0, "", err
	}
	return k.maxCost(), k.maxCostName(), nil
}

func values(n int) string {
	if n == 1 {
		return "1 value"
	}
	return fmt.Sprintf("%d values", n)
}

// Scenario is one of the lab's prepared comparisons (CONTRACT-CLI.md §4).
type Scenario struct {
	Name     string    // CLI name, e.g. "cross-boundary-spike"
	Title    string    // short human title
	Example  string    // the contract worked example it reproduces, e.g. "E1"
	Lesson   string    // one or two sentences: what to look at
	Arrivals []int64   // ms
	Params   Params    // the budget it is meant to run with
	Left     Algorithm // default left algorithm
	Right    Algorithm // default right algorithm
	// Variants are the other runs the chapter suggests, each with the
	// closing sentence that fits it; Lesson fits the default run only.
	Variants []Variant
}

// Variant is one suggested run of a scenario with other algorithms or
// another budget, and the lesson written for that run.
type Variant struct {
	Left, Right Algorithm
	Params      Params
	Lesson      string
}

// LessonFor is the lesson written for the run of s with these algorithms
// and budget: Lesson for the default run, a variant's for a suggested one,
// and "" for any other run, which no sentence was written for.
func (s Scenario) LessonFor(left, right Algorithm, p Params) string {
	if left == s.Left && right == s.Right && p == s.Params {
		return s.Lesson
	}
	for _, v := range s.Variants {
		if left == v.Left && right == v.Right && p == v.Params {
			return v.Lesson
		}
	}
	return ""
}

// Scenarios are the prepared comparisons in the suggested order. Any other
// arrival sequence is a "custom" run.
var Scenarios = []Scenario{
	{
		Name:    "cross-boundary-spike",
		Title:   "a spike straddling a window boundary",
		Example: "E1",
		Lesson: "Both halves of the spike fit their own aligned window, so the fixed window lets " +
			"2L through in 300 ms; the log measures the real last W and stops at L.",
		Arrivals: []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850},
		Params:   DefaultParams(),
		Left:     FixedWindow,
		Right:    SlidingLog,
	},
	{
		Name:    "prev-crowded-end",
		Title:   "previous window crowded at its end",
		Example: "E4",
		Lesson: "The counter spreads the previous window's 3 evenly, but they sat at its very end: " +
			"it under-estimates and lets 5 through in 540 ms. The log sees them and holds at L.",
		Arrivals: []int64{970, 980, 990, 1500, 1510, 1520},
		Params:   DefaultParams(),
		Left:     SlidingCounter,
		Right:    SlidingLog,
	},
	{
		Name:    "prev-crowded-start",
		Title:   "previous window crowded at its start",
		Example: "E3",
		Lesson: "Now the previous 3 sat at the very start and have long left the last W, yet the " +
			"counter still weighs them in: it over-estimates and falsely rejects 2 the log allows.",
		Arrivals: []int64{0, 10, 20, 1200, 1220, 1240},
		Params:   DefaultParams(),
		Left:     SlidingCounter,
		Right:    SlidingLog,
	},
	{
		Name:    "instant-burst",
		Title:   "one instant burst, two buckets",
		Example: "E6",
		Lesson: "Same C and R, same decisions; only what upstream sees differs. The token bucket " +
			"forwards the burst at once, the queue spaces it T = 500 ms apart. Raise C to 6 next.",
		Arrivals: []int64{0, 10, 20, 30},
		Params:   DefaultParams(),
		Left:     TokenBucket,
		Right:    LeakyQueue,
		Variants: []Variant{
			{Left: GCRA, Right: LeakyQueue, Params: DefaultParams(),
				Lesson: "GCRA decides as the token bucket does, A A A R, and forwards the three at once; " +
					"the queue spaces the same three T = 500 ms apart. Raise C to 6 next."},
			{Left: TokenBucket, Right: LeakyQueue, Params: capacitySix(),
				Lesson: "With C = 6 both take all four. The token bucket forwards them within 30 ms, " +
					"4 in one W, one over L; the queue sends them at 0, 500, 1000 and 1500, at most 2 in any W."},
		},
	},
}

// capacitySix is the default budget with C = 6, E6's second run.
func capacitySix() Params {
	p := DefaultParams()
	p.Capacity = 6
	return p
}

// ScenarioByName finds a prepared scenario.
func ScenarioByName(name string) (Scenario, bool) {
	for _, s := range Scenarios {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// ScenarioNames lists the prepared scenarios' names, for messages.
func ScenarioNames() []string {
	names := make([]string, len(Scenarios))
	for i, s := range Scenarios {
		names[i] = s.Name
	}
	return names
}

// WorstResult is the worst arrival sequence Worst found for one algorithm.
type WorstResult struct {
	Algorithm   Algorithm `json:"algorithm"`
	Params      Params    `json:"params"`
	Arrivals    []int64   `json:"arrivals"`      // the sequence, ms
	MaxInWindow int       `json:"max_in_window"` // upstream in the worst W
	Overshoot   int       `json:"overshoot"`     // max(0, MaxInWindow - L)
	Window      [2]int64  `json:"window"`        // that window, [s, s+W)
	// Bound is the textbook worst case for comparison, e.g. "2L = 6".
	Bound string `json:"bound"`
	// Run is the full replay of Arrivals, for display.
	Run Result `json:"-"`
}
