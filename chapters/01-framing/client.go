package framing

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// A rejection is rarely the end: the rejected client usually comes straight
// back. The server's half of the contract is an honest Retry-After; the
// client's half is to wait at least that long and to spread its retries so
// that a crowd rejected together does not return together.

// Backoff is capped exponential backoff with full jitter: before retry n
// (n = 0 for the first retry) the client draws a uniformly random delay in
// [0, min(Max, Base·2^n)]. The randomness is the point: clients that were
// rejected in the same instant retry at different instants.
type Backoff struct {
	Base time.Duration // ceiling of the first retry's delay, > 0
	Max  time.Duration // cap on the ceiling, >= Base
}

// Validate reports a bad field as a *core.ParamError.
func (b Backoff) Validate() error {
	if b.Base <= 0 {
		return core.BadParam("backoff base", b.Base, "a duration > 0")
	}
	if b.Max < b.Base {
		return core.BadParam("backoff max", b.Max, "a duration >= base ("+b.Base.String()+")")
	}
	return nil
}

// Ceiling is min(Max, Base·2^n), without overflow for any n.
func (b Backoff) Ceiling(n int) time.Duration {
	c := b.Base
	for i := 0; i < n && c < b.Max; i++ {
		if c > b.Max/2 {
			return b.Max // doubling would pass Max, or wrap past the largest Duration
		}
		c *= 2
	}
	return min(c, b.Max)
}

// Jitter draws retry n's delay from [0, Ceiling(n)].
func (b Backoff) Jitter(n int, rnd *rand.Rand) time.Duration {
	c := int64(b.Ceiling(n))
	if c == math.MaxInt64 {
		return time.Duration(rnd.Int64()) // [0, MaxInt64]: c+1 would wrap
	}
	return time.Duration(rnd.Int64N(c + 1))
}

// RetryWait is the wait before a retry: the server's Retry-After plus the
// client's jittered backoff on top. Retry-After is a floor (no permit exists
// before it, so coming back earlier is a second rejection), and the jitter
// above it spreads a crowd that was rejected together: 10,000 clients told
// "Retry-After: 30" with 10 s of jitter return over [30 s, 40 s], about 1,000
// per second. Two popular rules get this wrong. min(backoff, Retry-After)
// lets the random draw cut the server's answer short. max(Retry-After,
// backoff) honours the floor but collapses the jitter: every draw below
// Retry-After lands on the same instant, so the same 10,000 clients with up
// to 1 s of jitter all return at exactly t = 30 s. A wait too long for a
// Duration stays the longest one.
func RetryWait(retryAfter, jitter time.Duration) time.Duration {
	if retryAfter > math.MaxInt64-jitter {
		return math.MaxInt64
	}
	return retryAfter + jitter
}

// ParseRetryAfter reads a Retry-After value: delta seconds ("17") or an
// HTTP date, measured from now. A value longer than a Duration holds (about
// 292 years) is the longest Duration: "wait the longest", never "retry
// now". ok is false for anything else.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" { // delay-seconds = 1*DIGIT
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > math.MaxInt64/int64(time.Second) { // too many digits for an int64, or for a Duration
			return math.MaxInt64, true
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true // Sub saturates at the longest Duration
}

// RetryClient sends a request and retries it after a 429 (or a 503 carrying
// Retry-After), waiting RetryWait(Retry-After, jittered backoff) each time:
// the server's answer plus a random delay on top.
// Clock, sleep and randomness are injected so tests run instantly and
// reproducibly.
type RetryClient struct {
	Do          func(*http.Request) (*http.Response, error) // nil: http.DefaultClient.Do
	Backoff     Backoff
	MaxAttempts int                                              // total tries including the first, >= 1
	Rand        *rand.Rand                                       // nil: a generator seeded from the runtime
	Now         func() time.Time                                 // nil: time.Now
	Sleep       func(ctx context.Context, d time.Duration) error // nil: a timer honouring ctx
	// Combine merges Retry-After and the jittered backoff into the wait;
	// nil means RetryWait (the sum). It exists so that a test, or a
	// learner, can plug in min and watch the client come back too early,
	// or max and watch a crowd come back in one instant.
	Combine func(retryAfter, backoff time.Duration) time.Duration
	// Waits records every wait, in order (for tests and for logging).
	Waits []time.Duration
}

// Send performs req, retrying as described. A request with a body must have
// GetBody set (http.NewRequest does for common body types) so that it can
// be replayed. The last response is returned as is, 429 included, once
// MaxAttempts tries are used.
func (c *RetryClient) Send(req *http.Request) (*http.Response, error) {
	if err := c.Backoff.Validate(); err != nil {
		return nil, err
	}
	if c.MaxAttempts < 1 {
		return nil, core.BadParam("max attempts", c.MaxAttempts, "an integer >= 1")
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil && c.MaxAttempts > 1 {
		return nil, core.BadParam("request body", "not replayable", "a request with GetBody set, or no body")
	}
	do, now, sleep, rnd, combine := c.Do, c.Now, c.Sleep, c.Rand, c.Combine
	if do == nil {
		do = http.DefaultClient.Do
	}
	if now == nil {
		now = time.Now
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	if combine == nil {
		combine = RetryWait
	}
	if rnd == nil {
		rnd = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r = req.Clone(ctx)
			r.Body = body
		}
		resp, err := do(r)
		if err != nil {
			return nil, err
		}
		ra, hasRA := ParseRetryAfter(resp.Header.Get("Retry-After"), now())
		retryable := resp.StatusCode == http.StatusTooManyRequests ||
			(resp.StatusCode == http.StatusServiceUnavailable && hasRA)
		if !retryable || attempt+1 >= c.MaxAttempts {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, resp.Body) // let the connection be reused
		resp.Body.Close()
		wait := combine(ra, c.Backoff.Jitter(attempt, rnd))
		c.Waits = append(c.Waits, wait)
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
