package cloud_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	cloud "github.com/ratelimit-course/ratelimit/chapters/08-cloud"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

var t0 = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC) // a Tuesday

func at(ms int64) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func gateway(t *testing.T, cfg cloud.GatewayConfig) *cloud.Gateway {
	return algotest.Must(t, cloud.NewGateway, cfg)
}

func plan(name string, rate float64, burst int, q cloud.Quota, keys ...string) cloud.UsagePlan {
	return cloud.UsagePlan{Name: name, Throttle: cloud.Throttle{Rate: rate, Burst: burst}, Quota: q, APIKeys: keys}
}

func TestE18_UsagePlanThrottleIsATokenBucket(t *testing.T) {
	// rate = steady RPS, burst = capacity: burst 5 at once, then 2 per second.
	g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("basic", 2, 5, cloud.Quota{}, "k1")}})
	steps := []struct {
		ms     int64
		status int
		layer  string
	}{
		{0, 200, ""}, {0, 200, ""}, {0, 200, ""}, {0, 200, ""}, {0, 200, ""},
		{0, 429, cloud.LayerPlanThrottle}, // the bucket is empty
		{499, 429, cloud.LayerPlanThrottle},
		{500, 200, ""}, // 500 ms at 2/s = one token
		{500, 429, cloud.LayerPlanThrottle},
		{1000, 200, ""},
		{4000, 200, ""}, {4000, 200, ""}, {4000, 200, ""}, {4000, 200, ""}, {4000, 200, ""}, // refilled to 5, not 6
		{4000, 429, cloud.LayerPlanThrottle},
	}
	for i, s := range steps {
		got := g.Handle(cloud.Request{At: at(s.ms), APIKey: "k1"})
		if got.Status != s.status || got.Layer != s.layer {
			t.Fatalf("step %d at %d ms: got %d %q, want %d %q", i+1, s.ms, got.Status, got.Layer, s.status, s.layer)
		}
		if got.Status == 429 && got.Message != "Too Many Requests" {
			t.Fatalf("throttle message %q", got.Message)
		}
	}
}

func TestE18_QuotaIsAFixedWindowPerDayWeekMonth(t *testing.T) {
	day := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }
	cases := []struct {
		period     cloud.Period
		last       time.Time // the end of one period
		next       time.Time // the start of the next
		sameWindow time.Time // far from last, but in the same period
	}{
		{cloud.Day, day(2026, 3, 10, 23, 59), day(2026, 3, 11, 0, 0), day(2026, 3, 10, 0, 0)},
		// Weeks start on Monday: Sunday 23:59 → Monday 00:00 resets, Wednesday → Thursday does not.
		{cloud.Week, day(2026, 3, 15, 23, 59), day(2026, 3, 16, 0, 0), day(2026, 3, 11, 23, 0)},
		{cloud.Month, day(2026, 3, 31, 23, 59), day(2026, 4, 1, 0, 0), day(2026, 3, 1, 0, 0)},
	}
	for _, c := range cases {
		t.Run(c.period.String(), func(t *testing.T) {
			g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("q", 100, 100, cloud.Quota{Limit: 3, Period: c.period}, "k")}})
			send := func(tm time.Time) cloud.GatewayResult { return g.Handle(cloud.Request{At: tm, APIKey: "k"}) }
			if r := send(c.sameWindow); r.Status != 200 {
				t.Fatalf("first request: %+v", r)
			}
			for i := 0; i < 2; i++ {
				if r := send(c.last); r.Status != 200 {
					t.Fatalf("request %d: %+v", i+2, r)
				}
			}
			r := send(c.last)
			if r.Status != http.StatusTooManyRequests || r.Layer != cloud.LayerQuota || r.Message != "Limit Exceeded" {
				t.Fatalf("4th in the period: %+v, want 429 from the quota", r)
			}
			// The whole allowance comes back at the boundary at once: a
			// fixed window, so 2 + 3 = 5 get through within one minute.
			for i := 0; i < 3; i++ {
				if r := send(c.next); r.Status != 200 {
					t.Fatalf("after the boundary, request %d: %+v", i+1, r)
				}
			}
			if r := send(c.next); r.Layer != cloud.LayerQuota {
				t.Fatalf("4th after the boundary: %+v", r)
			}
		})
	}
}

