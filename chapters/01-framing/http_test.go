//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// clock is the fake wall clock the middleware reads.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time          { return c.now }
func (c *clock) Advance(d time.Duration) { c.now = c.now.Add(d) }

// bucketFor sizes a token bucket for a plan: C = the per-minute limit,
// R = limit / 60 per second.
func bucketFor(t *testing.T, p framing.Plan) framing.Limiter {
	t.Helper()
	l, err := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: p.Capacity(), Rate: p.RatePerSecond()})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// server is the chain under test with a handler that counts its calls.
type server struct {
	h     http.Handler
	clk   *clock
	calls int
}

func newServer(t *testing.T, cfg framing.Config) *server {
	t.Helper()
	s := &server{clk: &clock{now: time.UnixMilli(0)}}
	cfg.Now = s.clk.Now
	h, err := framing.Chain(cfg, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls++
		w.WriteHeader(http.StatusOK)
	}))
	if err != nil {
		t.Fatal(err)
	}
	s.h = h
	return s
}

func (s *server) do(apiKey, path string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if apiKey != "" {
		r.Header.Set("X-API-Key", apiKey)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	return w
}

// e17Plan is CONTRACT.md E17's contract: 100 per minute per API key, announced
// under the policy name "default".
var e17Plan = framing.Plan{Name: "default", PerMinute: 100}

func e17Config(t *testing.T, style framing.HeaderStyle) framing.Config {
	return framing.Config{
		Identify: func(r *http.Request) (framing.Identity, error) {
			k := r.Header.Get("X-API-Key")
			if k == "" {
				return framing.Identity{}, errors.New("missing X-API-Key")
			}
			return framing.Identity{APIKey: k, Plan: e17Plan}, nil
		},
		LimitConfig: framing.LimitConfig{
			Limiters: map[string]framing.Limiter{"default": bucketFor(t, e17Plan)},
			Headers:  style,
		},
	}
}

func TestE17_Remaining42Trio(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersTrio))
	var w *httptest.ResponseRecorder
	for i := 0; i < 58; i++ { // 58 permits spent at one instant leave 42
		w = s.do("ak_live_abc123", "/read")
	}
	want := map[string]string{
		"RateLimit-Limit":     "100",
		"RateLimit-Remaining": "42",
		// 58 missing permits refill at 100/60 per second in 34.8 s → 35.
		"RateLimit-Reset": "35",
	}
	for h, v := range want {
		if got := w.Header().Get(h); got != v {
			t.Errorf("%s: %q, want %q", h, got, v)
		}
	}
	if w.Code != 200 || w.Header().Get("Retry-After") != "" || w.Header().Get("RateLimit") != "" {
		t.Errorf("allowed response: code %d, headers %v", w.Code, w.Header())
	}
	if s.calls != 58 {
		t.Errorf("handler calls %d, want 58", s.calls)
	}
}

func TestE17_Remaining42Draft11(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersDraft11))
	var w *httptest.ResponseRecorder
	for i := 0; i < 58; i++ {
		w = s.do("ak_live_abc123", "/read")
	}
	if got, want := w.Header().Get("RateLimit-Policy"), `"default";q=100;w=60`; got != want {
		t.Errorf("RateLimit-Policy %q, want %q", got, want)
	}
	if got, want := w.Header().Get("RateLimit"), `"default";r=42;t=35`; got != want {
		t.Errorf("RateLimit %q, want %q", got, want)
	}
	if w.Header().Get("RateLimit-Remaining") != "" {
		t.Error("the draft-11 style must not also send the trio")
	}
}

// scripted answers like a Redis script returning (allowed, remaining).
type scripted struct{ d core.Decision }

func (s scripted) AllowN(string, time.Time, int) (core.Decision, error) { return s.d, nil }

func TestE17_ScriptAnswerAllowed42(t *testing.T) {
	for _, c := range []struct {
		style framing.HeaderStyle
		hdr   string
		want  string
	}{
		{framing.HeadersTrio, "RateLimit-Remaining", "42"},
		{framing.HeadersDraft11, "RateLimit", `"default";r=42;t=35`},
	} {
		cfg := e17Config(t, c.style)
		cfg.Limiters = map[string]framing.Limiter{"default": scripted{core.Decision{Allowed: true, Remaining: 42}}}
		s := newServer(t, cfg)
		if got := s.do("k", "/read").Header().Get(c.hdr); got != c.want {
			t.Errorf("%v: %s = %q, want %q", c.style, c.hdr, got, c.want)
		}
	}
}

