package lab

import (
	"fmt"
	"io"
	"testing"
)

// The lab at scale: what `tui sim --json` does for one algorithm, the engine
// and the JSON output, on generated traffic. The README's table comes from
//
//	go test -run '^$' -bench 'Scale|Cliff|Worst' -benchmem ./chapters/05-lab/

// runJSON replays arrivals and writes the CONTRACT-CLI.md §4 JSON, numbers only.
func runJSON(algo Algorithm, p Params, arrivals []int64) error {
	r, err := Run(algo, p, arrivals, nil)
	if err != nil {
		return err
	}
	return r.WriteJSON(io.Discard, false)
}

func benchRun(b *testing.B, algo Algorithm, p Params, arrivals []int64) {
	b.ReportAllocs()
	for b.Loop() {
		if err := runJSON(algo, p, arrivals); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(arrivals)), "ns/request")
}

// BenchmarkScale: 100k and 1M requests of Poisson traffic at 4 per second
// (a little over the budget, so every algorithm both admits and rejects)
// through each algorithm at the default budget.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		arrivals, err := PoissonArrivals(4, int64(n)*250, 1)
		if err != nil {
			b.Fatal(err)
		}
		for _, algo := range Algorithms {
			b.Run(fmt.Sprintf("n=%d/%s", n, algo), func(b *testing.B) {
				benchRun(b, algo, DefaultParams(), arrivals)
			})
		}
	}
}

// BenchmarkCliff: 100k requests at 2000 per second against a log of about
// 1000 entries and a queue about 1000 deep. The time per request must not
// depend on L or C.
func BenchmarkCliff(b *testing.B) {
	arrivals, err := PoissonArrivals(2000, 50_000, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range []int{1000, 1024, 1025, 4096} {
		p := DefaultParams()
		p.Limit = l
		b.Run(fmt.Sprintf("sliding-log/L=%d", l), func(b *testing.B) { benchRun(b, SlidingLog, p, arrivals) })
	}
	for _, c := range []int{100, 1000, 1025, 4096} {
		p := DefaultParams()
		p.Capacity, p.RatePerS = c, 1
		b.Run(fmt.Sprintf("leaky-queue/C=%d,R=1", c), func(b *testing.B) { benchRun(b, LeakyQueue, p, arrivals) })
	}
}

// BenchmarkWorst: the worst-case search at L = C = R·W = s, up to s = 100
// (a fixed window's 2L = 200 requests; a token bucket's C + R·W = 200).
func BenchmarkWorst(b *testing.B) {
	for _, s := range []int{3, 10, 30, 100} {
		p := Params{WindowMS: 1000, Limit: s, Capacity: s, RatePerS: float64(s), SubWindows: 1}
		for _, algo := range Algorithms {
			b.Run(fmt.Sprintf("s=%d/%s", s, algo), func(b *testing.B) {
				for b.Loop() {
					if _, err := Worst(algo, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
