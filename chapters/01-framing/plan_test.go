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
// template, so a client inventing paths gets no fresh budget per path (a
// path beneath a listed route is that route: /read/1 is /read).
func TestRawPathIsNotARoute(t *testing.T) {
	for path, want := range map[string]string{"/upload": "/upload", "/read": "/read", "/read/1": "/read", "/reader": "*", "/x%7Croute:/y": "*", "/": "*"} {
		if got := DefaultCosts.Route(httptest.NewRequest("GET", path, nil)); got != want {
			t.Errorf("Route(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestRoutePricingNormalisesLikeARouter is issue 9's finding: route pricing
// was an exact match on the raw path, so /upload/, //upload, /UPLOAD,
// /./upload, /upload%2F and /upload/x.png all cost 1 instead of 5. The
// table now reads the path as a router would before it prices it: decoded
// once, cleaned (path.Clean), lower-cased, and matched against the
// listed routes segment by segment, longest first. Each row says why.
func TestRoutePricingNormalisesLikeARouter(t *testing.T) {
	cases := []struct {
		target, route string
		cost          int
		why           string
	}{
		{"/upload", "/upload", 5, "the listed route"},
		{"/upload/", "/upload", 5, "a trailing slash is cleaned away (routers redirect or serve it)"},
		{"//upload", "/upload", 5, "empty segments collapse (ServeMux redirects to the clean path)"},
		{"/./upload", "/upload", 5, "dot segments are removed (RFC 3986 5.2.4)"},
		{"/read/../upload", "/upload", 5, "a .. segment climbs out of /read"},
		{"/UPLOAD", "/upload", 5, "case folded: Express routes it to /upload by default; price the route it may reach"},
		{"/%55pload", "/upload", 5, "percent-encoding of an unreserved letter is decoded"},
		{"/upload%2F", "/upload", 5, "an encoded slash is decoded once into the path, then cleaned"},
		{"/upload/x.png", "/upload", 5, "a listed route covers its subtree"},
		{"/upload/a/b?x=1", "/upload", 5, "the query is not the path"},
		{"/upload%252F", "*", 1, "decoded once only: the segment is upload%2F, not upload"},
		{"/uploads", "*", 1, "a prefix counts by whole segments"},
		{"/upload.png", "*", 1, "a prefix counts by whole segments"},
		{"/upload/../read", "/read", 1, "cleaned to /read"},
		{"/read/1", "/read", 1, "beneath /read"},
		{"/", "*", 1, "unlisted"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", c.target, nil)
		route := DefaultCosts.Route(r)
		if route != c.route || DefaultCosts.Cost(route) != c.cost {
			t.Errorf("%s: route %q cost %d, want %q cost %d (%s)", c.target, route, DefaultCosts.Cost(route), c.route, c.cost, c.why)
		}
		if got := DefaultCosts.Cost(r.URL.Path); got != c.cost { // a raw path handed to Cost is priced the same way
			t.Errorf("Cost(%q) = %d, want %d", r.URL.Path, got, c.cost)
		}
	}
	// The longest listed route wins; the table refuses routes it could never match.
	ct, err := NewCostTable(map[string]int{"/upload": 5, "/upload/small": 2}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := ct.Cost(ct.Route(httptest.NewRequest("GET", "/Upload/Small/x", nil))); got != 2 {
		t.Errorf("/Upload/Small/x costs %d, want 2 (the longer route)", got)
	}
	for _, bad := range []string{"/Upload", "/upload/", "upload", "//upload", "/a/../upload", ""} {
		var pe *core.ParamError
		if _, err := NewCostTable(map[string]int{bad: 5}, 10); !errors.As(err, &pe) || pe.Param != "route" {
			t.Errorf("route %q: err %v, want a ParamError naming the route", bad, err)
		}
	}
}