func TestE18_StageAndAccountThrottlesCanRejectFirst(t *testing.T) {
	generous := plan("generous", 1000, 1000, cloud.Quota{}, "a", "b")
	g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{generous}, Stage: cloud.Throttle{Rate: 1, Burst: 2}})
	var layers []string
	for i := 0; i < 3; i++ {
		layers = append(layers, g.Handle(cloud.Request{At: at(0), APIKey: "a"}).Layer)
	}
	if layers[0] != "" || layers[1] != "" || layers[2] != cloud.LayerStage {
		t.Fatalf("stage: layers %q, want the 3rd rejected by the stage throttle", layers)
	}

	g = gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{generous}, Account: cloud.Throttle{Rate: 1, Burst: 3}})
	got := []cloud.GatewayResult{}
	for _, k := range []string{"a", "b", "a", "b"} { // each key has plenty of plan room
		got = append(got, g.Handle(cloud.Request{At: at(0), APIKey: k}))
	}
	if got[2].Status != 200 || got[3].Status != 429 || got[3].Layer != cloud.LayerAccount {
		t.Fatalf("account: %+v, want the 4th rejected by the account throttle", got)
	}
}

// TestGatewaySpendsOnlyWhenEveryThrottleAdmits: a request the stage
// rejects does not spend the usage plan's token (in this model every
// throttle is consulted before any is spent).
func TestGatewaySpendsOnlyWhenEveryThrottleAdmits(t *testing.T) {
	slowPlan := plan("slow", 0.001, 2, cloud.Quota{}, "k") // two tokens, then one per 1,000 s
	g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{slowPlan}, Stage: cloud.Throttle{Rate: 1, Burst: 1}})
	var layers []string
	for _, ms := range []int64{0, 0, 1000, 2000} {
		r := g.Handle(cloud.Request{At: at(ms), APIKey: "k"})
		layers = append(layers, fmt.Sprintf("%d %s", r.Status, r.Layer))
	}
	// 0 ms: both admit. 0 ms again: the stage is empty, the plan keeps its
	// second token. 1 s: the stage has refilled and the plan still has it.
	// 2 s: the plan is empty (the stage alone would admit).
	want := []string{"200 ", "429 " + cloud.LayerStage, "200 ", "429 " + cloud.LayerPlanThrottle}
	if fmt.Sprint(layers) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", layers, want)
	}
}

// TestE18_AccountThrottleDefaults: with no account throttle given, the
// gateway applies AWS's default for most Regions, a burst of 5,000; newer
// Regions get 1,250. The 5,001st (1,251st) simultaneous request is rejected
// by the account throttle however generous the plan.
func TestE18_AccountThrottleDefaults(t *testing.T) {
	generous := plan("generous", 1e6, 1e6, cloud.Quota{}, "k")
	for _, c := range []struct {
		account cloud.Throttle
		burst   int
	}{{cloud.Throttle{}, 5000}, {cloud.NewerRegionAccountThrottle, 1250}} {
		g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{generous}, Account: c.account})
		passed := 0
		var last cloud.GatewayResult
		for range c.burst + 1 {
			if last = g.Handle(cloud.Request{At: at(0), APIKey: "k"}); last.Status == http.StatusOK {
				passed++
			}
		}
		if passed != c.burst || last.Layer != cloud.LayerAccount {
			t.Errorf("account %+v: %d of %d passed, last %+v; want %d, then the account throttle", c.account, passed, c.burst+1, last, c.burst)
		}
	}
	if cloud.DefaultAccountThrottle.Rate != 10000 || cloud.NewerRegionAccountThrottle.Rate != 2500 {
		t.Errorf("account rates %v and %v, want 10,000 and 2,500 per second", cloud.DefaultAccountThrottle.Rate, cloud.NewerRegionAccountThrottle.Rate)
	}
}

// TestE18_BestEffortUnderAHypotheticalModel: AWS calls usage-plan
// throttling best effort, not a hard cap, and documents no mechanism. This
// course's hypothetical model keeps a bucket per front end: with Nodes front
// ends, a burst-5 plan lets 5 × Nodes of a 30-request burst through.
func TestE18_BestEffortUnderAHypotheticalModel(t *testing.T) {
	for _, c := range []struct{ nodes, want int }{{1, 5}, {2, 10}, {3, 15}} {
		g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 5, cloud.Quota{}, "k")}, Nodes: c.nodes})
		passed := 0
		for i := 0; i < 30; i++ {
			if g.Handle(cloud.Request{At: at(0), APIKey: "k"}).Status == 200 {
				passed++
			}
		}
		if passed != c.want {
			t.Errorf("%d front ends: %d of a 30-request burst passed a burst-5 throttle, want %d", c.nodes, passed, c.want)
		}
	}
}

