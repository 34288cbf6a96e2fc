package lab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

// randomRun is a seeded random sequence with random costs through algo, on
// a budget small enough that every algorithm both admits and rejects.
func randomRun(t *testing.T, algo Algorithm, seed uint64, n int) (Params, []int64, []int) {
	t.Helper()
	rng := splitmix(seed)
	p := Params{WindowMS: int64(60 * (1 + rng.intn(30))), Limit: 1 + rng.intn(40), Capacity: 1 + rng.intn(40),
		RatePerS: 0.5 + 30*rng.float64(), SubWindows: 1}
	if algo == SlidingCounter && rng.intn(2) == 0 {
		p.SubWindows = []int{2, 3, 4, 5, 6, 10}[rng.intn(6)]
	}
	arrivals := make([]int64, n)
	costs := make([]int, n)
	t0 := int64(0)
	for i := range arrivals {
		if rng.intn(4) != 0 { // a quarter arrive together
			t0 += int64(rng.exp() * 40)
		}
		arrivals[i] = t0
		costs[i] = 1 + rng.intn(min(3, p.Limit, p.Capacity))
	}
	return p, arrivals, costs
}

// randomResult is Run of randomRun's traffic.
func randomResult(t *testing.T, algo Algorithm, seed uint64, n int) Result {
	t.Helper()
	p, arrivals, costs := randomRun(t, algo, seed, n)
	r, err := Run(algo, p, arrivals, costs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWriteJSONIsMarshal: WriteJSON writes exactly the bytes encoding/json
// gives for the Result, the CONTRACT-CLI.md §4 object, for every algorithm.
func TestWriteJSONIsMarshal(t *testing.T) {
	for _, algo := range Algorithms {
		for seed := range uint64(20) {
			r := randomResult(t, algo, seed, 200)
			want, _ := json.Marshal(r)
			var got bytes.Buffer
			if err := r.WriteJSON(&got, false); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%s seed %d: WriteJSON differs from json.Marshal\n got %.300s\nwant %.300s", algo, seed, got.Bytes(), want)
			}
		}
	}
	var got bytes.Buffer
	if err := (Result{}).WriteJSON(&got, true); err != nil || got.String() != mustMarshal(Result{}) {
		t.Errorf("empty result: %s, want %s", got.String(), mustMarshal(Result{}))
	}
}

func mustMarshal(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestWriteJSONExplain: with explain every request carries Explain's state
// and why, and the numbers are the same as without.
func TestWriteJSONExplain(t *testing.T) {
	for _, algo := range Algorithms {
		r := randomResult(t, algo, 7, 300)
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf, true); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Requests []struct {
				Request
				State string `json:"state"`
				Why   string `json:"why"`
			} `json:"requests"`
			Metrics Metrics `json:"metrics"`
		}
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		words := r.Explanations()
		for i, q := range got.Requests {
			if q.State != words[i].State || q.Why != words[i].Why || q.Allowed != r.Requests[i].Allowed {
				t.Fatalf("%s request %d: %+v, want %+v", algo, i+1, q, words[i])
			}
		}
		if got.Metrics != r.Metrics || strings.Contains(buf.String(), `\u003c`) || strings.Contains(buf.String(), `\u003e`) {
			t.Errorf("%s: metrics %+v, or the comparisons were HTML-escaped: %.200s", algo, got.Metrics, buf.String())
		}
	}
}

// TestExplainInAnyOrder: Explain asked in any order (a cursor jumping
// about) says what Explanations says, and never changes a decision.
func TestExplainInAnyOrder(t *testing.T) {
	for _, algo := range Algorithms {
		r := randomResult(t, algo, 3, 150)
		words := r.Explanations()
		rng := splitmix(11)
		for range 300 {
			i := rng.intn(len(words))
			if rng.intn(3) == 0 && i+1 < len(words) {
				r.Explain(i) // then the next one, stepping forward
				i++
			}
			if got := r.Explain(i); got != words[i] {
				t.Fatalf("%s: Explain(%d) = %+v, want %+v", algo, i, got, words[i])
			}
		}
		if (r.Explain(-1) != Explanation{}) || (r.Explain(len(words)) != Explanation{}) || (Result{}).Explain(0) != (Explanation{}) {
			t.Errorf("%s: an index out of range must be a zero Explanation", algo)
		}
	}
}

// TestStepCountsWhatExplainShows: the numbers-only path counts the same
// values as the chapter's own State (the log's timestamps, the queue's
// waiting departures), so that skipping the words changes no metric.
func TestStepCountsWhatExplainShows(t *testing.T) {
	for _, algo := range Algorithms {
		for seed := range uint64(10) {
			p, arrivals, costs := randomRun(t, algo, seed, 400)
			fast, err1 := newStepper(algo, p)
			slow, err2 := newStepper(algo, p)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			for i, now := range arrivals {
				d1, v1 := fast.step(now, costs[i])
				d2, v2, _, _ := slow.explain(now, costs[i])
				if d1 != d2 || v1 != v2 {
					t.Fatalf("%s seed %d request %d: step %+v %d, explain %+v %d", algo, seed, i+1, d1, v1, d2, v2)
				}
				want := v1
				switch k := slow.(type) {
				case *logKey:
					want = 0
					for _, e := range k.a.State().Entries {
						want += e.Cost
					}
				case *queueKey:
					want = 1 + len(k.a.State().Queue)
				}
				if v1 != want {
					t.Fatalf("%s seed %d request %d: %d values, the chapter's state holds %d", algo, seed, i+1, v1, want)
				}
			}
		}
	}
}

