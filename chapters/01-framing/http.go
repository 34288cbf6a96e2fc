package framing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Placement, in code: the limiter sits after identity (it must know whom to
// count) and before the handler (a rejected request must cost almost
// nothing). The chain is three small middlewares,
//
//	Identify → KeyBy → Limit → handler
//
// and Chain wires them from one Config. A rejected request returns from
// Limit: the handler, and whatever database it would have hit, never runs.

// Limiter is all the middleware needs from a rate limiter: one decision for a
// key at a time. *Keyed[A] satisfies it, so every algorithm of chapters 02–04
// plugs in; so does a Redis-backed limiter from chapter 06.
type Limiter interface {
	AllowN(key string, now time.Time, cost int) (core.Decision, error)
}

// Identity is what the first stage learns about the caller.
type Identity struct {
	APIKey string // the credential, if any
	UserID string // the authenticated user, if any
	IP     string // the peer address as the server saw it (host:port allowed)
	Plan   Plan   // the tier that sets the limit
}

// IdentifyFunc recognises the caller. An error means the request cannot be
// counted and is answered 401 before it reaches the limiter.
type IdentifyFunc func(r *http.Request) (Identity, error)

// KeyFunc turns an identity and a route into the limiter key.
type KeyFunc func(id Identity, route string) (string, error)

// IdentifyByAPIKey reads the X-API-Key header, takes the plan from the key's
// prefix (see PlanForAPIKey), the user from X-User-ID and the address from
// RemoteAddr. Only the API key is required.
func IdentifyByAPIKey(r *http.Request) (Identity, error) {
	k := r.Header.Get("X-API-Key")
	if k == "" {
		return Identity{}, core.BadParam("X-API-Key header", `""`, "an API key such as free_…, paid_… or enterprise_…")
	}
	p, err := PlanForAPIKey(k)
	if err != nil {
		return Identity{}, err
	}
	return Identity{APIKey: k, UserID: r.Header.Get("X-User-ID"), IP: r.RemoteAddr, Plan: p}, nil
}

// KeyByAPIKey counts the credential: "100 per minute per API key".
func KeyByAPIKey(id Identity, _ string) (string, error) { return APIKeyKey(id.APIKey), nil }

// KeyByAPIKeyAndRoute gives every (API key, route) pair its own budget.
func KeyByAPIKeyAndRoute(id Identity, route string) (string, error) {
	return RouteKey(APIKeyKey(id.APIKey), route), nil
}

// KeyByUser counts the authenticated user.
func KeyByUser(id Identity, _ string) (string, error) {
	if id.UserID == "" {
		return "", core.BadParam("user id", `""`, "a non-empty user id")
	}
	return UserKey(id.UserID), nil
}

// KeyByIP counts the caller's network, grouped by g.
func KeyByIP(g IPGrouping) KeyFunc {
	return func(id Identity, _ string) (string, error) { return g.Key(id.IP) }
}

// KeyByRoute counts everyone calling one route together (a per-endpoint limit).
func KeyByRoute(_ Identity, route string) (string, error) { return "route:" + route, nil }

type ctxKey int

const (
	identityCtx ctxKey = iota
	keyCtx
)

// IdentityFrom returns the identity the Identify stage stored.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityCtx).(Identity)
	return id, ok
}

// KeyFrom returns the limiter key the KeyBy stage stored.
func KeyFrom(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(keyCtx).(string)
	return k, ok
}

// Identify is the first stage: it answers 401 for a caller it cannot
// recognise and otherwise stores the Identity in the request context.
func Identify(f IdentifyFunc) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, err := f(r)
			if err != nil {
				writeError(w, http.StatusUnauthorized, "unidentified", err.Error(), 0)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identityCtx, id)))
		})
	}
}

// KeyBy is the second stage: it computes the limiter key from the identity
// and the route and stores it in the context. A key that cannot be built
// (no user id where one is needed, an unparsable address) is answered 400.
func KeyBy(f KeyFunc, route func(*http.Request) string) func(http.Handler) http.Handler {
	if route == nil {
		route = PathRoute
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, ok := IdentityFrom(r.Context())
			if !ok {
				writeError(w, http.StatusInternalServerError, "misconfigured", "KeyBy runs after Identify", 0)
				return
			}
			k, err := f(id, route(r))
			if err != nil {
				writeError(w, http.StatusBadRequest, "unkeyed", err.Error(), 0)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyCtx, k)))
		})
	}
}

// PathRoute is the default route of a request: its URL path.
func PathRoute(r *http.Request) string { return r.URL.Path }

// HeaderStyle picks how the quota is announced on every response.
type HeaderStyle int

const (
	// HeadersTrio is the early IETF drafts' three fields, still the most
	// common in the wild: RateLimit-Limit, RateLimit-Remaining and
	// RateLimit-Reset, Reset being delta seconds (never a Unix timestamp:
	// that is the older X-RateLimit-Reset habit).
	HeadersTrio HeaderStyle = iota
	// HeadersDraft11 is the current draft's two structured fields:
	// RateLimit-Policy: "default";q=100;w=60 and
	// RateLimit: "default";r=42;t=35.
	HeadersDraft11
)

func (s HeaderStyle) String() string {
	if s == HeadersDraft11 {
		return "draft-11"
	}
	return "trio"
}

// LimitConfig configures the third stage.
type LimitConfig struct {
	// Limiters holds one limiter per plan name, each sized for that plan
	// (a token bucket with Capacity() and RatePerSecond(), say). Required.
	Limiters map[string]Limiter
	// Costs prices each route; nil means DefaultCosts.
	Costs CostTable
	// Route names a request's route for Costs; nil means PathRoute.
	Route func(*http.Request) string
	// Now is the clock. The middleware is an edge, the one place that reads
	// the time; tests inject a fake. nil means time.Now.
	Now func() time.Time
	// Headers picks the quota header style.
	Headers HeaderStyle
}

