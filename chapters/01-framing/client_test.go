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

func TestRetryWaitPutsJitterOnTop(t *testing.T) {
	cases := []struct{ ra, jitter, want time.Duration }{
		{2 * time.Second, 300 * time.Millisecond, 2300 * time.Millisecond}, // the server's floor, then the spread
		{time.Second, 3 * time.Second, 4 * time.Second},
		{0, 250 * time.Millisecond, 250 * time.Millisecond}, // no Retry-After: plain backoff
		{17 * time.Second, 0, 17 * time.Second},
		{math.MaxInt64, time.Second, math.MaxInt64}, // the longest wait stays the longest
		{math.MaxInt64 - time.Second, 2 * time.Second, math.MaxInt64},
	}
	for _, c := range cases {
		if got := RetryWait(c.ra, c.jitter); got != c.want {
			t.Errorf("RetryWait(%v, %v) = %v, want %v", c.ra, c.jitter, got, c.want)
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
		{"+5", 0, false}, // delay-seconds is digits only
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
	// Retry-After (2 s) plus the first retry's jitter, at most 100 ms.
	if len(c.Waits) != 1 || c.Waits[0] < 2*time.Second || c.Waits[0] > 2100*time.Millisecond {
		t.Fatalf("waits %v, want one wait in [2s, 2.1s]", c.Waits)
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
			t.Fatalf("seed %d: Retry-After + jitter was rejected %d times, want exactly the first", seed, srv.rejected)
		}
		// min() lets a short random draw cut Retry-After short: the client
		// is back before the permit exists and is rejected again.
		if badRejected < 2 {
			t.Fatalf("seed %d: min(backoff, Retry-After) rejected only %d times; it should retry early", seed, badRejected)
		}
	}
}

// herd sends clients RetryClients, each with its own seeded generator, to a
// server that answers every first request at t = 0 with 429 and
// "Retry-After: 30" and every retry with 200. It returns when each client
// came back, as offsets from t = 0.
func herd(t *testing.T, clients int, b Backoff, combine func(ra, jitter time.Duration) time.Duration) []time.Duration {
	t.Helper()
	back := make([]time.Duration, 0, clients)
	for i := range clients {
		now := time.UnixMilli(0)
		first := true
		do := func(*http.Request) (*http.Response, error) {
			if first {
				first = false
				h := http.Header{"Retry-After": {"30"}}
				return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h, Body: http.NoBody}, nil
			}
			back = append(back, now.Sub(time.UnixMilli(0)))
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
		}
		c := fakeClient(&now, do, 0)
		c.Backoff, c.Combine = b, combine
		c.Rand = rand.New(rand.NewPCG(17, uint64(i)))
		req, _ := http.NewRequest(http.MethodGet, "http://api.test/read", nil)
		if resp, err := c.Send(req); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("client %d: %v %v", i, resp, err)
		}
	}
	return back
}

// TestE17_RetryHerdSpreadsAboveRetryAfter: 10,000 clients rejected in one
// instant with "Retry-After: 30". Waiting max(Retry-After, backoff) with up
// to 1 s of jitter brings all 10,000 back at exactly t = 30 s: every draw is
// below 30 s, so the max erases it. Waiting Retry-After + jitter with 10 s of
// jitter brings none back before 30 s and about 1,000 in each second of
// [30 s, 40 s).
func TestE17_RetryHerdSpreadsAboveRetryAfter(t *testing.T) {
	const clients = 10_000
	ra := 30 * time.Second
	oneSecond := Backoff{Base: time.Second, Max: time.Second}
	maxRule := func(ra, jitter time.Duration) time.Duration { return max(ra, jitter) }
	atOnce := 0
	for _, d := range herd(t, clients, oneSecond, maxRule) {
		if d == ra {
			atOnce++
		}
	}
	if atOnce != clients {
		t.Fatalf("max(Retry-After, jitter <= 1s): %d of %d clients back at exactly 30s, want all", atOnce, clients)
	}

	tenSeconds := Backoff{Base: 10 * time.Second, Max: 10 * time.Second}
	perSecond := make([]int, 11) // second 30, 31, … 40 after the rejection
	instants := map[time.Duration]int{}
	for _, d := range herd(t, clients, tenSeconds, nil) {
		if d < ra || d > ra+10*time.Second {
			t.Fatalf("a client came back at %v, outside [30s, 40s]", d)
		}
		perSecond[(d-ra)/time.Second]++
		instants[d]++
	}
	for s, n := range perSecond[:10] {
		if n < 900 || n > 1100 {
			t.Errorf("Retry-After + U[0, 10s]: %d clients in second %d, want about 1,000", n, 30+s)
		}
	}
	peak := 0
	for _, n := range instants {
		peak = max(peak, n)
	}
	if peak > 2 {
		t.Errorf("%d clients share one instant, want the crowd spread (at most 2)", peak)
	}
	t.Logf("max rule: %d at t=30s; Retry-After + jitter: per second %v, at most %d in one instant", atOnce, perSecond[:10], peak)
}

// always429 answers every request 429 with the given Retry-After, counting
// the calls.
func always429(retryAfter string, calls *int) func(*http.Request) (*http.Response, error) {
	return func(*http.Request) (*http.Response, error) {
		*calls++
		h := http.Header{"Retry-After": {retryAfter}}
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h, Body: http.NoBody}, nil
	}
}

func TestRetryClientGivesUpAfterMaxAttempts(t *testing.T) {
	now := time.UnixMilli(0)
	calls := 0
	c := fakeClient(&now, always429("1", &calls), 3)
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

// TestParseRetryAfterHugeSaturates: a Retry-After longer than a Duration
// holds (about 292 years), in seconds or as a date, means "wait the longest",
// never "retry now". Seconds past the largest Duration once wrapped negative,
// and digits past the largest int64 were treated as no Retry-After at all.
func TestParseRetryAfterHugeSaturates(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Format(http.TimeFormat)
	for _, v := range []string{"9223372037", "99999999999999", "99999999999999999999", "123456789012345678901234567890", far} {
		if d, ok := ParseRetryAfter(v, time.Unix(0, 0)); !ok || d != math.MaxInt64 {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want the largest Duration", v, d, ok)
		}
	}
	if d, ok := ParseRetryAfter("9223372036", time.Unix(0, 0)); !ok || d != 9223372036*time.Second {
		t.Errorf("ParseRetryAfter(9223372036) = %v, %v", d, ok)
	}
}

// TestRetryClientWaitsTheLongestForAHugeRetryAfter: a 429 whose Retry-After
// has more digits than an int64 holds makes the client wait the longest
// Duration (jitter on top cannot wrap it), not retry at once.
func TestRetryClientWaitsTheLongestForAHugeRetryAfter(t *testing.T) {
	now := time.UnixMilli(0)
	calls := 0
	c := fakeClient(&now, always429("99999999999999999999", &calls), 5)
	c.MaxAttempts = 2
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/read", nil)
	if _, err := c.Send(req); err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(c.Waits) != 1 || c.Waits[0] != math.MaxInt64 {
		t.Fatalf("%d calls, waits %v; want one wait of the largest Duration", calls, c.Waits)
	}
}