func TestGenerators(t *testing.T) {
	a, err := PoissonArrivals(1000, 60_000, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PoissonArrivals(1000, 60_000, 1)
	c, _ := PoissonArrivals(1000, 60_000, 2)
	// 60,000 expected; a Poisson count has a standard deviation of sqrt(n).
	if n := len(a); math.Abs(float64(n)-60_000) > 5*math.Sqrt(60_000) {
		t.Errorf("poisson 1000/s over 60 s: %d arrivals", n)
	}
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Error("the same seed must give the same sequence, another seed another")
	}
	if !slices.IsSorted(a) || a[0] < 0 || a[len(a)-1] >= 60_000 {
		t.Errorf("arrivals out of order or out of [0, 60000): first %d last %d", a[0], a[len(a)-1])
	}
	if _, err := Run(SlidingLog, DefaultParams(), a, nil); err != nil {
		t.Errorf("generated arrivals must be valid input: %v", err)
	}

	s, _ := SteadyArrivals(3, 2000)
	if !slices.Equal(s, []int64{0, 333, 666, 1000, 1333, 1666}) {
		t.Errorf("steady 3/s over 2 s: %v", s)
	}

	bursts, _ := BurstArrivals(5, 100, 10_000, 1)
	if len(bursts)%5 != 0 || len(bursts) < 5*50 || len(bursts) > 5*150 {
		t.Errorf("bursts of 5 every 100 ms on average over 10 s: %d arrivals", len(bursts))
	}
	for i := 0; i < len(bursts); i += 5 {
		if bursts[i] != bursts[i+4] {
			t.Fatalf("burst at %d is spread: %v", i, bursts[i:i+5])
		}
	}

	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"rate 0", func() error { _, err := PoissonArrivals(0, 1000, 1); return err }, "a rate > 0"},
		{"rate NaN", func() error { _, err := SteadyArrivals(math.NaN(), 1000); return err }, "a rate > 0"},
		{"duration 0", func() error { _, err := PoissonArrivals(1, 0, 1); return err }, "a duration from 1 ms"},
		{"too many", func() error { _, err := PoissonArrivals(1e9, 1e6, 1); return err }, "at most 1e7 requests"},
		{"steady too many", func() error { _, err := SteadyArrivals(1e6, 1e5); return err }, "at most 1e7 requests"},
		{"burst 0", func() error { _, err := BurstArrivals(0, 10, 1000, 1); return err }, "a burst size"},
		{"gap 0", func() error { _, err := BurstArrivals(1, 0, 1000, 1); return err }, "mean gap"},
		{"bursts too many", func() error { _, err := BurstArrivals(1e6, 1, 1e6, 1); return err }, "at most 1e7 requests"},
	} {
		var pe *core.ParamError
		if err := tc.err(); !errors.As(err, &pe) || pe.Param != "traffic" || !strings.Contains(pe.Accept, tc.want) {
			t.Errorf("%s: %v, want a traffic error accepting %q", tc.name, err, tc.want)
		}
	}
}

func TestMaxCost(t *testing.T) {
	p := DefaultParams()
	p.Limit, p.Capacity = 5, 9
	for _, tc := range []struct {
		algo Algorithm
		max  int
		name string
	}{{FixedWindow, 5, "the limit"}, {SlidingCounter, 5, "the limit"}, {GCRA, 9, "the capacity"}, {LeakyQueue, 9, "the capacity"}} {
		if m, name, err := MaxCost(tc.algo, p); err != nil || m != tc.max || name != tc.name {
			t.Errorf("%s: %d %q %v, want %d %q", tc.algo, m, name, err, tc.max, tc.name)
		}
	}
	if _, _, err := MaxCost("nope", p); err == nil {
		t.Error("an unknown algorithm must be an error")
	}
}

// TestRunIsLinear: the engine does the same work per request whatever L or
// C, counted in what it allocates (time is the benchmark's): a log of 1024
// or a queue 1000 deep once copied itself on every request.
func TestRunIsLinear(t *testing.T) {
	arrivals, _ := PoissonArrivals(2000, 20_000, 1)
	bytesPerRequest := func(algo Algorithm, p Params) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Run(algo, p, arrivals, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(arrivals))
	}
	for _, tc := range []struct {
		algo Algorithm
		f    func(p *Params, v int)
	}{
		{SlidingLog, func(p *Params, v int) { p.Limit = v }},
		{LeakyQueue, func(p *Params, v int) { p.Capacity, p.RatePerS = v, 1 }},
	} {
		var got []string
		for _, v := range []int{3, 1000, 1024, 1025} {
			p := DefaultParams()
			tc.f(&p, v)
			b := bytesPerRequest(tc.algo, p)
			got = append(got, fmt.Sprintf("%d: %.0f B", v, b))
			if b > 120 {
				t.Errorf("%s at %d: %.0f bytes per request, want at most 120 (linear, no copies)", tc.algo, v, b)
			}
		}
		t.Logf("%s bytes per request by L or C: %v", tc.algo, got)
	}
}
