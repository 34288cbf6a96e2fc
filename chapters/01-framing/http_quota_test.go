//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	"github.com/ratelimit-course/ratelimit/core"
)

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