func TestE17_RejectWith429RetryAfterAndJSON(t *testing.T) {
	for _, style := range []framing.HeaderStyle{framing.HeadersTrio, framing.HeadersDraft11} {
		s := newServer(t, e17Config(t, style))
		for i := 0; i < 100; i++ {
			if w := s.do("k", "/read"); w.Code != 200 {
				t.Fatalf("request %d: %d", i+1, w.Code)
			}
		}
		w := s.do("k", "/read")
		if w.Code != http.StatusTooManyRequests {
			t.Fatalf("101st: %d, want 429", w.Code)
		}
		// A permit exists 0.6 s later; whole seconds round up to 1, never down to 0.
		if got := w.Header().Get("Retry-After"); got != "1" {
			t.Errorf("Retry-After %q, want 1", got)
		}
		var body framing.ErrorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error != "rate_limited" || body.RetryAfterSeconds != 1 || body.Message == "" {
			t.Errorf("body %q (%v)", w.Body.String(), err)
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		// The quota headers ride on the 429 too.
		quota := map[framing.HeaderStyle][2]string{
			framing.HeadersTrio:    {"RateLimit-Remaining", "0"},
			framing.HeadersDraft11: {"RateLimit", `"default";r=0;t=60`},
		}[style]
		if got := w.Header().Get(quota[0]); got != quota[1] {
			t.Errorf("%v on the 429: %s = %q, want %q", style, quota[0], got, quota[1])
		}
		if s.calls != 100 {
			t.Errorf("handler calls %d, want 100: a rejected request must never reach it", s.calls)
		}
		s.clk.Advance(599 * time.Millisecond)
		if w := s.do("k", "/read"); w.Code != 429 {
			t.Errorf("at 599 ms: %d, want 429 (no permit yet)", w.Code)
		}
		s.clk.Advance(401 * time.Millisecond) // now exactly Retry-After after the 429
		if w := s.do("k", "/read"); w.Code != 200 {
			t.Errorf("after Retry-After: %d, want 200", w.Code)
		}
	}
}

// TestE17_RetryAfterNeverEarly replays random traffic; after every 429 the
// same request, sent exactly Retry-After later, must be allowed.
func TestE17_RetryAfterNeverEarly(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 17))
	cfg := framing.Config{LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}}}
	s := newServer(t, cfg)
	rejections := 0
	for i := 0; i < 3000; i++ {
		s.clk.Advance(time.Duration(rnd.IntN(400)) * time.Millisecond)
		path := "/read"
		if rnd.IntN(4) == 0 {
			path = "/upload"
		}
		w := s.do("free_x", path)
		if w.Code == 200 {
			continue
		}
		rejections++
		secs, err := strconv.Atoi(w.Header().Get("Retry-After"))
		if err != nil || secs < 1 {
			t.Fatalf("Retry-After %q", w.Header().Get("Retry-After"))
		}
		s.clk.Advance(time.Duration(secs) * time.Second)
		if w := s.do("free_x", path); w.Code != 200 {
			t.Fatalf("request %d (%s): rejected again %d s later, as Retry-After said", i, path, secs)
		}
	}
	if rejections < 100 {
		t.Fatalf("only %d rejections: the traffic does not exercise the limit", rejections)
	}
}

func TestE16_RouteCostsSpendPermits(t *testing.T) {
	cfg := framing.Config{LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}}}
	s := newServer(t, cfg)
	for i := 0; i < 12; i++ { // 12 uploads × 5 = the free plan's 60 permits
		if w := s.do("free_x", "/upload"); w.Code != 200 {
			t.Fatalf("upload %d: %d", i+1, w.Code)
		}
	}
	w := s.do("free_x", "/upload")
	if w.Code != 429 || w.Header().Get("Retry-After") != "5" { // 5 permits at 1 per second
		t.Fatalf("13th upload: %d Retry-After %q, want 429 and 5", w.Code, w.Header().Get("Retry-After"))
	}
	if w := s.do("free_x", "/read"); w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("read on an empty bucket: %d Retry-After %q, want 429 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	s.clk.Advance(time.Second)
	if w := s.do("free_x", "/read"); w.Code != 200 || w.Header().Get("RateLimit-Remaining") != "0" {
		t.Fatalf("read after 1 s: %d remaining %q", w.Code, w.Header().Get("RateLimit-Remaining"))
	}
	s.clk.Advance(4 * time.Second)
	if w := s.do("free_x", "/upload"); w.Code != 429 {
		t.Fatalf("upload with 4 permits: %d, want 429", w.Code)
	}
	s.clk.Advance(time.Second)
	if w := s.do("free_x", "/upload"); w.Code != 200 {
		t.Fatalf("upload with 5 permits: %d, want 200", w.Code)
	}
	if s.calls != 14 {
		t.Fatalf("handler calls %d, want 14 (12 uploads, 1 read, 1 upload)", s.calls)
	}
}

