//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
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

// TestE17_Remaining42 pins CONTRACT.md E17 in the current draft's fields:
// 58 permits spent leave 42, and more quota arrives within 0.6 s, so t=1
// (not the 35 s of a full refill, the meaning t had before draft -10).
func TestE17_Remaining42(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersCurrentDraft))
	var w *httptest.ResponseRecorder
	for i := 0; i < 58; i++ {
		w = s.do(e17Key, "/read")
	}
	if got, want := w.Header().Get("RateLimit-Policy"), `"default";q=100;w=60`; got != want {
		t.Errorf("RateLimit-Policy %q, want %q", got, want)
	}
	if got, want := w.Header().Get("RateLimit"), `"default";r=42;t=1`; got != want {
		t.Errorf("RateLimit %q, want %q", got, want)
	}
	if w.Code != 200 || w.Header().Get("Retry-After") != "" || w.Header().Get("RateLimit-Remaining") != "" {
		t.Errorf("allowed response: code %d, headers %v (no Retry-After, no trio)", w.Code, w.Header())
	}
	if s.calls != 58 {
		t.Errorf("handler calls %d, want 58", s.calls)
	}
}

// TestE17_Remaining42EarlyDraftTrio: the older trio, labelled as such,
// keeps the early drafts' Reset: until the quota is whole again, 58 × 0.6 s
// = 34.8 s → 35.
func TestE17_Remaining42EarlyDraftTrio(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersEarlyDraftTrio))
	var w *httptest.ResponseRecorder
	for i := 0; i < 58; i++ {
		w = s.do(e17Key, "/read")
	}
	want := map[string]string{"RateLimit-Limit": "100", "RateLimit-Remaining": "42", "RateLimit-Reset": "35"}
	for h, v := range want {
		if got := w.Header().Get(h); got != v {
			t.Errorf("%s: %q, want %q", h, got, v)
		}
	}
	if w.Header().Get("RateLimit") != "" {
		t.Error("the trio must not also send the structured fields")
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
		{framing.HeadersEarlyDraftTrio, "RateLimit-Remaining", "42"},
		{framing.HeadersCurrentDraft, "RateLimit", `"default";r=42;t=1`},
	} {
		cfg := e17Config(t, c.style)
		cfg.Limiters = map[string]framing.Limiter{"default": scripted{core.Decision{Allowed: true, Remaining: 42}}}
		s := newServer(t, cfg)
		if got := s.do(e17Key, "/read").Header().Get(c.hdr); got != c.want {
			t.Errorf("%v: %s = %q, want %q", c.style, c.hdr, got, c.want)
		}
	}
}

// TestE17_RejectWith429RetryAfterAndJSON: the 101st request in the same
// instant is 429 with Retry-After 1, and the quota headers say the same
// moment: t=1 (or Reset: 1), never the 60 that contradicted it.
func TestE17_RejectWith429RetryAfterAndJSON(t *testing.T) {
	for _, style := range []framing.HeaderStyle{framing.HeadersCurrentDraft, framing.HeadersEarlyDraftTrio} {
		s := newServer(t, e17Config(t, style))
		for i := 0; i < 100; i++ {
			if w := s.do(e17Key, "/read"); w.Code != 200 {
				t.Fatalf("request %d: %d", i+1, w.Code)
			}
		}
		w := s.do(e17Key, "/read")
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
		// The quota headers ride on the 429 too, and agree with Retry-After.
		quota := map[framing.HeaderStyle]map[string]string{
			framing.HeadersEarlyDraftTrio: {"RateLimit-Remaining": "0", "RateLimit-Reset": "1"},
			framing.HeadersCurrentDraft:   {"RateLimit": `"default";r=0;t=1`},
		}[style]
		for h, v := range quota {
			if got := w.Header().Get(h); got != v {
				t.Errorf("%v on the 429: %s = %q, want %q", style, h, got, v)
			}
		}
		if s.calls != 100 {
			t.Errorf("handler calls %d, want 100: a rejected request must never reach it", s.calls)
		}
		s.clk.Advance(599 * time.Millisecond)
		if w := s.do(e17Key, "/read"); w.Code != 429 {
			t.Errorf("at 599 ms: %d, want 429 (no permit yet)", w.Code)
		}
		s.clk.Advance(401 * time.Millisecond) // now exactly Retry-After after the 429
		if w := s.do(e17Key, "/read"); w.Code != 200 {
			t.Errorf("after Retry-After: %d, want 200", w.Code)
		}
	}
}

// rateLimitField parses `"name";r=R;t=T`.
func rateLimitField(t *testing.T, v string) (r, tt int) {
	t.Helper()
	if _, err := fmt.Sscanf(v[strings.IndexByte(v, ';'):], ";r=%d;t=%d", &r, &tt); err != nil {
		t.Fatalf("RateLimit %q: %v", v, err)
	}
	return r, tt
}

