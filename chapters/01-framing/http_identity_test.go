//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

func allPlans(t testing.TB) map[string]framing.Limiter {
	limiters := map[string]framing.Limiter{}
	for _, p := range framing.Plans {
		limiters[p.Name] = bucketFor(t, p)
	}
	return limiters
}

// TestE16_TiersComeFromTheKeyStore: the E16 tiers, each key's plan read
// from the store's record (the ids k1, k2, k3 say nothing about it).
func TestE16_TiersComeFromTheKeyStore(t *testing.T) {
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: allPlans(t)}})
	for _, c := range []struct {
		key     string
		send    int
		allowed int
		policy  string
	}{
		{freeKey, 70, 60, `"free";q=60;w=60`},
		{paidKey, 1005, 1000, `"paid";q=1000;w=60`},
		{entKey, 10005, 10000, `"enterprise";q=10000;w=60`},
	} {
		before := s.calls
		var last *httptest.ResponseRecorder
		for i := 0; i < c.send; i++ {
			last = s.do(c.key, "/read")
		}
		if got := s.calls - before; got != c.allowed {
			t.Errorf("%s: %d reached the handler, want %d", c.key, got, c.allowed)
		}
		if last.Code != 429 || last.Header().Get("RateLimit-Policy") != c.policy {
			t.Errorf("%s: last %d, RateLimit-Policy %q; want 429 and %s", c.key, last.Code, last.Header().Get("RateLimit-Policy"), c.policy)
		}
	}
}

// TestFreshKeysAreUnauthorized is issue 11's finding: 1,000 requests, each
// with a fresh free_<i> key, all reached the handler (the free plan allows
// 60). Now an unknown or malformed key is 401, spends no budget and leaves
// no limiter state.
func TestFreshKeysAreUnauthorized(t *testing.T) {
	free := bucketFor(t, framing.Free)
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": free}}})
	for i := 0; i < 1000; i++ {
		for _, k := range []string{
			fmt.Sprintf("free_%d", i),                     // the old spelling
			fmt.Sprintf("free%d.%s", i, secret("guess")),  // well formed, never issued
			fmt.Sprintf("k1.%s%d", secret("guess"), i),    // a real id, a guessed secret
			fmt.Sprintf("k1.%s", secret("free"))[:20+i%5], // a prefix of the real key
		} {
			if w := s.do(k, "/read"); w.Code != http.StatusUnauthorized || w.Header().Get("RateLimit") != "" {
				t.Fatalf("key %q: %d %v, want 401 without quota headers", k, w.Code, w.Header())
			}
		}
	}
	if s.calls != 0 || free.Len() != 0 {
		t.Fatalf("handler calls %d, limiter keys %d after 4,000 bad keys; want 0 and 0", s.calls, free.Len())
	}
	if w := s.do(freeKey, "/read"); w.Code != 200 || w.Header().Get("RateLimit") != `"free";r=59;t=1` {
		t.Fatalf("the real key after the flood: %d %q, want its untouched 60", w.Code, w.Header().Get("RateLimit"))
	}
}

// TestMadeUpEnterpriseKeyIs401: a made-up enterprise_… key got
// RateLimit-Limit: 10000. A plan is the store's, not the key's spelling.
func TestMadeUpEnterpriseKeyIs401(t *testing.T) {
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: allPlans(t)}})
	for _, k := range []string{"enterprise_x", "enterprise." + secret("x"), "k3." + secret("x")} {
		w := s.do(k, "/read")
		if w.Code != 401 || w.Header().Get("RateLimit-Policy") != "" || w.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("key %q: %d %v, want 401 with WWW-Authenticate and no quota", k, w.Code, w.Header())
		}
	}
	// An id spelled like a tier gets the plan on record, here free.
	store := framing.NewMemoryKeyStore()
	if err := store.Add("enterprise_1."+secret("e"), framing.Account{Plan: framing.Free}); err != nil {
		t.Fatal(err)
	}
	s = newServer(t, framing.Config{Keys: store, LimitConfig: framing.LimitConfig{Limiters: allPlans(t)}})
	if got := s.do("enterprise_1."+secret("e"), "/read").Header().Get("RateLimit-Policy"); got != `"free";q=60;w=60` {
		t.Fatalf("RateLimit-Policy %q, want the free plan on record", got)
	}
	if s.calls != 1 {
		t.Fatalf("handler calls %d, want 1", s.calls)
	}
}

// TestUserIDHeaderIsNotAnIdentity: KeyByUser trusted an X-User-ID header,
// so a client could spend a victim's budget or take a fresh one per request.
// The user id now comes from the verified key's record only.
func TestUserIDHeaderIsNotAnIdentity(t *testing.T) {
	s := newServer(t, framing.Config{Key: framing.KeyByUser, LimitConfig: framing.LimitConfig{Limiters: allPlans(t)}})
	var keys []string
	for i := 0; i < 70; i++ { // a fresh claimed user per request, or the victim's id
		claim := fmt.Sprint("user-", i)
		if i%2 == 0 {
			claim = "u-paid"
		}
		if w := s.send(freeKey, "/read", map[string]string{"X-User-ID": claim}); w.Code == 200 {
			keys = append(keys, claim)
		}
	}
	if len(keys) != 60 {
		t.Fatalf("%d of 70 requests with claimed user ids passed, want the free user's 60", len(keys))
	}
	// The victim's budget is untouched: a full 1000.
	if w := s.do(paidKey, "/read"); w.Code != 200 || w.Header().Get("RateLimit") != `"paid";r=999;t=1` {
		t.Fatalf("the victim: %d %q, want its full budget", w.Code, w.Header().Get("RateLimit"))
	}
	// A key with no user on record cannot be counted per user: 400, not a header's word.
	if w := s.send(entKey, "/read", map[string]string{"X-User-ID": "anyone"}); w.Code != 400 {
		t.Fatalf("a key without a user: %d, want 400", w.Code)
	}
}

