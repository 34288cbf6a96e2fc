package lab

import (
	"errors"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

// Algorithms lists the CLI names of every algorithm the lab can run (SPEC §2),
// in the order the course introduces them.
var Algorithms = []string{
	"fixed-window",
	"fixed-window-ttl",
	"sliding-log",
	"sliding-counter",
	"token-bucket",
	"gcra",
	"leaky-queue",
}

// Params is the locked budget every algorithm in a comparison shares. Window
// algorithms read WindowMS, Limit (and SubWindows); bucket algorithms read
// Capacity and RatePerS. The JSON names are the ones SPEC §4 prints.
type Params struct {
	WindowMS   int64   `json:"window_ms"`  // W in ms, > 0; also the ruler's width
	Limit      int     `json:"limit"`      // L, >= 1
	Capacity   int     `json:"capacity"`   // C, >= 1
	RatePerS   float64 `json:"rate_per_s"` // R per second, > 0
	SubWindows int     `json:"subwindows"` // sliding counter's N, >= 1 (1 = two counters)
}

// DefaultParams is the SPEC §4 default budget: W 1000 ms, L 3, C 3, R 2/s, N 1.
func DefaultParams() Params {
	return Params{WindowMS: 1000, Limit: 3, Capacity: 3, RatePerS: 2, SubWindows: 1}
}

// Validate reports the first bad field as a *framing.ParamError whose Param is
// the CLI flag name: window, limit, capacity, rate or subwindows.
func (p Params) Validate() error {
	return errors.New("TODO")
}

// Request is one arrival after the algorithm has decided it.
type Request struct {
	Index     int    `json:"index"`      // 1-based position in the sequence
	ArrivalMS int64  `json:"arrival_ms"` // when it arrived
	Cost      int    `json:"cost"`       // permits it asked for
	Allowed   bool   `json:"allowed"`    //
	SentMS    *int64 `json:"sent_ms"`    // when it went upstream; nil when rejected
	WaitMS    *int64 `json:"wait_ms"`    // SentMS - ArrivalMS; nil when rejected

	// State is the key's state right after this request, in words, e.g.
	// "window 0: count 3", "log [820 880 940]", "prev 3 curr 1 est 2.40",
	// "tokens 0.06", "TAT 1500", "TAT 1500, queue [500 1000]".
	State string `json:"-"`
	// Why is one line saying why the request was allowed or rejected.
	Why string `json:"-"`
	// StateValues is how many values the key holds on the hot path after
	// this request (see Metrics.StateValues).
	StateValues int `json:"-"`
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
	Algorithm string    `json:"algorithm"`
	Params    Params    `json:"params"`
	Requests  []Request `json:"requests"`
	Metrics   Metrics   `json:"metrics"`
	// MaxWindows are the half-open windows [s, s+W) holding MaxInWindow sent
	// requests, each starting at a sent time, so a UI can frame them.
	MaxWindows [][2]int64 `json:"-"`
}

// Run replays arrivals (ms, non-decreasing, >= 0) through a fresh key of the
// named algorithm and measures the result. costs gives each request's cost;
// nil means every request costs 1. Bad input returns a *framing.ParamError
// naming the CLI flag (algo, arrivals, costs, or a Params field).
func Run(algo string, p Params, arrivals []int64, costs []int) (Result, error) {
	return Result{}, errors.New("TODO")
}

// Scenario is one of the lab's prepared comparisons (SPEC §4).
type Scenario struct {
	Name     string  // CLI name, e.g. "cross-boundary-spike"
	Title    string  // short human title
	Example  string  // the SPEC worked example it reproduces, e.g. "E1"
	Lesson   string  // one or two sentences: what to look at
	Arrivals []int64 // ms
	Params   Params  // the budget it is meant to run with
	Left     string  // default left algorithm
	Right    string  // default right algorithm
}

// Scenarios are the prepared comparisons in the suggested order. Any other
// arrival sequence is a "custom" run.
var Scenarios = []Scenario{}

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
	Algorithm   string   `json:"algorithm"`
	Params      Params   `json:"params"`
	Arrivals    []int64  `json:"arrivals"`      // the sequence, ms
	MaxInWindow int      `json:"max_in_window"` // upstream in the worst W
	Overshoot   int      `json:"overshoot"`     // max(0, MaxInWindow - L)
	Window      [2]int64 `json:"window"`        // that window, [s, s+W)
	// Bound is the textbook worst case for comparison, e.g. "2L = 6".
	Bound string `json:"bound"`
	// Run is the full replay of Arrivals, for display.
	Run Result `json:"-"`
}

// Worst searches for the arrival sequence (cost 1) that gets the most
// requests upstream inside one window of width W. The search is
// deterministic: structured candidates (bursts either side of a window
// boundary, uneven splits) followed by a seeded local search on integer ms.
func Worst(algo string, p Params) (WorstResult, error) {
	return WorstResult{}, errors.New("TODO")
}

// AccuracyReport compares the sliding counter with the exact sliding log on
// the same ordinary traffic.
type AccuracyReport struct {
	Seed            int64
	Keys            int
	Requests        int     // total requests decided
	WronglyAllowed  int     // counter allowed, log rejected
	WronglyRejected int     // counter rejected, log allowed
	AllowedShare    float64 // WronglyAllowed / Requests
	RejectedShare   float64 // WronglyRejected / Requests
}

// Accuracy runs seeded Poisson arrivals for many keys through the sliding
// counter and the sliding log with the same budget and counts the requests
// they decide differently.
func Accuracy(p Params, seed int64, keys int, meanPerWindow float64, windows int) (AccuracyReport, error) {
	return AccuracyReport{}, errors.New("TODO")
}

var _ = framing.BadParam
