package framing

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// The quota headers, all written by Quota.SetHeaders so that no two fields
// can disagree. The current IETF draft (draft-ietf-httpapi-ratelimit-headers,
// -11 of 23 May 2026; the fields below since -08, their meaning since -10)
// sends two structured fields:
//
//	RateLimit-Policy: "default";q=100;w=60   the policy: quota q per w seconds
//	RateLimit: "default";r=42;t=1            now: r units left, more in t seconds
//
// t is the number of seconds until MORE quota is available, not until all of
// it is back. On a 429 it is the Retry-After, which must not point earlier.

// HeaderStyle picks how the quota is announced on every response.
type HeaderStyle int

const (
	// HeadersCurrentDraft is the current draft's RateLimit-Policy and
	// RateLimit fields, t being the seconds until more quota is available.
	HeadersCurrentDraft HeaderStyle = iota
	// HeadersEarlyDraftTrio is the older style of drafts -00 to -06, still
	// common in the wild: RateLimit-Limit, RateLimit-Remaining and
	// RateLimit-Reset, Reset being delta seconds until the quota resets
	// (for a bucket: until it is full) and the same moment as Retry-After on
	// a 429. It is never a Unix time: that is the vendors' older
	// X-RateLimit-Reset habit.
	HeadersEarlyDraftTrio
)

func (s HeaderStyle) String() string {
	if s == HeadersEarlyDraftTrio {
		return "early-draft trio"
	}
	return "current draft"
}

// Quota is what the headers announce for one response.
type Quota struct {
	Policy    string        // the policy's name in the structured fields
	Limit     int           // permits per Window
	Window    time.Duration // the period Limit is stated over
	Remaining int           // permits left right after this request
	Allowed   bool          // false on a 429
	// Next is how long until more quota is available (the current draft's
	// t). On a rejection it is the decision's RetryAfter.
	Next time.Duration
	// Full is how long until the whole Limit is available again (the early
	// drafts' Reset). On a rejection it is the RetryAfter too, as those
	// drafts asked Reset and Retry-After to name the same moment.
	Full time.Duration
}

// QuotaFor derives the quota a plan's token bucket (C = PerMinute,
// R = PerMinute per minute) announces after d. After an admission the
// bucket holds Remaining whole permits plus a fraction, so the next permit
// arrives within one refill interval, Window/PerMinute (0.6 s at 100/min):
// Next is that interval, late by at most the fraction, never early, and 0
// when the bucket is full. Full refills the missing permits at the same
// rate, counted from the whole Remaining, so it is late by at most one
// interval too. PerMinute is a count of the course's domain (1 to 1e9). A
// limiter of another shape needs its own QuotaFunc.
func QuotaFor(p Plan, d core.Decision) Quota {
	q := Quota{Policy: p.Name, Limit: p.PerMinute, Window: p.Window(), Remaining: max(d.Remaining, 0), Allowed: d.Allowed}
	switch {
	case !d.Allowed:
		q.Next, q.Full = d.RetryAfter, d.RetryAfter
	case p.PerMinute > 0 && q.Remaining < p.PerMinute: // a hand-made Plan{} has no rate
		w, per, missing := p.Window().Nanoseconds(), int64(p.PerMinute), int64(p.PerMinute-q.Remaining)
		q.Next = time.Duration(ceilDiv(w, per))
		// missing·w/per without the overflow of missing·w (6e19 at 1e9/min)
		q.Full = time.Duration(missing*(w/per) + ceilDiv(missing*(w%per), per))
	}
	return q
}

// QuotaFunc derives the announced quota from a plan and a decision.
type QuotaFunc func(Plan, core.Decision) Quota

// SetHeaders writes the quota in the chosen style, and Retry-After on a
// rejection. Seconds are whole and rounded up, so a client that waits them
// out never arrives early; on a rejection t (or Reset) and Retry-After are
// one number.
func (q Quota) SetHeaders(h http.Header, style HeaderStyle) {
	next, full := ceilSeconds(q.Next), ceilSeconds(q.Full)
	if !q.Allowed {
		next = RetryAfterSeconds(q.Next)
		full = next
		h.Set("Retry-After", strconv.Itoa(next))
	}
	switch style {
	case HeadersEarlyDraftTrio:
		h.Set("RateLimit-Limit", strconv.Itoa(q.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(q.Remaining))
		h.Set("RateLimit-Reset", strconv.Itoa(full))
	default:
		name := sfString(q.Policy)
		h.Set("RateLimit-Policy", fmt.Sprintf("%s;q=%d;w=%d", name, q.Limit, ceilSeconds(q.Window)))
		h.Set("RateLimit", fmt.Sprintf("%s;r=%d;t=%d", name, q.Remaining, next))
	}
}

// RetryAfterSeconds turns a limiter's RetryAfter into the header's whole
// seconds. It rounds up: rounding 0.6 s down to 0 would send the client back
// before a permit exists, to be rejected again. A rejection always says at
// least 1.
func RetryAfterSeconds(d time.Duration) int { return max(ceilSeconds(d), 1) }

func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(ceilDiv(int64(d), int64(time.Second)))
}

// ceilDiv is the ceiling of a/b for a >= 0, b > 0, without the overflow of
// (a+b-1)/b: for a RetryAfter near the largest Duration that sum wraps
// negative and the header would say 1 second.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// sfString quotes a policy name as a structured-field string (RFC 9651).
func sfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c < 0x20 || c > 0x7e {
			continue // not representable in an sf-string; drop it
		}
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}
