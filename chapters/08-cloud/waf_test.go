package cloud_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	cloud "github.com/ratelimit-course/ratelimit/chapters/08-cloud"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

func waf(t *testing.T, r cloud.RateRule) *cloud.WAF { return algotest.Must(t, cloud.NewWAF, r) }

func TestE18_WAFEvaluationWindows(t *testing.T) {
	for _, m := range []int{1, 2, 5, 10} {
		if _, err := cloud.NewWAF(cloud.RateRule{Window: time.Duration(m) * time.Minute, Limit: 10}); err != nil {
			t.Errorf("%d-minute window rejected: %v", m, err)
		}
	}
	if w := waf(t, cloud.RateRule{Limit: 10}); w.Rule().Window != 5*time.Minute {
		t.Errorf("default window %v, want 5m", w.Rule().Window)
	}
	for _, bad := range []time.Duration{3 * time.Minute, 30 * time.Second, time.Hour, -time.Minute} {
		_, err := cloud.NewWAF(cloud.RateRule{Window: bad, Limit: 100})
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "evaluation window" || !strings.Contains(err.Error(), "1, 2, 5 or 10 minutes") {
			t.Errorf("window %v: err %v, want a ParamError naming the evaluation window and the accepted values", bad, err)
		}
	}
	_, err := cloud.NewWAF(cloud.RateRule{Window: 3 * time.Minute, Limit: 100})
	if got, want := err.Error(), "invalid evaluation window 3m0s: accepted 1, 2, 5 or 10 minutes (default 5)"; got != want {
		t.Errorf("3-minute window: %q, want %q", got, want)
	}
}

func TestE18_WAFMinimumThresholdIs10(t *testing.T) {
	for _, ok := range []int{10, 11, 100, 2000} {
		if _, err := cloud.NewWAF(cloud.RateRule{Limit: ok}); err != nil {
			t.Errorf("limit %d rejected: %v", ok, err)
		}
	}
	for _, bad := range []int{5, 9, 0, -1} {
		_, err := cloud.NewWAF(cloud.RateRule{Limit: bad})
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "rate limit" || !strings.Contains(err.Error(), ">= 10") {
			t.Errorf("limit %d: err %v, want a ParamError naming the rate limit and >= 10", bad, err)
		}
	}
}

