package overload

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestE30_WeightedFairShare (CONTRACT.md E30): capacity 100 rps, weights
// A 2, B 1, C 1, demand 150 / 10 / 80. Max-min fair by weight: the first
// round offers 50 / 25 / 25; B needs only 10, so the 90 left is shared 2:1
// between A and C: A 60, B 10, C 30. In proportion to demand (what
// first-come service gives) it is 62.5 / 4.2 / 33.3: B, the small tenant,
// is starved below its 10.
func TestE30_WeightedFairShare(t *testing.T) {
	weight, demand := []float64{2, 1, 1}, []float64{150, 10, 80}
	fair, err := MaxMinFair(100, weight, demand)
	if err != nil {
		t.Fatal(err)
	}
	prop, err := Proportional(100, demand)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		name       string
		fair, prop float64
	}{{"A", 60, 62.5}, {"B", 10, 4.2}, {"C", 30, 33.3}} {
		if math.Abs(fair[i]-c.fair) > 1e-9 {
			t.Errorf("max-min fair %s = %v, want %v", c.name, fair[i], c.fair)
		}
		if math.Round(prop[i]*10)/10 != c.prop {
			t.Errorf("proportional %s = %v, want %v to one decimal", c.name, prop[i], c.prop)
		}
	}
}

// TestMaxMinFairProperties: on random tenants, no one gets more than it asks;
// the capacity is used up unless all demand fits; and the allocation is
// max-min fair: every tenant left short has the largest share per unit of
// weight of all (nobody else is better off per unit of weight).
func TestMaxMinFairProperties(t *testing.T) {
	rnd := rand.New(rand.NewPCG(30, 30))
	for range 2000 {
		n := 1 + rnd.IntN(6)
		weight, demand := make([]float64, n), make([]float64, n)
		total := 0.0
		for i := range n {
			weight[i] = float64(1 + rnd.IntN(5))
			demand[i] = float64(rnd.IntN(100))
			total += demand[i]
		}
		capacity := float64(1 + rnd.IntN(200))
		out, err := MaxMinFair(capacity, weight, demand)
		if err != nil {
			t.Fatal(err)
		}
		got, best := 0.0, 0.0
		for i := range out {
			if out[i] > demand[i]+1e-9 || out[i] < -1e-9 {
				t.Fatalf("tenant %d gets %v of demand %v", i, out[i], demand[i])
			}
			got += out[i]
			best = max(best, out[i]/weight[i])
		}
		if want := min(capacity, total); math.Abs(got-want) > 1e-6 {
			t.Fatalf("cap %v demand %v weight %v: allocated %v, want %v", capacity, demand, weight, got, want)
		}
		for i := range out {
			if out[i] < demand[i]-1e-9 && out[i]/weight[i] < best-1e-6 {
				t.Fatalf("cap %v demand %v weight %v: %v; tenant %d is short at %v per weight while another has %v",
					capacity, demand, weight, out, i, out[i]/weight[i], best)
			}
		}
	}
}

func TestFairShareBadParams(t *testing.T) {
	for _, c := range []struct {
		err   error
		param string
	}{
		{second(MaxMinFair(0, []float64{1}, []float64{1})), "capacity"},
		{second(MaxMinFair(math.NaN(), []float64{1}, []float64{1})), "capacity"},
		{second(MaxMinFair(10, []float64{1}, []float64{1, 2})), "weights"},
		{second(MaxMinFair(10, []float64{0}, []float64{1})), "weight"},
		{second(MaxMinFair(10, []float64{1}, []float64{-1})), "demand"},
		{second(Proportional(10, nil)), "tenants"},
		{second(Proportional(10, []float64{math.Inf(1)})), "demand"},
	} {
		if !isParam(c.err, c.param) {
			t.Errorf("%v: want a ParamError naming %s", c.err, c.param)
		}
	}
}