func TestChainRejectsUnidentifiedBeforeTheLimiter(t *testing.T) {
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	for _, k := range []string{"", "gold_1", "k1.wrong"} {
		if w := s.do(k, "/read"); w.Code != 401 {
			t.Errorf("key %q: %d, want 401", k, w.Code)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/read", nil)
	r.Header.Add("X-API-Key", freeKey)
	r.Header.Add("X-API-Key", paidKey)
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("two API keys: %d, want 401", w.Code)
	}
	if w := s.do(paidKey, "/read"); w.Code != 500 {
		t.Errorf("plan without a limiter: %d, want 500", w.Code)
	}
	if s.calls != 0 {
		t.Fatalf("handler calls %d, want 0", s.calls)
	}
}

// TestOverlongKeyPartsAreRefused: an over-long API key is 401 and an
// over-long route 400, each naming the part and its cap.
func TestOverlongKeyPartsAreRefused(t *testing.T) {
	s := newServer(t, framing.Config{Key: framing.KeyByAPIKeyAndRoute,
		LimitConfig: framing.LimitConfig{Limiters: freeOnly(t), Route: framing.PathRoute}})
	for _, c := range []struct {
		key, path string
		code      int
		msg       string
	}{
		{strings.Repeat("k", 10000), "/read", 401, "invalid X-API-Key header of 10000 bytes: accepted at most 193 bytes"},
		{freeKey, "/" + strings.Repeat("p", 300), 400, "invalid route of 301 bytes: accepted 1 to 256 bytes"},
	} {
		w := s.do(c.key, c.path)
		var body framing.ErrorBody
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != c.code || !strings.HasPrefix(body.Message, c.msg) {
			t.Errorf("%d %q, want %d %q", w.Code, body.Message, c.code, c.msg)
		}
	}
	if s.calls != 0 {
		t.Fatalf("handler calls %d, want 0", s.calls)
	}
}

func TestChainKeyChoices(t *testing.T) {
	// (API key, route): uploads cannot starve reads.
	s := newServer(t, framing.Config{Key: framing.KeyByAPIKeyAndRoute, LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	for i := 0; i < 12; i++ {
		s.do(freeKey, "/upload")
	}
	if w := s.do(freeKey, "/read"); w.Code != 200 {
		t.Fatalf("per-route budgets: read after 12 uploads got %d", w.Code)
	}
	// By IP with /24 grouping: two addresses in one /24 share a budget.
	s = newServer(t, framing.Config{Identify: framing.IdentifyByAddress(framing.Free, framing.TrustedProxies{}),
		Key: framing.KeyByIP(framing.DefaultIPGrouping), LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	send := func(addr string) int {
		r := httptest.NewRequest(http.MethodGet, "/read", nil)
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

// TestClientIPBehindProxiesInTheChain: behind a trusted balancer the client
// is the rightmost untrusted X-Forwarded-For hop, so rotating the entries a
// client writes gains nothing, two clients behind the balancer keep their
// own budgets, and requests without the header are counted under the peer.
func TestClientIPBehindProxiesInTheChain(t *testing.T) {
	lb, err := framing.NewTrustedProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	perAddr, _ := framing.NewIPGrouping(32, 128)
	s := newServer(t, framing.Config{Identify: framing.IdentifyByAddress(framing.Free, lb),
		Key: framing.KeyByIP(perAddr), LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	via := func(peer string, xff ...string) int {
		r := httptest.NewRequest(http.MethodGet, "/read", nil)
		r.RemoteAddr = peer
		for _, v := range xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		return w.Code
	}
	ok := 0
	for i := 0; i < 1000; i++ { // a fresh spoofed entry each time; the balancer appends the truth
		if via("10.0.0.5:443", fmt.Sprintf("192.0.%d.%d, 198.51.100.7", i/256, i%256)) == 200 {
			ok++
		}
	}
	if ok != 60 {
		t.Fatalf("%d of 1000 spoofing requests passed, want 60", ok)
	}
	if via("10.0.0.5:443", "198.51.100.8") != 200 {
		t.Fatal("another client behind the same balancer shares the spoofer's budget")
	}
	ok = 0
	for i := 0; i < 100; i++ {
		if via("10.0.0.6:443") == 200 || via("10.0.0.6:443", "garbage") == 200 {
			ok++
		}
	}
	if ok != 60 {
		t.Fatalf("%d of 200 requests without a usable header passed, want 60 (counted under the peer)", ok)
	}
	ok = 0
	for i := 0; i < 100; i++ { // not our proxy: its header is the client's word
		if via("198.51.100.9:5000", fmt.Sprint("10.9.9.", i)) == 200 {
			ok++
		}
	}
	if ok != 60 {
		t.Fatalf("%d of 100 requests from an untrusted peer passed, want 60", ok)
	}
}
