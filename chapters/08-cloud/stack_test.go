//go:build !exercise

package cloud_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	cloud "github.com/ratelimit-course/ratelimit/chapters/08-cloud"
)

// fivePerSecondPerUser is the contract the service owns: at most 5 requests
// in any second per user id, enforced exactly by a sliding log.
func fivePerSecondPerUser(t *testing.T) framing.Limiter {
	t.Helper()
	l, err := sliding.NewLogLimiter(sliding.Config{Window: time.Second, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// partnerTraffic is one partner backend calling with its one API key from
// its one address, on behalf of users named in X-User-Id.
func partnerTraffic(users []string, ms []int64) []cloud.Request {
	out := make([]cloud.Request, len(users))
	for i, u := range users {
		h := http.Header{}
		h.Set("X-User-Id", u)
		h.Set("X-Api-Key", "partner")
		h.Set("X-Forwarded-For", "192.0.2.10")
		out[i] = cloud.Request{At: at(ms[i]), SourceIP: "203.0.113.1:443", Header: h, APIKey: "partner", UserID: u, Route: "/read"}
	}
	return out
}

func TestE18_NoConfigEnforcesFivePerSecondPerUser(t *testing.T) {
	ms := []int64{0, 100, 200, 300, 400, 500, 600, 700, 800, 900}
	// violating: alice sends 6 within one second (the 6th breaks the contract).
	violating := partnerTraffic([]string{"alice", "alice", "alice", "alice", "alice", "alice", "bob", "bob", "bob", "bob"}, ms)
	// legal: the same instants, key and address; 5 from alice, 5 from bob.
	legal := partnerTraffic([]string{"alice", "alice", "alice", "alice", "alice", "bob", "bob", "bob", "bob", "bob"}, ms)

	// The service layer, keyed by user id, tells them apart.
	serve := func(reqs []cloud.Request) []int {
		s := &cloud.Stack{Service: fivePerSecondPerUser(t)}
		var rejected []int
		for i, r := range reqs {
			o, err := s.Serve(r)
			if err != nil {
				t.Fatal(err)
			}
			if !o.ReachedApp {
				rejected = append(rejected, i)
			}
		}
		return rejected
	}
	if got := serve(violating); len(got) != 1 || got[0] != 5 {
		t.Fatalf("service layer rejected %v in the violating sequence, want exactly [5] (alice's 6th)", got)
	}
	if got := serve(legal); len(got) != 0 {
		t.Fatalf("service layer rejected %v in the legal sequence", got)
	}

	// WAF: every window, thresholds from the minimum up, every key type,
	// including a custom key on the user id header. The minimum threshold is
	// 10 per minute or longer, so 6 in one second never trips it.
	keys := []cloud.RateRule{{Key: cloud.ByIP}, {Key: cloud.ByForwardedIP},
		{Key: cloud.ByCustom, CustomHeaders: []string{"X-User-Id"}}, {Key: cloud.ByCustom, CustomHeaders: []string{"X-Api-Key"}}}
	wafConfigs := 0
	for _, w := range cloud.EvaluationWindows {
		for _, limit := range []int{cloud.MinRateLimit, 11, 20, 100, 1000} {
			for _, k := range keys {
				k.Window, k.Limit = w, limit
				rule, err := cloud.NewWAF(k)
				if err != nil {
					t.Fatal(err)
				}
				wafConfigs++
				for i, r := range violating {
					if v := rule.Inspect(r); v.Blocked {
						t.Fatalf("WAF %v window %v limit %d blocked request %d", k.Key, w, limit, i)
					}
				}
			}
		}
	}

	// Gateway: the usage plan sees the API key, never the user. Whatever the
	// configuration, it decides the violating sequence exactly as the legal
	// one, so it either lets alice's 6th through or rejects a legal request.
	gwConfigs, catches := 0, 0
	for _, rate := range []float64{0.5, 1, 2, 5, 6, 10, 100} {
		for _, burst := range []int{1, 2, 5, 6, 10, 50} {
			for _, q := range []cloud.Quota{{}, {Limit: 5, Period: cloud.Day}, {Limit: 9, Period: cloud.Day}} {
				cfg := cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("partner", rate, burst, q, "partner")}}
				gv, gl := gateway(t, cfg), gateway(t, cfg)
				gwConfigs++
				legalRejected, caught := false, false
				for i := range violating {
					a, b := gv.Handle(violating[i]), gl.Handle(legal[i])
					if a != b {
						t.Fatalf("rate %v burst %d quota %+v: request %d decided %+v vs %+v; the gateway cannot see the user", rate, burst, q, i, a, b)
					}
					legalRejected = legalRejected || b.Status != http.StatusOK
					caught = caught || (i == 5 && a.Status != http.StatusOK)
				}
				if caught {
					catches++
					if !legalRejected {
						t.Fatalf("rate %v burst %d: caught alice's 6th without rejecting a legal request", rate, burst)
					}
				}
			}
		}
	}
	if catches == 0 {
		t.Fatal("the sweep should include configurations strict enough to reject the 6th (and so a legal request)")
	}
	t.Logf("%d WAF and %d gateway configurations checked; %d gateway configurations rejected the 6th, all of them also rejecting the legal sequence", wafConfigs, gwConfigs, catches)

	// The whole chain: the strictest WAF, a gateway that serves the legal
	// sequence, and the service layer, which alone stops alice's 6th.
	wafRule := waf(t, cloud.RateRule{Window: time.Minute, Limit: cloud.MinRateLimit, Key: cloud.ByCustom, CustomHeaders: []string{"X-User-Id"}})
	s := &cloud.Stack{
		WAF:     wafRule,
		Gateway: gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("partner", 10, 10, cloud.Quota{Limit: 1000, Period: cloud.Day}, "partner")}}),
		Service: fivePerSecondPerUser(t),
	}
	for i, r := range violating {
		o, err := s.Serve(r)
		if err != nil {
			t.Fatal(err)
		}
		want := "app"
		if i == 5 {
			want = "service"
		}
		if o.Layer != want {
			t.Fatalf("request %d stopped at %q, want %q", i, o.Layer, want)
		}
	}
}

