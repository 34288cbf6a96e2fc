package service

import (
	"testing"
)

// TestExampleRules checks that rules/example.yaml does what its comments
// tell a learner, on the in-memory store with a clock that stands still.
func TestExampleRules(t *testing.T) {
	clock, now := stepClock()
	s := start(t, onClock(t, Options{}, now))
	c := client(t, s)
	run := func(n int, kv ...string) string {
		var last string
		for range n {
			last = summary(ask(t, c, "api", desc(kv...)))
		}
		return last
	}
	cases := []struct {
		what string
		n    int
		kv   []string
		want string
	}{
		{"10 a second per API key: the 10th", 10, []string{"api_key", "k1"}, "OK OK:0"},
		{"the 11th", 1, []string{"api_key", "k1"}, "OVER_LIMIT OVER_LIMIT:0"},
		{"another key has its own 10", 1, []string{"api_key", "k2"}, "OK OK:9"},
		{"/login then an address: the 5th in a minute", 5, []string{"path", "/login", "remote_address", "10.0.0.1"}, "OK OK:0"},
		{"the 6th", 1, []string{"path", "/login", "remote_address", "10.0.0.1"}, "OVER_LIMIT OVER_LIMIT:0"},
		{"/login alone has no rule", 1, []string{"path", "/login"}, "OK OK:-"},
		{"/search*: a bucket of 20", 20, []string{"path", "/search?q=x"}, "OK OK:0"},
		{"the 21st", 1, []string{"path", "/search?q=x"}, "OVER_LIMIT OVER_LIMIT:0"},
		{"plan free, shadow: the 101st is still OK", 101, []string{"plan", "free"}, "OK OK:0"},
		{"plan internal: unlimited", 1, []string{"plan", "internal"}, "OK OK:-"},
	}
	for _, tc := range cases {
		if got := run(tc.n, tc.kv...); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, got, tc.want)
		}
	}
	wantMetric(t, s, `ratelimit_shadow_would_reject_total{domain="api",rule="api.plan_free"}`, "1")
	// A second later the API key's window has turned.
	clock.Add(1)
	if got := run(1, "api_key", "k1"); got != "OK OK:9" {
		t.Errorf("next second: %q, want OK OK:9", got)
	}
}