// TestE17_TIsWhenMoreQuotaArrives replays random traffic in the current
// style. After every response announcing r left and t seconds, a client
// that waits t seconds finds more than r: r+1 requests then all pass (on a
// 429, t equals Retry-After and one request passes).
func TestE17_TIsWhenMoreQuotaArrives(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 12))
	s := newServer(t, e17Config(t, framing.HeadersCurrentDraft))
	checked := 0
	for i := 0; i < 300; i++ {
		s.clk.Advance(time.Duration(rnd.IntN(3000)) * time.Millisecond)
		var w *httptest.ResponseRecorder
		for n := rnd.IntN(120); n >= 0; n-- {
			w = s.do(e17Key, "/read")
		}
		r, tt := rateLimitField(t, w.Header().Get("RateLimit"))
		if w.Code == 429 && strconv.Itoa(tt) != w.Header().Get("Retry-After") {
			t.Fatalf("429 with t=%d and Retry-After %q", tt, w.Header().Get("Retry-After"))
		}
		if r == 100 {
			continue // full: no more quota to announce
		}
		if tt < 1 {
			t.Fatalf("r=%d with t=%d: more quota is always at least a fraction of a second away", r, tt)
		}
		s.clk.Advance(time.Duration(tt) * time.Second)
		for k := 0; k <= r; k++ {
			if w := s.do(e17Key, "/read"); w.Code != 200 {
				t.Fatalf("round %d: r=%d t=%d, but request %d of %d, t seconds later, got %d", i, r, tt, k+1, r+1, w.Code)
			}
		}
		checked++
	}
	if checked < 200 {
		t.Fatalf("only %d rounds checked", checked)
	}
}

// TestE17_RetryAfterNeverEarly replays random traffic; after every 429 the
// same request, sent exactly Retry-After later, must be allowed.
func TestE17_RetryAfterNeverEarly(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 17))
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	rejections := 0
	for i := 0; i < 3000; i++ {
		s.clk.Advance(time.Duration(rnd.IntN(400)) * time.Millisecond)
		path := "/read"
		if rnd.IntN(4) == 0 {
			path = "/upload"
		}
		w := s.do(freeKey, path)
		if w.Code == 200 {
			continue
		}
		rejections++
		secs, err := strconv.Atoi(w.Header().Get("Retry-After"))
		if err != nil || secs < 1 {
			t.Fatalf("Retry-After %q", w.Header().Get("Retry-After"))
		}
		s.clk.Advance(time.Duration(secs) * time.Second)
		if w := s.do(freeKey, path); w.Code != 200 {
			t.Fatalf("request %d (%s): rejected again %d s later, as Retry-After said", i, path, secs)
		}
	}
	if rejections < 100 {
		t.Fatalf("only %d rejections: the traffic does not exercise the limit", rejections)
	}
}