// TestE18_LayerTable sends four kinds of traffic through WAF → gateway →
// service and records which layer stops what (the README's table). The WAF
// row is the idealised model's answer (it counts exactly and blocks from the
// 11th); the real rule detects with a lag of usually under 30 s, so a burst
// of 30 in 3 s would likely pass it whole and meet the gateway instead.
func TestE18_LayerTable(t *testing.T) {
	newStack := func(appCalls *int) *cloud.Stack {
		return &cloud.Stack{
			WAF: waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByIP}),
			Gateway: gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{
				plan("partners", 10, 10, cloud.Quota{Limit: 1000, Period: cloud.Day}, "partner", "flood-key")}}),
			Service: fivePerSecondPerUser(t),
			App:     func(cloud.Request) { *appCalls++ },
		}
	}
	type row struct {
		name    string
		reqs    []cloud.Request
		layer   string
		status  int
		blocked int
		app     int
	}
	var flood, keyBurst, user, nokey []cloud.Request
	for i := 0; i < 30; i++ {
		flood = append(flood, cloud.Request{At: at(int64(i) * 100), SourceIP: "198.51.100.7", APIKey: "flood-key", UserID: fmt.Sprint("u", i)})
	}
	for i := 0; i < 15; i++ {
		keyBurst = append(keyBurst, cloud.Request{At: at(0), SourceIP: fmt.Sprintf("198.51.100.%d", i+1), APIKey: "partner", UserID: fmt.Sprint("u", i)})
	}
	for i := 0; i < 8; i++ {
		user = append(user, cloud.Request{At: at(int64(i) * 125), SourceIP: "203.0.113.1", APIKey: "partner", UserID: "alice"})
	}
	nokey = []cloud.Request{{At: at(0), SourceIP: "198.51.100.9", UserID: "bob"}}
	rows := []row{
		{"one IP, 30 requests in 3 s (idealised WAF)", flood, "waf", 403, 20, 10},
		{"one API key from 15 addresses at once", keyBurst, "gateway: " + cloud.LayerPlanThrottle, 429, 5, 10},
		{"one user, 8 requests in 1 s, behind a partner key", user, "service", 429, 3, 5},
		{"no known API key", nokey, "gateway: " + cloud.LayerAPIKey, 403, 1, 0},
	}
	for _, r := range rows {
		app := 0
		s := newStack(&app)
		stopped := map[string]int{}
		status := 0
		for _, q := range r.reqs {
			o, err := s.Serve(q)
			if err != nil {
				t.Fatal(err)
			}
			if !o.ReachedApp {
				stopped[o.Layer]++
				status = o.Status
			}
		}
		if len(stopped) != 1 || stopped[r.layer] != r.blocked || status != r.status || app != r.app {
			t.Errorf("%s: stopped %v (status %d), app %d; want %d by %q (status %d), app %d", r.name, stopped, status, app, r.blocked, r.layer, r.status, r.app)
		}
		t.Logf("| %s | %s | %d | %d of %d |", r.name, r.layer, r.status, app, len(r.reqs))
	}
}
