package framing

import (
	"fmt"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Plan is a pricing tier: how many requests per minute an API key on it may
// make. A flat limit for every customer is both unfair and bad pricing, so the
// key's plan picks the limit. The plan is the server's record of the key (an
// Account in the KeyStore), never something the request spells out: a tier
// written into the key ("enterprise_…") is a tier the client can write too.
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

// CostTable says how many permits one request to a route spends. Routes not
// listed cost 1. A weighted cost is natural for a token bucket (it takes
// cost tokens at once); window counters usually count every request as 1.
//
// A route is a clean, lower-case path ("/upload") and covers its subtree:
// "/upload/x.png" is an upload too. A request is priced by the route a
// router would hand it to, so its path is first read the way routers read
// it (NormalizePath): a price keyed on the raw spelling is a price the
// client can spell its way out of.
type CostTable map[string]int

// DefaultCosts are CONTRACT.md E16's costs: an upload spends 5 permits, a read 1.
var DefaultCosts = CostTable{"/upload": 5, "/read": 1}

// NewCostTable validates every route and every cost: a route must be a
// clean, lower-case path (NormalizePath leaves it as it is), since no
// request would ever match another spelling, and a cost must fit the
// smallest capacity it will be spent from: a cost above the capacity could
// never be admitted.
func NewCostTable(costs map[string]int, maxCost int) (CostTable, error) {
	routes := make([]string, 0, len(costs))
	for r := range costs {
		routes = append(routes, r)
	}
	sort.Strings(routes) // report the same bad route every time
	t := make(CostTable, len(costs))
	for _, r := range routes {
		if NormalizePath(r) != r || len(r) > MaxRouteLen {
			return nil, core.BadParam("route", fmt.Sprintf("%.64q", r),
				fmt.Sprintf("a clean, lower-case path of at most %d bytes, such as /upload (here %q)", MaxRouteLen, NormalizePath(r)))
		}
		if err := core.CheckCost(costs[r], maxCost); err != nil {
			return nil, fmt.Errorf("route %s: %w", r, err)
		}
		t[r] = costs[r]
	}
	return t, nil
}

// NormalizePath reads a URL path (already percent-decoded once, as
// http.Request.URL.Path is) the way a router does before it matches: rooted
// at "/", cleaned by path.Clean (empty segments, "." and ".." and a
// trailing slash go), and lower-cased, because some routers (Express by
// default) match /UPLOAD to /upload and a limiter in front of them must
// charge what the request may reach. It never decodes again: a second
// decoding is a router bug an attacker would look for, not a rule.
func NormalizePath(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return strings.ToLower(path.Clean(p))
}

// Route names a request's route from the table: the longest listed route
// that its normalised path equals or lies beneath, segment by segment
// ("/upload" covers "/upload/x.png" but not "/uploads"), otherwise "*",
// every unlisted route together. A route is a template from a fixed list,
// never the raw path: a client that may invent routes gets a fresh
// (API key, route) budget, and a fresh key's state, per path.
func (t CostTable) Route(r *http.Request) string {
	return t.match(r.URL.Path)
}

// match finds the listed route for a path, or "*".
func (t CostTable) match(p string) string {
	p = NormalizePath(p)
	for {
		if _, ok := t[p]; ok {
			return p
		}
		if p == "/" {
			return "*"
		}
		p = p[:max(strings.LastIndexByte(p, '/'), 1)]
	}
}

// Cost returns the permits a request to route spends: the listed cost of
// route, or of the route a path names (Route's matching, so a raw path is
// priced as its route), 1 if unlisted.
func (t CostTable) Cost(route string) int {
	if c, ok := t[route]; ok {
		return c
	}
	if route == "*" {
		return 1
	}
	if c, ok := t[t.match(route)]; ok {
		return c
	}
	return 1
}
