package service

import (
	"errors"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// TestAdminListener: the admin listener answers /healthcheck and
// /metrics, the same as the HTTP port does, and nothing else (no /json,
// no pprof); without AdminAddr there is none.
func TestAdminListener(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules), AdminAddr: "127.0.0.1:0"})
	a := s.AdminAddr()
	if a == "" || a == s.HTTPAddr() || a == s.GRPCAddr() {
		t.Fatalf("admin address %q (HTTP %q, gRPC %q), want one of its own", a, s.HTTPAddr(), s.GRPCAddr())
	}
	for _, tc := range []struct {
		path string
		code int
		body string
	}{
		{"/healthcheck", 200, "OK"},
		{"/metrics", 200, "ratelimit_open_connections{transport=\"admin\"} 1"},
		{"/json", 404, ""},
		{"/debug/pprof/", 404, ""},
	} {
		code, body := getAddr(t, a, tc.path)
		if code != tc.code || !strings.Contains(body, tc.body) {
			t.Errorf("admin GET %s: %d, want %d with %q; body %.200q", tc.path, code, tc.code, tc.body, body)
		}
	}
	if d := start(t, Options{Config: writeRules(t, drainRules)}).AdminAddr(); d != "" {
		t.Errorf("admin listener %q without AdminAddr", d)
	}
}

// TestMaxConnsPerClientOption: the option takes 1 to server.MaxConns and
// refuses anything else, naming itself.
func TestMaxConnsPerClientOption(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want int // the cap in force; 0: refused
	}{
		{0, server.MaxConnsPerClient}, {1, 1}, {server.MaxConns, server.MaxConns}, {-1, 0}, {server.MaxConns + 1, 0},
	} {
		o, err := Options{MaxConnsPerClient: tc.n}.withDefaults()
		var pe *core.ParamError
		switch {
		case tc.want == 0 && (!errors.As(err, &pe) || pe.Param != "max conns per client"):
			t.Errorf("%d: %v, want an error naming max conns per client", tc.n, err)
		case tc.want != 0 && (err != nil || o.limits(server.Limits{}).WithDefaults().PerClient != tc.want):
			t.Errorf("%d: cap %d (%v), want %d", tc.n, o.limits(server.Limits{}).WithDefaults().PerClient, err, tc.want)
		}
	}
}