func TestE16_RouteCostsSpendPermits(t *testing.T) {
	s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
	for i := 0; i < 12; i++ { // 12 uploads × 5 = the free plan's 60 permits
		if w := s.do(freeKey, "/upload"); w.Code != 200 {
			t.Fatalf("upload %d: %d", i+1, w.Code)
		}
	}
	w := s.do(freeKey, "/upload")
	if w.Code != 429 || w.Header().Get("Retry-After") != "5" { // 5 permits at 1 per second
		t.Fatalf("13th upload: %d Retry-After %q, want 429 and 5", w.Code, w.Header().Get("Retry-After"))
	}
	if w := s.do(freeKey, "/read"); w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("read on an empty bucket: %d Retry-After %q, want 429 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	s.clk.Advance(time.Second)
	if w := s.do(freeKey, "/read"); w.Code != 200 || w.Header().Get("RateLimit") != `"free";r=0;t=1` {
		t.Fatalf("read after 1 s: %d RateLimit %q", w.Code, w.Header().Get("RateLimit"))
	}
	s.clk.Advance(4 * time.Second)
	if w := s.do(freeKey, "/upload"); w.Code != 429 {
		t.Fatalf("upload with 4 permits: %d, want 429", w.Code)
	}
	s.clk.Advance(time.Second)
	if w := s.do(freeKey, "/upload"); w.Code != 200 {
		t.Fatalf("upload with 5 permits: %d, want 200", w.Code)
	}
	if s.calls != 14 {
		t.Fatalf("handler calls %d, want 14 (12 uploads, 1 read, 1 upload)", s.calls)
	}
}

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

// TestRawPathsShareOneBudget: with (API key, route) keys, a client that
// invents paths gets no fresh budget per path: unlisted paths are one route.
func TestRawPathsShareOneBudget(t *testing.T) {
	free := bucketFor(t, framing.Free)
	s := newServer(t, framing.Config{Key: framing.KeyByAPIKeyAndRoute,
		LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": free}}})
	for i := 0; i < 100; i++ {
		s.do(freeKey, fmt.Sprintf("/p/%d", i))
	}
	s.do(freeKey, "/x%7Croute:/y")
	if s.calls != 60 || free.Len() != 1 {
		t.Fatalf("%d of 101 invented paths passed with %d keys, want 60 and 1", s.calls, free.Len())
	}
}

// TestRouteSpellingsPayTheUploadPrice is issue 9 seen through the chain:
// each spelling of an upload cost 1, so a free key's 60 permits bought 60
// uploads in one instant; priced as the route a router hands it to, each
// costs 5 and the key gets 12.
func TestRouteSpellingsPayTheUploadPrice(t *testing.T) {
	for _, path := range []string{"/upload/", "//upload", "/UPLOAD", "/./upload", "/upload%2F", "/upload/x.png"} {
		s := newServer(t, framing.Config{LimitConfig: framing.LimitConfig{Limiters: freeOnly(t)}})
		for i := 0; i < 61; i++ {
			s.do(freeKey, path)
		}
		if s.calls != 12 {
			t.Errorf("%s: %d of 61 uploads in one instant passed, want 12 (60 permits at 5 each)", path, s.calls)
		}
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

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// rotate sends n clients, each from a fresh IPv6 /64, perSecond per second
// on the server's clock, and reports the most keys free held (sampled every
// 1,000 requests) and how much the heap in use grew.
func rotate(s *server, free *core.Keyed[*buckets.TokenBucket], n, perSecond int) (most int, grew int64) {
	before := heapInUse()
	r := httptest.NewRequest(http.MethodGet, "/read", nil)
	w := httptest.NewRecorder() // reused: only the limiter's state is measured
	for i := 0; i < n; i++ {
		r.RemoteAddr = fmt.Sprintf("[2001:db8:%x:%x::1]:443", i>>16, i&0xffff)
		clear(w.Header())
		s.h.ServeHTTP(w, r)
		if i%perSecond == perSecond-1 {
			s.clk.Advance(time.Second)
		}
		if i%1000 == 0 {
			most = max(most, free.Len())
		}
	}
	return most, int64(heapInUse()) - int64(before)
}

// TestRotatedIdentitiesKeepStateBounded is issue 11's finding: every new
// key left state behind and nothing swept it (200k rotated keys: +18 MB).
// 200,000 clients, each from a fresh IPv6 /64, arrive at 100 per second for
// 2,000 s. The chain sweeps once a minute on the request clock and a free
// bucket is idle once full again (at most 60 s after its last request), so
// the limiter holds at most the keys of the last 60 s + 60 s:
// 100/s × 120 s + 100 = 12,100, whatever the total.
func TestRotatedIdentitiesKeepStateBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("200k requests")
	}
	const n, perSecond = 200_000, 100
	free := bucketFor(t, framing.Free)
	s := newServer(t, framing.Config{Identify: framing.IdentifyByAddress(framing.Free, framing.TrustedProxies{}),
		Key: framing.KeyByIP(framing.DefaultIPGrouping), LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": free}}})
	most, grew := rotate(s, free, n, perSecond)
	if s.calls != n {
		t.Fatalf("%d of %d first requests passed", s.calls, n)
	}
	bound := perSecond*(60+60) + perSecond
	if l := free.Len(); l > bound || most > bound {
		t.Fatalf("limiter keys: %d at the end, %d at most; bound %d", l, most, bound)
	}
	t.Logf("keys at the end %d, at most %d (bound %d); heap in use grew %.1f MB", free.Len(), most, bound, float64(grew)/1e6)
	if grew > 8<<20 {
		t.Fatalf("heap in use grew %.1f MB over 200k rotated identities, want < 8 MB", float64(grew)/1e6)
	}
}

// TestChainSweepSurvivesAClockJump is issue 3's finding: one request
// stamped a year ahead, then the clock back, and the sweep stopped (it was
// next due a year later): 200,000 rotated identities left 200,000 keys and
// +51 MB against a bound of 12,100; and the sweep that ran at the future
// instant found every key idle there and dropped it, so a key that had
// spent its budget got a fresh one. The chain now sweeps at the earlier of
// the request's time and the previous request's, so one stray timestamp
// cannot sweep in the future, and a clock that falls back by more than a
// sweep period makes a sweep due at once. Both jumps are run, each followed
// by 50,000 rotated identities (before the fix: 50,002 and 50,001 keys,
// +13 MB): a single request a year ahead, and the clock set back a year for
// good.
func TestChainSweepSurvivesAClockJump(t *testing.T) {
	if testing.Short() {
		t.Skip("100k requests")
	}
	for _, jump := range []struct {
		name string
		at   func(c *clock) // what the clock does after the spender's minute
	}{
		{"one request a year ahead", func(c *clock) {}},
		{"the clock back a year for good", func(c *clock) { c.Advance(-365 * 24 * time.Hour) }},
	} {
		t.Run(jump.name, func(t *testing.T) {
			const n, perSecond = 50_000, 100 // 500 s of rotation, four times the bound
			free := bucketFor(t, framing.Free)
			s := newServer(t, framing.Config{Identify: framing.IdentifyByAddress(framing.Free, framing.TrustedProxies{}),
				Key: framing.KeyByIP(framing.DefaultIPGrouping), LimitConfig: framing.LimitConfig{Limiters: map[string]framing.Limiter{"free": free}}})
			s.clk.Advance(400 * 24 * time.Hour) // room to fall back a year
			r := httptest.NewRequest(http.MethodGet, "/read", nil)
			send := func(addr string) int { // a fresh recorder: one keeps its first status
				r.RemoteAddr = addr
				w := httptest.NewRecorder()
				s.h.ServeHTTP(w, r)
				return w.Code
			}
			// A client spends its whole budget.
			for i := 0; i < 60; i++ {
				send("198.51.100.7:5000")
			}
			if send("198.51.100.7:5000") != http.StatusTooManyRequests {
				t.Fatal("the 61st request in one instant passed")
			}
			// One request stamped a year ahead, then the clock as it was.
			s.clk.Advance(365 * 24 * time.Hour)
			send("203.0.113.9:5000")
			s.clk.Advance(-365 * 24 * time.Hour)
			jump.at(s.clk)
			if jump.name == "one request a year ahead" && send("198.51.100.7:5000") != http.StatusTooManyRequests {
				t.Error("after the stray timestamp the spent client got a fresh budget")
			}
			most, grew := rotate(s, free, n, perSecond)
			bound := perSecond*(60+60) + perSecond
			t.Logf("keys at the end %d, at most %d (bound %d); heap in use grew %.1f MB", free.Len(), most, bound, float64(grew)/1e6)
			if l := free.Len(); l > bound || most > bound {
				t.Fatalf("limiter keys after the jump: %d at the end, %d at most; bound %d", l, most, bound)
			}
			if grew > 8<<20 {
				t.Fatalf("heap in use grew %.1f MB, want < 8 MB", float64(grew)/1e6)
			}
		})
	}
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

// The client from client.go against the real chain: both read the same fake
// clock, and the client's sleep advances it.
func TestE17_RetryClientAgainstTheChain(t *testing.T) {
	s := newServer(t, e17Config(t, framing.HeadersCurrentDraft))
	for i := 0; i < 100; i++ {
		s.do(e17Key, "/read")
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
	req.Header.Set("X-API-Key", e17Key)
	resp, err := c.Send(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || len(c.Waits) != 1 || c.Waits[0] < time.Second || c.Waits[0] > time.Second+50*time.Millisecond || s.calls != 101 {
		t.Fatalf("status %d, waits %v, handler calls %d; want 200 after one wait of 1 s plus up to 50 ms", resp.StatusCode, c.Waits, s.calls)
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
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				for _, key := range keys {
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

// TestQuotaFor pins the announced times: the next permit within one refill
// interval, the full refill from the whole Remaining, 0 for a full bucket,
// the RetryAfter on a rejection, and no overflow at the domain's largest
// plan; a hand-made Plan with PerMinute 0 used to divide by zero.
func TestQuotaFor(t *testing.T) {
	big := framing.Plan{Name: "big", PerMinute: core.MaxCount}
	for _, c := range []struct {
		p          framing.Plan
		d          core.Decision
		next, full time.Duration
	}{
		{e17Plan, core.Decision{Allowed: true, Remaining: 42}, 600 * time.Millisecond, 34800 * time.Millisecond},
		{e17Plan, core.Decision{Allowed: true, Remaining: 100}, 0, 0},
		{e17Plan, core.Decision{RetryAfter: 600 * time.Millisecond}, 600 * time.Millisecond, 600 * time.Millisecond},
		{framing.Free, core.Decision{Allowed: true}, time.Second, time.Minute},
		{big, core.Decision{Allowed: true}, 60, time.Minute},
		{framing.Plan{Name: "custom"}, core.Decision{RetryAfter: 2 * time.Second}, 2 * time.Second, 2 * time.Second},
		{framing.Plan{Name: "custom"}, core.Decision{Allowed: true}, 0, 0},
	} {
		q := framing.QuotaFor(c.p, c.d)
		if q.Next != c.next || q.Full != c.full || q.Allowed != c.d.Allowed || q.Remaining != c.d.Remaining {
			t.Errorf("QuotaFor(%+v, %+v) = %+v, want next %v full %v", c.p, c.d, q, c.next, c.full)
		}
	}
}