func TestE16_TiersPickTheLimitFromTheAPIKey(t *testing.T) {
	limiters := map[string]framing.Limiter{}
	for _, p := range framing.Plans {
		limiters[p.Name] = bucketFor(t, p)
	}
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: limiters}})
	for _, c := range []struct {
		key     string
		send    int
		allowed int
		limit   string
	}{
		{"free_a", 70, 60, "60"},
		{"paid_b", 1005, 1000, "1000"},
		{"enterprise_c", 10005, 10000, "10000"},
	} {
		before := s.calls
		var last *httptest.ResponseRecorder
		for i := 0; i < c.send; i++ {
			last = s.do(c.key, "/read")
		}
		if got := s.calls - before; got != c.allowed {
			t.Errorf("%s: %d reached the handler, want %d", c.key, got, c.allowed)
		}
		if last.Code != 429 || last.Header().Get("RateLimit-Limit") != c.limit {
			t.Errorf("%s: last %d, RateLimit-Limit %q; want 429 and %s", c.key, last.Code, last.Header().Get("RateLimit-Limit"), c.limit)
		}
	}
}

func TestChainRejectsUnidentifiedBeforeTheLimiter(t *testing.T) {
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}}})
	for _, k := range []string{"", "gold_1", "paid_x"} { // paid has no limiter here
		w := s.do(k, "/read")
		if w.Code == 200 {
			t.Errorf("key %q reached the handler", k)
		}
	}
	if w := s.do("", "/read"); w.Code != 401 {
		t.Errorf("no key: %d, want 401", w.Code)
	}
	if w := s.do("paid_x", "/read"); w.Code != 500 {
		t.Errorf("plan without a limiter: %d, want 500", w.Code)
	}
	if s.calls != 0 {
		t.Fatalf("handler calls %d, want 0", s.calls)
	}
}

func TestChainKeyChoices(t *testing.T) {
	lim := map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}
	// (API key, route): uploads cannot starve reads.
	s := newServer(t, framing.Config{Key: framing.KeyByAPIKeyAndRoute, LimitConfig: framing.LimitConfig{Limiters: lim}})
	for i := 0; i < 12; i++ {
		s.do("free_x", "/upload")
	}
	if w := s.do("free_x", "/read"); w.Code != 200 {
		t.Fatalf("per-route budgets: read after 12 uploads got %d", w.Code)
	}
	// By IP with /24 grouping: two addresses in one /24 share a budget.
	lim = map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}
	s = newServer(t, framing.Config{Key: framing.KeyByIP(framing.DefaultIPGrouping), LimitConfig: framing.LimitConfig{Limiters: lim}})
	send := func(addr string) int {
		r := httptest.NewRequest(http.MethodGet, "/read", nil)
		r.Header.Set("X-API-Key", "free_"+addr)
		r.RemoteAddr = addr + ":5000"
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		return w.Code
	}
	for i := 0; i < 30; i++ {
		send("203.0.113.7")
		send("203.0.113.8")
	}
	if send("203.0.113.9") != 429 || send("203.0.114.9") != 200 {
		t.Fatal("the /24 must share one budget and the next /24 have its own")
	}
}

func TestChainLimiterErrorAndBadConfig(t *testing.T) {
	cfg := framing.Config{LimitConfig: framing.LimitConfig{
		Limiters: map[string]framing.Limiter{"free": bucketFor(t, framing.Free)},
		Costs:    framing.CostTable{"/export": 100}, // more than the free bucket holds
	}}
	s := newServer(t, cfg)
	w := s.do("free_x", "/export")
	if w.Code != 500 || s.calls != 0 {
		t.Fatalf("cost above capacity: %d, handler calls %d", w.Code, s.calls)
	}
	var pe *core.ParamError
	if _, err := framing.Chain(framing.Config{}, http.NotFoundHandler()); !errors.As(err, &pe) || pe.Param != "limiters" {
		t.Fatalf("no limiters: err %v", err)
	}
}

