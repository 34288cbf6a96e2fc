package framing

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBackoffFullJitter(t *testing.T) {
	b := Backoff{Base: 100 * time.Millisecond, Max: time.Second}
	wantCeil := []time.Duration{100, 200, 400, 800, 1000, 1000, 1000}
	for n, w := range wantCeil {
		if got := b.Ceiling(n); got != w*time.Millisecond {
			t.Errorf("Ceiling(%d) = %v, want %v", n, got, w*time.Millisecond)
		}
	}
	if b.Ceiling(1000) != time.Second {
		t.Error("a huge attempt number must stay at the cap")
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	var sum time.Duration
	const draws = 2000
	for i := 0; i < draws; i++ {
		d := b.Jitter(3, rnd)
		if d < 0 || d > 800*time.Millisecond {
			t.Fatalf("draw %v outside [0, 800ms]", d)
		}
		sum += d
	}
	// Full jitter is uniform: the mean is half the ceiling (loose bound).
	if mean := sum / draws; mean < 350*time.Millisecond || mean > 450*time.Millisecond {
		t.Errorf("mean draw %v, want about 400ms", mean)
	}
	// Seeded: the same seed gives the same delays.
	a, c := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 5; n++ {
		if b.Jitter(n, a) != b.Jitter(n, c) {
			t.Fatal("same seed, different delays")
		}
	}
	if (Backoff{}).Validate() == nil || (Backoff{Base: time.Second, Max: time.Millisecond}).Validate() == nil {
		t.Error("bad backoff accepted")
	}
}

func TestRetryWaitIsTheLonger(t *testing.T) {
	cases := []struct{ ra, bo, want time.Duration }{
		{2 * time.Second, 300 * time.Millisecond, 2 * time.Second}, // server's floor wins
		{time.Second, 3 * time.Second, 3 * time.Second},            // jitter spreads beyond it
		{0, 250 * time.Millisecond, 250 * time.Millisecond},        // no Retry-After: plain backoff
		{17 * time.Second, 17 * time.Second, 17 * time.Second},
	}
	for _, c := range cases {
		if got := RetryWait(c.ra, c.bo); got != c.want {
			t.Errorf("RetryWait(%v, %v) = %v, want %v", c.ra, c.bo, got, c.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"17", 17 * time.Second, true},
		{" 0 ", 0, true},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true}, // a past date means now
		{"-3", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseRetryAfter(c.v, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.v, got, ok, c.want, c.ok)
		}
	}
}

// permitServer models a server with one permit that exists only from
// availableAt on: before that it answers 429 with an honest Retry-After.
type permitServer struct {
	now         *time.Time
	availableAt time.Time
	calls       int
	rejected    int
}

func (s *permitServer) do(r *http.Request) (*http.Response, error) {
	s.calls++
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		if string(b) != "payload" {
			panic("body not replayed: " + string(b))
		}
	}
	h := http.Header{}
	code := http.StatusOK
	if s.now.Before(s.availableAt) {
		s.rejected++
		code = http.StatusTooManyRequests
		secs := RetryAfterSeconds(s.availableAt.Sub(*s.now))
		h.Set("Retry-After", strconv.Itoa(secs))
	}
	return &http.Response{StatusCode: code, Header: h, Body: io.NopCloser(strings.NewReader(""))}, nil
}

func fakeClient(now *time.Time, do func(*http.Request) (*http.Response, error), seed uint64) *RetryClient {
	return &RetryClient{
		Do:          do,
		Backoff:     Backoff{Base: 100 * time.Millisecond, Max: 5 * time.Second},
		MaxAttempts: 5,
		Rand:        rand.New(rand.NewPCG(seed, seed)),
		Now:         func() time.Time { return *now },
		Sleep:       func(_ context.Context, d time.Duration) error { *now = now.Add(d); return nil },
	}
}

