package framing

import (
	"errors"
	"math"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestE16_PlanLimits(t *testing.T) {
	cases := []struct {
		name     string
		perMin   int
		capacity int
		rate     float64
	}{
		{"free", 60, 60, 1},
		{"paid", 1000, 1000, 1000.0 / 60},
		{"enterprise", 10000, 10000, 10000.0 / 60},
	}
	for _, c := range cases {
		p, ok := PlanByName(c.name)
		if !ok {
			t.Fatalf("no plan %q", c.name)
		}
		if p.Name != c.name || p.PerMinute != c.perMin || p.Capacity() != c.capacity ||
			math.Abs(p.RatePerSecond()-c.rate) > 1e-9 || p.Window() != time.Minute {
			t.Errorf("%s: got %+v cap %d rate %v", c.name, p, p.Capacity(), p.RatePerSecond())
		}
	}
	if _, ok := PlanByName("gold"); ok {
		t.Error("a plan that does not exist was found")
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

// TestRawPathIsNotARoute: the route a key is narrowed to is a listed
// template, so a client inventing paths gets no fresh budget per path.
func TestRawPathIsNotARoute(t *testing.T) {
	for path, want := range map[string]string{"/upload": "/upload", "/read": "/read", "/read/1": "*", "/x%7Croute:/y": "*", "/": "*"} {
		if got := DefaultCosts.Route(httptest.NewRequest("GET", path, nil)); got != want {
			t.Errorf("Route(%q) = %q, want %q", path, got, want)
		}
	}
}
