package framing

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Plan is a pricing tier: how many requests per minute an API key on it may
// make. A flat limit for every customer is both unfair and bad pricing, so the
// key's plan picks the limit.
type Plan struct {
	Name      string
	PerMinute int
}

// The three tiers of CONTRACT.md E16.
var (
	Free       = Plan{Name: "free", PerMinute: 60}
	Paid       = Plan{Name: "paid", PerMinute: 1000}
	Enterprise = Plan{Name: "enterprise", PerMinute: 10000}
)

// Plans lists the tiers from cheapest to richest.
var Plans = []Plan{Free, Paid, Enterprise}

// Window is the period the plan's limit is stated over.
func (p Plan) Window() time.Duration { return time.Minute }

// Capacity is the token-bucket capacity that implements the plan: a full
// minute's allowance may be spent at once after a quiet minute.
func (p Plan) Capacity() int { return p.PerMinute }

// RatePerSecond is the token-bucket refill rate: the allowance spread evenly
// over the minute (100/min is 100/60 ≈ 1.67 tokens per second).
func (p Plan) RatePerSecond() float64 { return float64(p.PerMinute) / 60 }

// PlanByName finds a plan by its name.
func PlanByName(name string) (Plan, bool) {
	for _, p := range Plans {
		if p.Name == name {
			return p, true
		}
	}
	return Plan{}, false
}

// PlanForAPIKey reads the tier encoded in the key itself, as in
// "free_3f9a…", "paid_…" or "enterprise_…". Encoding the tier in the key
// lets the limiter decide without a database lookup; a real service may
// instead look the key up in its credential store.
func PlanForAPIKey(apiKey string) (Plan, error) {
	tier, _, ok := strings.Cut(apiKey, "_")
	if ok {
		if p, found := PlanByName(tier); found {
			return p, nil
		}
	}
	names := make([]string, len(Plans))
	for i, p := range Plans {
		names[i] = p.Name + "_…"
	}
	return Plan{}, core.BadParam("api key", fmt.Sprintf("%q", apiKey), "a key starting with "+strings.Join(names, ", "))
}

// CostTable says how many permits one request to a route spends. Routes not
// listed cost 1. A weighted cost is natural for a token bucket (it takes
// cost tokens at once); window counters usually count every request as 1.
type CostTable map[string]int

// DefaultCosts are CONTRACT.md E16's costs: an upload spends 5 permits, a read 1.
var DefaultCosts = CostTable{"/upload": 5, "/read": 1}

// NewCostTable validates every cost against the smallest capacity it will be
// spent from: a cost above the capacity could never be admitted.
func NewCostTable(costs map[string]int, maxCost int) (CostTable, error) {
	routes := make([]string, 0, len(costs))
	for r := range costs {
		routes = append(routes, r)
	}
	sort.Strings(routes) // report the same bad route every time
	t := make(CostTable, len(costs))
	for _, r := range routes {
		if err := core.CheckCost(costs[r], maxCost); err != nil {
			return nil, fmt.Errorf("route %s: %w", r, err)
		}
		t[r] = costs[r]
	}
	return t, nil
}

// Cost returns the permits a request to route spends (1 if unlisted).
func (t CostTable) Cost(route string) int {
	if c, ok := t[route]; ok {
		return c
	}
	return 1
}