func TestE18_WAFBlocksWhileAboveThreshold(t *testing.T) {
	w := waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByIP})
	send := func(sec int64) cloud.WAFVerdict {
		return w.Inspect(cloud.Request{At: at(sec * 1000), SourceIP: "198.51.100.7:40000"})
	}
	// One request per second for two minutes: the 11th in the trailing
	// minute is blocked and the block holds while the rate stays above 10/min.
	for s := int64(0); s < 120; s++ {
		v := send(s)
		if want := s >= 10; v.Blocked != want {
			t.Fatalf("second %d: blocked %v (count %d), want %v", s, v.Blocked, v.Count, want)
		}
		if v.Blocked && v.Status != http.StatusForbidden {
			t.Fatalf("block status %d, want the WAF default 403", v.Status)
		}
	}
	// The client slows down; once the trailing minute holds 10 or fewer
	// (this request included) it is released.
	w = waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByIP})
	for s := int64(0); s < 20; s++ {
		send(s)
	}
	if v := send(70); v.Blocked || v.Count != 10 { // (10 s, 70 s] holds 11..19 and this one
		t.Fatalf("after slowing down: %+v, want released with count 10", v)
	}
	if v := send(70); !v.Blocked {
		t.Fatalf("an 11th in the minute must be blocked again: %+v", v)
	}
	// A client that stays at 10 per minute is never blocked.
	w = waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByIP})
	for s := int64(0); s < 600; s += 6 {
		if v := send(s); v.Blocked {
			t.Fatalf("10 per minute blocked at %d s: %+v", s, v)
		}
	}
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestE18_WAFAggregationKeys(t *testing.T) {
	proxy := "203.0.113.1:443"
	edge := []string{"203.0.113.0/24", "10.0.0.0/8"} // the CDN and the internal balancers
	byIP := waf(t, cloud.RateRule{Limit: 10, Key: cloud.ByIP})
	byFwd := waf(t, cloud.RateRule{Limit: 10, Key: cloud.ByForwardedIP, TrustedProxies: edge})
	untrusting := waf(t, cloud.RateRule{Limit: 10, Key: cloud.ByForwardedIP})
	byCustom := waf(t, cloud.RateRule{Limit: 10, Key: cloud.ByCustom, CustomHeaders: []string{"X-Api-Key"}})
	a := cloud.Request{SourceIP: proxy, Header: hdr("X-Forwarded-For", "198.51.100.7, 10.0.0.1", "X-Api-Key", "partner")}
	b := cloud.Request{SourceIP: proxy, Header: hdr("X-Forwarded-For", "198.51.100.8", "X-Api-Key", "partner")}
	none := cloud.Request{SourceIP: proxy, Header: hdr()}
	cases := []struct {
		w          *cloud.WAF
		a, b, none string
	}{
		// Behind one proxy every client shares the proxy's address.
		{byIP, "ip:203.0.113.1", "ip:203.0.113.1", "ip:203.0.113.1"},
		// The forwarded IP tells them apart, read from the right past the
		// trusted hops; no header: counted under the source.
		{byFwd, "fwd:198.51.100.7", "fwd:198.51.100.8", "fwd:203.0.113.1"},
		// Trusting nobody, the source is the client whatever it forwards.
		{untrusting, "fwd:203.0.113.1", "fwd:203.0.113.1", "fwd:203.0.113.1"},
		{byCustom, `custom:X-Api-Key="partner"`, `custom:X-Api-Key="partner"`, ""},
	}
	for _, c := range cases {
		if got := []string{c.w.Key(a), c.w.Key(b), c.w.Key(none)}; got[0] != c.a || got[1] != c.b || got[2] != c.none {
			t.Errorf("%v: keys %q, want %q", c.w.Rule().Key, got, []string{c.a, c.b, c.none})
		}
	}
	// A custom value holding the separator cannot pose as two headers.
	two := waf(t, cloud.RateRule{Limit: 10, Key: cloud.ByCustom, CustomHeaders: []string{"A", "B"}})
	if k1, k2 := two.Key(cloud.Request{Header: hdr("A", "x&B=y", "B", "z")}), two.Key(cloud.Request{Header: hdr("A", "x", "B", "y&B=z")}); k1 == k2 {
		t.Errorf("two different header pairs share the key %q", k1)
	}
	if _, err := cloud.NewWAF(cloud.RateRule{Limit: 10, Key: cloud.ByCustom}); err == nil {
		t.Error("custom keys without headers accepted")
	}
	if _, err := cloud.NewWAF(cloud.RateRule{Limit: 10, Key: 7}); err == nil {
		t.Error("unknown key type accepted")
	}
	var pe *core.ParamError
	if _, err := cloud.NewWAF(cloud.RateRule{Limit: 10, Key: cloud.ByForwardedIP, TrustedProxies: []string{"cdn.example"}}); !errors.As(err, &pe) || pe.Param != "trusted proxy" {
		t.Errorf("a bad trusted proxy: err %v, want a ParamError naming trusted proxy", err)
	}
}

// TestWAFForwardedIPIsRightmostUntrustedHop is issue 11's finding: the
// model trusted the first X-Forwarded-For entry, which the client writes,
// so a client that changed it on every request was never blocked.
func TestWAFForwardedIPIsRightmostUntrustedHop(t *testing.T) {
	w := waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByForwardedIP, TrustedProxies: []string{"203.0.113.0/24"}})
	// A fresh first entry each time; the CDN appends the real address.
	blocked := inspectAll(t, w, 30, "fwd:198.51.100.7", func(i int) cloud.Request {
		return cloud.Request{At: at(int64(i) * 100), SourceIP: "203.0.113.1:443",
			Header: hdr("X-Forwarded-For", fmt.Sprintf("192.0.2.%d, 198.51.100.7", i))}
	})
	if blocked != 20 {
		t.Fatalf("%d of 30 spoofing requests blocked, want 20 (from the 11th)", blocked)
	}
}