func TestE17_ClientHonoursRetryAfter(t *testing.T) {
	now := time.UnixMilli(0)
	srv := &permitServer{now: &now, availableAt: time.UnixMilli(1400)} // RA rounds 1.4 s up to 2
	c := fakeClient(&now, srv.do, 42)
	req, _ := http.NewRequest(http.MethodPost, "http://api.test/upload", strings.NewReader("payload"))
	resp, err := c.Send(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || srv.calls != 2 || srv.rejected != 1 {
		t.Fatalf("status %d after %d calls (%d rejected); want 200 after 2 (1 rejected)", resp.StatusCode, srv.calls, srv.rejected)
	}
	// Jitter (<= 100 ms on the first retry) is shorter than Retry-After: 2 s wins.
	if len(c.Waits) != 1 || c.Waits[0] != 2*time.Second {
		t.Fatalf("waits %v, want [2s]", c.Waits)
	}
}

func TestE17_MinOfBackoffAndRetryAfterRetriesTooEarly(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		now := time.UnixMilli(0)
		srv := &permitServer{now: &now, availableAt: time.UnixMilli(3000)}
		bad := fakeClient(&now, srv.do, seed)
		bad.Combine = func(ra, bo time.Duration) time.Duration { return min(bo, ra) }
		req, _ := http.NewRequest(http.MethodGet, "http://api.test/read", nil)
		if _, err := bad.Send(req); err != nil {
			t.Fatal(err)
		}
		badRejected := srv.rejected

		now = time.UnixMilli(0)
		srv = &permitServer{now: &now, availableAt: time.UnixMilli(3000)}
		good := fakeClient(&now, srv.do, seed)
		if _, err := good.Send(req); err != nil {
			t.Fatal(err)
		}
		if srv.rejected != 1 {
			t.Fatalf("seed %d: max(Retry-After, backoff) was rejected %d times, want exactly the first", seed, srv.rejected)
		}
		// min() lets a short random draw cut Retry-After short: the client
		// is back before the permit exists and is rejected again.
		if badRejected < 2 {
			t.Fatalf("seed %d: min(backoff, Retry-After) rejected only %d times; it should retry early", seed, badRejected)
		}
	}
}

func TestRetryClientGivesUpAfterMaxAttempts(t *testing.T) {
	now := time.UnixMilli(0)
	calls := 0
	always429 := func(*http.Request) (*http.Response, error) {
		calls++
		h := http.Header{"Retry-After": {"1"}}
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h, Body: http.NoBody}, nil
	}
	c := fakeClient(&now, always429, 3)
	c.MaxAttempts = 3
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/read", nil)
	resp, err := c.Send(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests || calls != 3 || len(c.Waits) != 2 {
		t.Fatalf("got %v %v after %d calls, waits %v", resp.StatusCode, err, calls, c.Waits)
	}
	c.MaxAttempts = 0
	if _, err := c.Send(req); err == nil {
		t.Fatal("MaxAttempts 0 accepted")
	}
}

// TestBackoffCeilingNoOverflow is a regression test: with Max near the
// largest Duration, doubling Base wrapped negative and Jitter panicked.
func TestBackoffCeilingNoOverflow(t *testing.T) {
	b := Backoff{Base: 5e18, Max: math.MaxInt64}
	rnd := rand.New(rand.NewPCG(1, 1))
	for n := range 70 {
		c := b.Ceiling(n)
		if c < b.Base || c > b.Max {
			t.Fatalf("Ceiling(%d) = %v outside [Base, Max]", n, c)
		}
		if d := b.Jitter(n, rnd); d < 0 || d > c {
			t.Fatalf("Jitter(%d) = %v outside [0, %v]", n, d, c)
		}
	}
	if got := b.Ceiling(1); got != math.MaxInt64 {
		t.Fatalf("Ceiling(1) = %v, want Max", got)
	}
}

// TestParseRetryAfterHugeSaturates is a regression test: delta seconds past
// the largest Duration (about 292 years) wrapped negative, so the client
// came straight back instead of waiting.
func TestParseRetryAfterHugeSaturates(t *testing.T) {
	for _, v := range []string{"9223372037", "99999999999999"} {
		if d, ok := ParseRetryAfter(v, time.Unix(0, 0)); !ok || d != math.MaxInt64 {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want the largest Duration", v, d, ok)
		}
	}
	if d, ok := ParseRetryAfter("9223372036", time.Unix(0, 0)); !ok || d != 9223372036*time.Second {
		t.Errorf("ParseRetryAfter(9223372036) = %v, %v", d, ok)
	}
}