// The client from client.go against the real chain: both read the same fake
// clock, and the client's sleep advances it.
func TestE17_RetryClientAgainstTheChain(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersTrio))
	for i := 0; i < 100; i++ {
		s.do("k", "/read")
	}
	c := &framing.RetryClient{
		Do: func(r *http.Request) (*http.Response, error) {
			w := httptest.NewRecorder()
			s.h.ServeHTTP(w, r)
			return w.Result(), nil
		},
		Backoff:     framing.Backoff{Base: 50 * time.Millisecond, Max: 2 * time.Second},
		MaxAttempts: 4,
		Rand:        rand.New(rand.NewPCG(5, 5)),
		Now:         s.clk.Now,
		Sleep:       func(_ context.Context, d time.Duration) error { s.clk.Advance(d); return nil },
	}
	req := httptest.NewRequest(http.MethodGet, "/read", nil)
	req.RequestURI = ""
	req.Header.Set("X-API-Key", "k")
	resp, err := c.Send(req)
	if err != nil {
		t.Fatal(err)
	}
	// One wait: Retry-After (1 s) plus the first retry's jitter, at most 50 ms.
	if resp.StatusCode != 200 || len(c.Waits) != 1 || c.Waits[0] < time.Second || c.Waits[0] > 1050*time.Millisecond || s.calls != 101 {
		t.Fatalf("status %d, waits %v, handler calls %d; want 200 after one wait in [1s, 1.05s]", resp.StatusCode, c.Waits, s.calls)
	}
}

func TestChainConcurrentNeverOverAdmits(t *testing.T) {
	const workers, each = 8, 40 // 320 requests per key at one instant for 100 permits
	var mu sync.Mutex
	calls := 0
	cfg := e17Config(t, framing.HeadersTrio)
	cfg.Now = func() time.Time { return time.UnixMilli(0) } // one instant: no refill
	h, err := framing.Chain(cfg, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				for _, key := range []string{"a", "b"} {
					r := httptest.NewRequest(http.MethodGet, "/read", nil)
					r.Header.Set("X-API-Key", key)
					h.ServeHTTP(httptest.NewRecorder(), r)
				}
			}
		}()
	}
	wg.Wait()
	if calls != 200 {
		t.Fatalf("handler calls %d for two keys of 100, want 200", calls)
	}
}

// BenchmarkChain measures what the three stages add to a request, beside
// the bare handler in the same run (report the ratio, not the ns).
func BenchmarkChain(b *testing.B) {
	l, _ := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: 1 << 40, Rate: 1e9})
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) })
	chain, _ := framing.Chain(framing.Config{LimitConfig: framing.LimitConfig{
		Limiters: map[string]framing.Limiter{"free": l}, Now: func() time.Time { return time.UnixMilli(0) }}}, ok)
	r := httptest.NewRequest(http.MethodGet, "/read", nil)
	r.Header.Set("X-API-Key", "free_bench")
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare-handler", ok}, {"chain", chain}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			w := httptest.NewRecorder()
			for i := 0; i < b.N; i++ {
				clear(w.Header())
				c.h.ServeHTTP(w, r)
			}
		})
	}
}

// TestRetryAfterSecondsNeverEarlyForHugeDurations is a regression test:
// rounding up used to compute d + 1s - 1ns, which wraps for a RetryAfter
// near the largest Duration (a window of centuries), and the header then
// said "Retry-After: 1".
func TestRetryAfterSecondsNeverEarlyForHugeDurations(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{1, 1},
		{600 * time.Millisecond, 1},
		{time.Second, 1},
		{time.Second + 1, 2},
		{math.MaxInt64, math.MaxInt64/int(time.Second) + 1},
		{math.MaxInt64 - time.Second/2, math.MaxInt64/int(time.Second) + 1},
	} {
		if got := framing.RetryAfterSeconds(c.d); got != c.want {
			t.Errorf("RetryAfterSeconds(%d) = %d, want %d", c.d, got, c.want)
		}
	}
}

// TestQuotaForPlanWithoutRate is a regression test: a hand-made Plan with
// PerMinute 0 (an IdentifyFunc's zero value) divided by zero.
func TestQuotaForPlanWithoutRate(t *testing.T) {
	q := framing.QuotaFor(framing.Plan{Name: "custom"}, core.Decision{RetryAfter: 2 * time.Second})
	if q.Limit != 0 || q.Remaining != 0 || q.Reset != 2*time.Second {
		t.Fatalf("QuotaFor(Plan{}) = %+v, want limit 0, remaining 0, reset 2s", q)
	}
}
