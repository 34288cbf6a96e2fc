package framing

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestE16_PlanLimits(t *testing.T) {
	cases := []struct {
		key      string
		name     string
		perMin   int
		capacity int
		rate     float64
	}{
		{"free_3f9a", "free", 60, 60, 1},
		{"paid_77c1", "paid", 1000, 1000, 1000.0 / 60},
		{"enterprise_x", "enterprise", 10000, 10000, 10000.0 / 60},
	}
	for _, c := range cases {
		p, err := PlanForAPIKey(c.key)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != c.name || p.PerMinute != c.perMin || p.Capacity() != c.capacity ||
			math.Abs(p.RatePerSecond()-c.rate) > 1e-9 || p.Window() != time.Minute {
			t.Errorf("%s: got %+v cap %d rate %v", c.key, p, p.Capacity(), p.RatePerSecond())
		}
	}
	for _, bad := range []string{"", "gold_1", "free", "FREE_1"} {
		var pe *core.ParamError
		if _, err := PlanForAPIKey(bad); !errors.As(err, &pe) || pe.Param != "api key" {
			t.Errorf("PlanForAPIKey(%q): err %v, want a ParamError naming api key", bad, err)
		}
	}
}

func TestE16_RouteCosts(t *testing.T) {
	if DefaultCosts.Cost("/upload") != 5 || DefaultCosts.Cost("/read") != 1 || DefaultCosts.Cost("/other") != 1 {
		t.Fatalf("costs: %v", DefaultCosts)
	}
	ct, err := NewCostTable(map[string]int{"/upload": 5, "/read": 1}, Free.Capacity())
	if err != nil || ct.Cost("/upload") != 5 {
		t.Fatalf("valid table rejected: %v %v", ct, err)
	}
	_, err = NewCostTable(map[string]int{"/export": 61}, Free.Capacity())
	var pe *core.ParamError
	if !errors.As(err, &pe) || pe.Param != "cost" {
		t.Fatalf("cost above capacity: err %v, want a ParamError naming cost", err)
	}
	if _, err := NewCostTable(map[string]int{"/x": 0}, 10); err == nil {
		t.Fatal("cost 0 accepted")
	}
}