func TestE18_GatewayRejectsAtTheGatewayWith429(t *testing.T) {
	g := gateway(t, cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 2, cloud.Quota{}, "k")}})
	appCalls := 0
	s := &cloud.Stack{Gateway: g, App: func(cloud.Request) { appCalls++ }}
	var statuses []int
	for _, k := range []string{"k", "k", "k", "nokey"} {
		o, err := s.Serve(cloud.Request{At: at(0), APIKey: k})
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, o.Status)
	}
	if statuses[2] != 429 || statuses[3] != 403 || appCalls != 2 {
		t.Fatalf("statuses %v, app calls %d; want 429 for the throttled, 403 for the unknown key, 2 app calls", statuses, appCalls)
	}
}

func TestGatewayRejectsBadConfig(t *testing.T) {
	cases := []struct {
		name  string
		cfg   cloud.GatewayConfig
		param string
	}{
		{"no plans", cloud.GatewayConfig{}, "usage plans"},
		{"rate 0", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 0, 5, cloud.Quota{}, "k")}}, "usage plan p throttle rate"},
		{"burst 0", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 0, cloud.Quota{}, "k")}}, "usage plan p throttle burst"},
		{"burst 2e9", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 2e9, cloud.Quota{}, "k")}}, "usage plan p throttle burst"},
		{"refill over 1e9 s", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1e-6, 10000, cloud.Quota{}, "k")}}, "usage plan p throttle rate"},
		{"bad period", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 1, cloud.Quota{Limit: 5, Period: 9}, "k")}}, "usage plan p quota period"},
		{"negative quota", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 1, cloud.Quota{Limit: -1, Period: cloud.Day}, "k")}}, "usage plan p quota limit"},
		{"key twice", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 1, cloud.Quota{}, "k"), plan("q", 1, 1, cloud.Quota{}, "k")}}, "api key"},
		{"stage", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 1, cloud.Quota{}, "k")}, Stage: cloud.Throttle{Rate: -1, Burst: 1}}, "stage rate"},
		{"nodes", cloud.GatewayConfig{Plans: []cloud.UsagePlan{plan("p", 1, 1, cloud.Quota{}, "k")}, Nodes: -2}, "nodes"},
	}
	for _, c := range cases {
		_, err := cloud.NewGateway(c.cfg)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: err %v, want a ParamError naming %q", c.name, err, c.param)
		}
	}
}

// TestGatewayQuotaSurvivesSkewAcrossAPeriodBoundary is issue 4's finding:
// the quota reset whenever a request's timestamp named another period than
// the last one counted, in either direction, so two front ends whose clocks
// sit 1 s apart around midnight reset it on every request: a daily quota
// of 100 admitted 1,000 of 1,000. The period now only moves forward: a
// request stamped in an earlier period than the one counting is counted in
// the later one, so at most 100 pass in each day (here 1 + 100).
func TestGatewayQuotaSurvivesSkewAcrossAPeriodBoundary(t *testing.T) {
	midnight := time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC)
	for _, first := range []string{"behind", "ahead"} {
		t.Run("the first node "+first, func(t *testing.T) {
			g := gateway(t, cloud.GatewayConfig{Nodes: 2,
				Plans: []cloud.UsagePlan{plan("q", 10000, 5000, cloud.Quota{Limit: 100, Period: cloud.Day}, "k")}})
			skew := []time.Duration{-500 * time.Millisecond, 500 * time.Millisecond} // the two clocks, 1 s apart
			if first == "ahead" {
				skew[0], skew[1] = skew[1], skew[0]
			}
			admitted := 0
			for i := 0; i < 1000; i++ {
				at := midnight.Add(time.Duration(i)*time.Microsecond + skew[i%2]) // round robin: node i%2
				if g.Handle(cloud.Request{At: at, APIKey: "k"}).Status == http.StatusOK {
					admitted++
				}
			}
			want := 100
			if first == "behind" {
				want = 101 // one counted before midnight, then the new day's 100
			}
			if admitted != want {
				t.Fatalf("%d of 1,000 admitted around midnight by a daily quota of 100, want %d", admitted, want)
			}
		})
	}
}