// TestWAFMissingForwardedHeaderIsCounted is issue 11's finding: a request
// without the forwarding header, or with an unparsable one, was not
// counted at all, so dropping the header escaped the rule. It is counted
// under the source address now.
func TestWAFMissingForwardedHeaderIsCounted(t *testing.T) {
	w := waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByForwardedIP, TrustedProxies: []string{"203.0.113.0/24"}})
	blocked := inspectAll(t, w, 50, "fwd:203.0.113.1", func(i int) cloud.Request {
		h := hdr()
		if i%2 == 1 {
			h = hdr("X-Forwarded-For", "not an address")
		}
		return cloud.Request{At: at(0), SourceIP: "203.0.113.1:443", Header: h}
	})
	if blocked != 40 {
		t.Fatalf("%d of 50 requests without a usable header blocked, want 40", blocked)
	}
}

// inspectAll sends w n requests, req(i) the i-th, fails t at the first not
// keyed wantKey, and returns how many were blocked.
func inspectAll(t *testing.T, w *cloud.WAF, n int, wantKey string, req func(i int) cloud.Request) int {
	t.Helper()
	blocked := 0
	for i := range n {
		v := w.Inspect(req(i))
		if v.Key != wantKey {
			t.Fatalf("request %d keyed %q, want %q", i, v.Key, wantKey)
		}
		if v.Blocked {
			blocked++
		}
	}
	return blocked
}

// TestWAFForgetsIdleKeys: 10,000 sources once each, then a window of
// silence: one sweep leaves only the key of the request that ran it.
func TestWAFForgetsIdleKeys(t *testing.T) {
	w := waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: cloud.ByIP})
	for i := 0; i < 10000; i++ {
		w.Inspect(cloud.Request{At: at(int64(i)), SourceIP: fmt.Sprintf("10.0.%d.%d", i/256, i%256)})
	}
	if w.Keys() != 10000 {
		t.Fatalf("%d keys, want 10000 within the window", w.Keys())
	}
	w.Inspect(cloud.Request{At: at(10_000 + 60_000), SourceIP: "198.51.100.7"})
	if w.Keys() != 1 {
		t.Fatalf("%d keys a window later, want 1", w.Keys())
	}
}

func TestE18_WAFBlockedRequestsNeverReachTheApp(t *testing.T) {
	appCalls := 0
	s := &cloud.Stack{WAF: waf(t, cloud.RateRule{Window: time.Minute, Limit: 10}), App: func(cloud.Request) { appCalls++ }}
	blocked := 0
	for i := 0; i < 25; i++ {
		o, err := s.Serve(cloud.Request{At: at(int64(i) * 100), SourceIP: "198.51.100.7"})
		if err != nil {
			t.Fatal(err)
		}
		if o.Layer == "waf" {
			blocked++
			if o.ReachedApp || o.Status != 403 {
				t.Fatalf("blocked request: %+v", o)
			}
		}
	}
	if appCalls != 10 || blocked != 15 {
		t.Fatalf("app saw %d, WAF blocked %d; want 10 and 15", appCalls, blocked)
	}
}

// TestWAFGroupsIPv6ByPrefixOnlyWhenAsked is issue 5's first finding: 1,000
// addresses of one /64, ten requests allowed per window, and none blocked.
// That is what AWS WAF does (each distinct address is its own aggregation
// instance; the rule has no prefix option), so the model keeps it as the
// default and says so, and offers the grouping a limiter needs as an
// explicit option of the model: IPv6Prefix 64 blocks 990 of the 1,000.
func TestWAFGroupsIPv6ByPrefixOnlyWhenAsked(t *testing.T) {
	for _, c := range []struct {
		prefix, blocked int
		key             string
	}{
		{0, 0, "ip:2001:db8:1:2::3e7"},    // as AWS: every address is a key
		{64, 990, "ip:2001:db8:1:2::/64"}, // the model's option: one key per /64
		{48, 990, "ip:2001:db8:1::/48"},   // or a wider one
		{128, 0, "ip:2001:db8:1:2::3e7"},  // 128 groups nothing
	} {
		for _, key := range []cloud.KeyType{cloud.ByIP, cloud.ByForwardedIP} {
			w := waf(t, cloud.RateRule{Window: time.Minute, Limit: 10, Key: key, IPv6Prefix: c.prefix})
			blocked := 0
			var last cloud.WAFVerdict
			for i := 0; i < 1000; i++ {
				src := fmt.Sprintf("[2001:db8:1:2::%x]:443", i)
				last = w.Inspect(cloud.Request{At: at(int64(i)), SourceIP: src})
				if last.Blocked {
					blocked++
				}
			}
			want := strings.Replace(c.key, "ip:", map[cloud.KeyType]string{cloud.ByIP: "ip:", cloud.ByForwardedIP: "fwd:"}[key], 1)
			if blocked != c.blocked || last.Key != want {
				t.Errorf("%v, IPv6Prefix %d: %d of 1,000 from one /64 blocked, last key %q; want %d and %q", key, c.prefix, blocked, last.Key, c.blocked, want)
			}
		}
	}
	// IPv4 is untouched by the option, and the option is checked.
	w := waf(t, cloud.RateRule{Limit: 10, IPv6Prefix: 64})
	if k := w.Key(cloud.Request{SourceIP: "198.51.100.7:5000"}); k != "ip:198.51.100.7" {
		t.Errorf("an IPv4 source keyed %q under IPv6Prefix 64", k)
	}
	for _, bad := range []cloud.RateRule{{Limit: 10, IPv6Prefix: 12}, {Limit: 10, IPv6Prefix: 129}, {Limit: 10, IPv6Prefix: -1},
		{Limit: 10, Key: cloud.ByCustom, CustomHeaders: []string{"X-Api-Key"}, IPv6Prefix: 64}} {
		var pe *core.ParamError
		if _, err := cloud.NewWAF(bad); !errors.As(err, &pe) || pe.Param != "ipv6 prefix" {
			t.Errorf("%+v: err %v, want a ParamError naming the ipv6 prefix", bad, err)
		}
	}
}

