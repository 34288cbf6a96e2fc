package overload

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// steady is one region's arrivals: perSec evenly spaced for span.
func steady(perSec int, span time.Duration) []time.Duration {
	var out []time.Duration
	for at := time.Duration(0); at < span; at += time.Second / time.Duration(perSec) {
		out = append(out, at)
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestE27_ManyRegions (CONTRACT.md E27): a global 1,000 per minute over three
// regions whose demand is 700/200/100. Static thirds (333 each) admit 633;
// counters shared with a 2 s lag, each region at 10/s, overshoot by at most
// 3 × 10 × 2 = 60; leases from a coordinator weighted by demand admit all
// 1,000 and no more.
func TestE27_ManyRegions(t *testing.T) {
	demand := []int{700, 200, 100}
	static, err := StaticSplit(1000, demand)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{333, 200, 100}; !equalInts(static, want) || sum(static) != 633 {
		t.Errorf("static split admits %v = %d, want %v = 633", static, sum(static), want)
	}
	leases, err := Leases(1000, demand)
	if err != nil {
		t.Fatal(err)
	}
	if !equalInts(leases, demand) || sum(leases) != 1000 {
		t.Errorf("leases %v, want %v: all 1,000 admitted", leases, demand)
	}
	arrivals := [][]time.Duration{steady(10, time.Minute), steady(10, time.Minute), steady(10, time.Minute)}
	lagged, err := Lagged(1000, arrivals, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	over := sum(lagged) - 1000
	if over <= 0 || over > 60 {
		t.Errorf("lagged counters admit %v = %d, overshoot %d, want 1..60", lagged, sum(lagged), over)
	}
	// Each region sees its own requests at once and misses only the other
	// two regions' requests of the last 2 s, 19 each (the one exactly 2 s ago
	// is seen): 38, inside the bound of 60, which also counts each region's own.
	if over != 38 {
		t.Errorf("overshoot %d, want 38 = 2 × 19 for three symmetric regions", over)
	}
	exact, _ := Lagged(1000, arrivals, 0)
	if sum(exact) != 1000 {
		t.Errorf("with no lag the shared counter admits %d, want exactly 1,000", sum(exact))
	}
}

// TestLaggedOvershootBound: for any arrivals at most r per second per region
// (gaps of at least 1/r) and any lag, the regions together admit at most
// limit − 1 + regions × ⌈r × lag⌉: the last admission saw a total below the
// limit as of one lag before, and since then each region admitted at most
// ⌈r × lag⌉.
func TestLaggedOvershootBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(27, 27))
	for range 300 {
		n, r := 1+rnd.IntN(5), 1+rnd.IntN(20)
		lag := time.Duration(rnd.Int64N(int64(3 * time.Second)))
		limit := 1 + rnd.IntN(300)
		arrivals := make([][]time.Duration, n)
		for i := range arrivals {
			at := time.Duration(rnd.Int64N(int64(time.Second)))
			for at < 40*time.Second {
				arrivals[i] = append(arrivals[i], at)
				at += time.Second/time.Duration(r) + time.Duration(rnd.Int64N(int64(time.Second/time.Duration(r))))
			}
		}
		got, err := Lagged(limit, arrivals, lag)
		if err != nil {
			t.Fatal(err)
		}
		if bound := limit - 1 + n*int(math.Ceil(float64(r)*lag.Seconds())); sum(got) > bound {
			t.Fatalf("%d regions at ≤ %d/s, lag %v, limit %d: admitted %d > bound %d", n, r, lag, limit, sum(got), bound)
		}
	}
}

// TestLeasesNeverOverAdmit: leases add up to the limit exactly, whatever the
// demand, so regions spending only their leases never exceed it; when demand
// fits the limit every request is admitted.
func TestLeasesNeverOverAdmit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(27, 1))
	for range 1000 {
		limit := 1 + rnd.IntN(5000)
		demand := make([]int, 1+rnd.IntN(6))
		for i := range demand {
			demand[i] = rnd.IntN(2000)
		}
		leases, err := Leases(limit, demand)
		if err != nil {
			t.Fatal(err)
		}
		admitted := 0
		for i := range demand {
			admitted += min(demand[i], leases[i])
		}
		if sum(leases) != limit || admitted > limit || (sum(demand) <= limit && admitted != sum(demand)) {
			t.Fatalf("limit %d demand %v: leases %v (sum %d), admitted %d", limit, demand, leases, sum(leases), admitted)
		}
	}
	if got, _ := Leases(10, []int{0, 0, 0}); !equalInts(got, []int{3, 3, 4}) {
		t.Errorf("no demand seen: leases %v, want equal shares 3/3/4", got)
	}
}

func TestRegionsBadParams(t *testing.T) {
	for _, c := range []struct {
		err   error
		param string
	}{
		{second(StaticSplit(0, []int{1})), "limit"},
		{second(StaticSplit(10, nil)), "regions"},
		{second(Leases(10, []int{5, -1})), "demand"},
		{second(Leases(1e9, []int{6e8, 6e8})), "demand"},
		{second(Lagged(10, [][]time.Duration{{0}}, -time.Second)), "lag"},
		{second(Lagged(10, [][]time.Duration{{-1}}, time.Second)), "arrival"},
	} {
		if !isParam(c.err, c.param) {
			t.Errorf("%v: want a ParamError naming %s", c.err, c.param)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
