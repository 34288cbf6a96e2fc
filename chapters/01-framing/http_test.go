//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
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
func bucketFor(t testing.TB, p framing.Plan) *core.Keyed[*buckets.TokenBucket] {
	t.Helper()
	l, err := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: p.Capacity(), Rate: p.RatePerSecond()})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// secret pads a name into a valid secret half of an API key.
func secret(name string) string { return name + "-" + strings.Repeat("s", 20) }

// The keys the tests' store issued. Their ids say nothing about the plan:
// the store's record does.
var (
	e17Key  = "e17." + secret("e17")
	freeKey = "k1." + secret("free")
	paidKey = "k2." + secret("paid")
	entKey  = "k3." + secret("enterprise")
)

// e17Plan is CONTRACT.md E17's contract: 100 per minute per API key, announced
// under the policy name "default".
var e17Plan = framing.Plan{Name: "default", PerMinute: 100}

func testStore(t testing.TB) *framing.MemoryKeyStore {
	t.Helper()
	s := framing.NewMemoryKeyStore()
	for _, c := range []struct {
		key  string
		user string
		plan framing.Plan
	}{
		{e17Key, "u-e17", e17Plan}, {freeKey, "u-free", framing.Free},
		{paidKey, "u-paid", framing.Paid}, {entKey, "", framing.Enterprise},
	} {
		if err := s.Add(c.key, framing.Account{UserID: c.user, Plan: c.plan}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// server is the chain under test with a handler that counts its calls.
type server struct {
	h     http.Handler
	clk   *clock
	calls int
}

func newServer(t testing.TB, cfg framing.Config) *server {
	t.Helper()
	s := &server{clk: &clock{now: time.UnixMilli(0)}}
	cfg.Now = s.clk.Now
	if cfg.Identify == nil && cfg.Keys == nil {
		cfg.Keys = testStore(t)
	}
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
	return s.send(apiKey, path, nil)
}

// send is do with extra headers.
func (s *server) send(apiKey, path string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if apiKey != "" {
		r.Header.Set("X-API-Key", apiKey)
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	return w
}

func freeOnly(t testing.TB) map[string]framing.Limiter {
	return map[string]framing.Limiter{"free": bucketFor(t, framing.Free)}
}

func e17Config(t *testing.T, style framing.HeaderStyle) framing.Config {
	return framing.Config{LimitConfig: framing.LimitConfig{
		Limiters: map[string]framing.Limiter{"default": bucketFor(t, e17Plan)},
		Headers:  style,
	}}
}

func TestChainLimiterErrorAndBadConfig(t *testing.T) {
	cfg := framing.Config{LimitConfig: framing.LimitConfig{
		Limiters: freeOnly(t),
		Costs:    framing.CostTable{"/export": 100}, // more than the free bucket holds
	}}
	s := newServer(t, cfg)
	w := s.do(freeKey, "/export")
	if w.Code != 500 || s.calls != 0 {
		t.Fatalf("cost above capacity: %d, handler calls %d", w.Code, s.calls)
	}
	for _, c := range []struct {
		cfg   framing.Config
		param string
	}{
		{framing.Config{LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}}, "keys"},
		{framing.Config{Keys: testStore(t)}, "limiters"},
		{framing.Config{Keys: testStore(t), LimitConfig: framing.LimitConfig{Limiters: freeOnly(t), SweepEvery: -1}}, "sweep every"},
	} {
		var pe *core.ParamError
		if _, err := framing.Chain(c.cfg, http.NotFoundHandler()); !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("err %v, want a ParamError naming %s", err, c.param)
		}
	}
}

func TestChainConcurrentNeverOverAdmits(t *testing.T) {
	const workers, each = 8, 40 // 320 requests per key at one instant for 100 permits
	var mu sync.Mutex
	calls := 0
	store := framing.NewMemoryKeyStore()
	keys := []string{"a." + secret("a"), "b." + secret("b")}
	for _, k := range keys {
		if err := store.Add(k, framing.Account{Plan: e17Plan}); err != nil {
			t.Fatal(err)
		}
	}
	cfg := e17Config(t, framing.HeadersCurrentDraft)
	cfg.Keys = store
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
	for range workers {
		wg.Go(func() {
			for range each {
				for _, key := range keys {
					r := httptest.NewRequest(http.MethodGet, "/read", nil)
					r.Header.Set("X-API-Key", key)
					h.ServeHTTP(httptest.NewRecorder(), r)
				}
			}
		})
	}
	wg.Wait()
	if calls != 200 {
		t.Fatalf("handler calls %d for two keys of 100, want 200", calls)
	}
}

// BenchmarkChain measures what the three stages add to a request, beside
// the bare handler in the same run (report the ratio, not the ns). The
// chain's share includes verifying the key: one SHA-256 of its secret.
func BenchmarkChain(b *testing.B) {
	l, _ := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: core.MaxCount, Rate: core.MaxRate})
	store := framing.NewMemoryKeyStore()
	if err := store.Add(freeKey, framing.Account{Plan: framing.Free}); err != nil {
		b.Fatal(err)
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) })
	chain, err := framing.Chain(framing.Config{Keys: store, LimitConfig: framing.LimitConfig{
		Limiters: map[string]framing.Limiter{"free": l}, Now: func() time.Time { return time.UnixMilli(0) }}}, ok)
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/read", nil)
	r.Header.Set("X-API-Key", freeKey)
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