// TestWAFStateIsBoundedPerKey is issue 5's second finding: the model kept
// the time of every request a key sent inside the window, blocked ones
// included, so one source at 10,000 per second for 300 s held 3,000,000
// times (+25.8 MB). Whether more than Limit requests fall in the window
// needs only the latest Limit + 1 times, so that is all a key keeps now:
// 11 times for a limit of 10, whatever the rate, and the same decisions.
func TestWAFStateIsBoundedPerKey(t *testing.T) {
	if testing.Short() {
		t.Skip("3M requests")
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	w := waf(t, cloud.RateRule{Window: 5 * time.Minute, Limit: 10, Key: cloud.ByIP})
	before := heap()
	blocked, counted := 0, 0
	r := cloud.Request{SourceIP: "198.51.100.7:5000"}
	for i := int64(0); i < 10_000*300; i++ {
		r.At = t0.Add(time.Duration(i) * 100 * time.Microsecond)
		v := w.Inspect(r)
		if v.Blocked {
			blocked++
		}
		counted = max(counted, v.Count)
	}
	grew := int64(heap()) - int64(before)
	t.Logf("blocked %d of 3,000,000; heap in use grew %.2f MB; largest count reported %d", blocked, float64(grew)/1e6, counted)
	if blocked != 3_000_000-10 {
		t.Fatalf("%d of 3,000,000 blocked, want all but the first 10", blocked)
	}
	if grew > 1<<20 {
		t.Fatalf("one key at 10,000 per second for 300 s grew the heap %.1f MB, want < 1 MB", float64(grew)/1e6)
	}
	runtime.KeepAlive(w)
}

// TestWAFKeepsTheDecisionsOfTheFullLog: on seeded random traffic the
// bounded state decides every request as a log of every request time does.
func TestWAFKeepsTheDecisionsOfTheFullLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for run := 0; run < 50; run++ {
		limit := 10 + rng.IntN(20)
		w := waf(t, cloud.RateRule{Window: time.Minute, Limit: limit, Key: cloud.ByIP})
		var log []time.Time // every request time of the one source inside the window
		now := t0
		for i := 0; i < 2000; i++ {
			now = now.Add(time.Duration(rng.ExpFloat64() * float64(time.Duration(1+rng.IntN(12))*time.Second)))
			log = append(log, now)
			for now.Sub(log[0]) >= time.Minute { // (now - W, now] is the window
				log = log[1:]
			}
			in := len(log)
			v := w.Inspect(cloud.Request{At: now, SourceIP: "198.51.100.7"})
			if v.Blocked != (in > limit) || v.Count != min(in, limit+1) {
				t.Fatalf("run %d, request %d: blocked %v count %d; the full log has %d in the window (limit %d)", run, i, v.Blocked, v.Count, in, limit)
			}
		}
	}
}
