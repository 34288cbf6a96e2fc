//go:build !exercise

// These tests wire the chain to chapter 04's token bucket, so they are left
// out when the exercise tag swaps that bucket for a learner's stub.

package framing_test

import (
	"fmt"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

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