// Limit is the third stage: it spends the route's cost from the key's
// budget, sets the quota headers, and either calls next or answers 429 with
// Retry-After and a JSON body. Limiter errors are answered 500 (the caller
// decides elsewhere whether a broken limiter fails open; see chapter 06).
func Limit(cfg LimitConfig) (func(http.Handler) http.Handler, error) {
	if len(cfg.Limiters) == 0 {
		return nil, core.BadParam("limiters", "none", "one limiter per plan name")
	}
	for name, l := range cfg.Limiters {
		if l == nil {
			return nil, core.BadParam("limiters", fmt.Sprintf("%s: nil", name), "a non-nil limiter per plan name")
		}
	}
	if cfg.Costs == nil {
		cfg.Costs = DefaultCosts
	}
	if cfg.Route == nil {
		cfg.Route = PathRoute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, ok1 := IdentityFrom(r.Context())
			key, ok2 := KeyFrom(r.Context())
			if !ok1 || !ok2 {
				writeError(w, http.StatusInternalServerError, "misconfigured", "Limit runs after Identify and KeyBy", 0)
				return
			}
			lim, ok := cfg.Limiters[id.Plan.Name]
			if !ok {
				writeError(w, http.StatusInternalServerError, "misconfigured", "no limiter for plan "+id.Plan.Name, 0)
				return
			}
			d, err := lim.AllowN(key, cfg.Now(), cfg.Costs.Cost(cfg.Route(r)))
			if err != nil {
				writeError(w, http.StatusInternalServerError, "limiter_error", err.Error(), 0)
				return
			}
			q := QuotaFor(id.Plan, d)
			q.SetHeaders(w.Header(), cfg.Headers)
			if !d.Allowed {
				secs := RetryAfterSeconds(d.RetryAfter)
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				writeError(w, http.StatusTooManyRequests, "rate_limited",
					fmt.Sprintf("rate limit of %d per %s exceeded; retry after %d s", q.Limit, fmtWindow(q.Window), secs), secs)
				return
			}
			next.ServeHTTP(w, r)
		})
	}, nil
}

// Config wires the whole chain.
type Config struct {
	Identify IdentifyFunc // nil: IdentifyByAPIKey
	Key      KeyFunc      // nil: KeyByAPIKey
	LimitConfig
}

// Chain returns Identify → KeyBy → Limit → next.
func Chain(cfg Config, next http.Handler) (http.Handler, error) {
	if cfg.Identify == nil {
		cfg.Identify = IdentifyByAPIKey
	}
	if cfg.Key == nil {
		cfg.Key = KeyByAPIKey
	}
	limit, err := Limit(cfg.LimitConfig)
	if err != nil {
		return nil, err
	}
	return Identify(cfg.Identify)(KeyBy(cfg.Key, cfg.Route)(limit(next))), nil
}

// Quota is what the headers announce for one response.
type Quota struct {
	Policy    string        // the policy's name in the draft-11 fields
	Limit     int           // permits per Window
	Window    time.Duration // the period Limit is stated over
	Remaining int           // permits left right after this request
	Reset     time.Duration // until the full Limit is available again
}

// QuotaFor derives the quota a plan's token bucket announces after d.
// Reset is the time to refill the missing permits at the plan's steady rate
// (Limit per Window), computed from the whole Remaining: the bucket may hold
// a fraction more, so Reset can be up to one refill interval late, never
// early. On a rejection Reset is at least the Retry-After.
func QuotaFor(p Plan, d core.Decision) Quota {
	rem := max(d.Remaining, 0)
	var reset time.Duration
	if p.PerMinute > 0 { // a hand-made Plan{} has no rate to refill at
		missing := max(p.PerMinute-rem, 0)
		reset = time.Duration(ceilDiv(int64(missing)*p.Window().Milliseconds(), int64(p.PerMinute))) * time.Millisecond
	}
	if !d.Allowed && reset < d.RetryAfter {
		reset = d.RetryAfter
	}
	return Quota{Policy: p.Name, Limit: p.PerMinute, Window: p.Window(), Remaining: rem, Reset: reset}
}

// SetHeaders writes the quota in the chosen style. Seconds are whole and
// rounded up, so a client that waits them out never arrives early.
func (q Quota) SetHeaders(h http.Header, style HeaderStyle) {
	reset := strconv.Itoa(ceilSeconds(q.Reset))
	switch style {
	case HeadersDraft11:
		name := sfString(q.Policy)
		h.Set("RateLimit-Policy", fmt.Sprintf("%s;q=%d;w=%d", name, q.Limit, ceilSeconds(q.Window)))
		h.Set("RateLimit", fmt.Sprintf("%s;r=%d;t=%s", name, q.Remaining, reset))
	default:
		h.Set("RateLimit-Limit", strconv.Itoa(q.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(q.Remaining))
		h.Set("RateLimit-Reset", reset)
	}
}

// RetryAfterSeconds turns a limiter's RetryAfter into the header's whole
// seconds. It rounds up: rounding 0.6 s down to 0 would send the client back
// before a permit exists, to be rejected again. A rejection always says at
// least 1.
func RetryAfterSeconds(d time.Duration) int { return max(ceilSeconds(d), 1) }

// ErrorBody is the JSON body of every error the chain writes.
type ErrorBody struct {
	Error             string `json:"error"`
	Message           string `json:"message"`
	RetryAfterSeconds int    `json:"retry_after_seconds,omitempty"`
}

func writeError(w http.ResponseWriter, status int, code, msg string, retry int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(ErrorBody{Error: code, Message: msg, RetryAfterSeconds: retry})
}

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

func fmtWindow(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.String()
}
