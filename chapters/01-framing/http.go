package framing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Placement, in code: the limiter sits after identity (it must know whom to
// count) and before the handler (a rejected request must cost almost
// nothing). The chain is three small middlewares,
//
//	Identify → KeyBy → Limit → handler
//
// and Chain wires them from one Config. A request that cannot be identified
// returns from Identify (401) and a rejected one from Limit (429): the
// handler, and whatever database it would have hit, never runs.

// Limiter is all the middleware needs from a rate limiter: one decision for a
// key at a time. *core.Keyed[A] satisfies it, so every algorithm of chapters
// 02–04 plugs in; so does a Redis-backed limiter from chapter 06.
type Limiter interface {
	AllowN(key string, now time.Time, cost int) (core.Decision, error)
}

// Sweeper is a Limiter whose idle keys can be dropped; *core.Keyed[A] is one.
type Sweeper interface {
	Sweep(now time.Time) int
}

// Identity is what the first stage learns about the caller. Every field is
// something the server established: a verified key's record, or an address
// read by the trusted-proxy rule. None is copied from a header the client
// writes.
type Identity struct {
	KeyID  string // the verified API key's id ("" if none)
	UserID string // the user the verified key belongs to ("" if none)
	IP     string // the client address (see TrustedProxies)
	Plan   Plan   // the tier that sets the limit
}

// IdentifyFunc recognises the caller. An error means the request cannot be
// counted and is answered 401 before it reaches the limiter: it spends no
// budget and leaves no state.
type IdentifyFunc func(r *http.Request) (Identity, error)

// KeyFunc turns an identity and a route into the limiter key.
type KeyFunc func(id Identity, route string) (string, error)

// IdentifyByAPIKey verifies the X-API-Key header against keys and takes the
// key id, the user and the plan from the store's record; the address comes
// from proxies. A missing, repeated, malformed or unknown key is an error.
func IdentifyByAPIKey(keys KeyStore, proxies TrustedProxies) IdentifyFunc {
	return func(r *http.Request) (Identity, error) {
		vals := r.Header.Values("X-API-Key")
		if len(vals) != 1 {
			return Identity{}, core.BadParam("X-API-Key header", fmt.Sprintf("sent %d times", len(vals)), "exactly one API key")
		}
		if _, _, err := SplitAPIKey(vals[0]); err != nil {
			return Identity{}, err
		}
		if keys == nil {
			return Identity{}, ErrUnknownKey
		}
		a, ok := keys.Lookup(vals[0])
		if !ok {
			return Identity{}, ErrUnknownKey
		}
		id := Identity{KeyID: a.KeyID, UserID: a.UserID, Plan: a.Plan}
		if ip, err := proxies.ClientAddr(r); err == nil {
			id.IP = ip.String()
		}
		return id, nil
	}
}

// IdentifyByAddress identifies an anonymous caller by its address alone, for
// public endpoints: every caller gets plan, and KeyByIP counts its network.
func IdentifyByAddress(plan Plan, proxies TrustedProxies) IdentifyFunc {
	return func(r *http.Request) (Identity, error) {
		ip, err := proxies.ClientAddr(r)
		if err != nil {
			return Identity{}, err
		}
		return Identity{IP: ip.String(), Plan: plan}, nil
	}
}

// KeyByAPIKey counts the credential: "100 per minute per API key".
func KeyByAPIKey(id Identity, _ string) (string, error) {
	if err := checkPart("API key id", id.KeyID, MaxIDLen); err != nil {
		return "", err
	}
	return APIKeyKey(id.KeyID), nil
}

// KeyByAPIKeyAndRoute gives every (API key, route) pair its own budget.
func KeyByAPIKeyAndRoute(id Identity, route string) (string, error) {
	k, err := KeyByAPIKey(id, route)
	if err != nil {
		return "", err
	}
	if err := checkPart("route", route, MaxRouteLen); err != nil {
		return "", err
	}
	return RouteKey(k, route), nil
}

// KeyByUser counts the authenticated user: the user id of a verified
// identity, never an X-User-ID header.
func KeyByUser(id Identity, _ string) (string, error) {
	if err := checkPart("user id", id.UserID, MaxIDLen); err != nil {
		return "", err
	}
	return UserKey(id.UserID), nil
}

// KeyByIP counts the caller's network, grouped by g.
func KeyByIP(g IPGrouping) KeyFunc {
	return func(id Identity, _ string) (string, error) { return g.Key(id.IP) }
}

// KeyByRoute counts everyone calling one route together (a per-endpoint limit).
func KeyByRoute(_ Identity, route string) (string, error) {
	if err := checkPart("route", route, MaxRouteLen); err != nil {
		return "", err
	}
	return part("route", route), nil
}

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
				w.Header().Set("WWW-Authenticate", `APIKey header="X-API-Key"`)
				writeError(w, http.StatusUnauthorized, "unauthorized", err.Error(), 0)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identityCtx, id)))
		})
	}
}

// KeyBy is the second stage: it computes the limiter key from the identity
// and the route and stores it in the context. A key that cannot be built
// (no user id where one is needed, an over-long route, an unparsable
// address) is answered 400. A nil route means DefaultCosts.Route.
func KeyBy(f KeyFunc, route func(*http.Request) string) func(http.Handler) http.Handler {
	if route == nil {
		route = DefaultCosts.Route
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

// PathRoute is a request's raw URL path. Use it only where the paths are a
// fixed set; CostTable.Route is the safe default.
func PathRoute(r *http.Request) string { return r.URL.Path }

// LimitConfig configures the third stage.
type LimitConfig struct {
	// Limiters holds one limiter per plan name, each sized for that plan
	// (a token bucket with Capacity() and RatePerSecond(), say). Required.
	Limiters map[string]Limiter
	// Costs prices each route; nil means DefaultCosts.
	Costs CostTable
	// Route names a request's route, for Costs and for per-route keys; nil
	// means Costs.Route (a listed path, or "*").
	Route func(*http.Request) string
	// Now is the clock. The middleware is an edge, the one place that reads
	// the time; tests inject a fake. nil means time.Now.
	Now func() time.Time
	// Headers picks the quota header style; the zero value is the current draft.
	Headers HeaderStyle
	// Quota derives the announced quota; nil means QuotaFor (a token bucket).
	Quota QuotaFunc
	// SweepEvery is how often, on the request clock, every limiter that is
	// a Sweeper drops its idle keys; 0 means once a minute (the plans'
	// window). The request that finds a sweep due runs it.
	SweepEvery time.Duration
}

// Limit is the third stage: it spends the route's cost from the key's
// budget, sets the quota headers, and either calls next or answers 429 with
// Retry-After and a JSON body. Limiter errors are answered 500 (the caller
// decides elsewhere whether a broken limiter fails open; see chapter 06).
//
// Keyed state stays bounded: requests drive a sweep of the limiters that
// are Sweepers, about once per SweepEvery, which drops the keys gone idle;
// sweepSchedule says when a sweep is due on a clock that can jump.
func Limit(cfg LimitConfig) (func(http.Handler) http.Handler, error) {
	cfg, sweepers, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	sweep := sweepSchedule(cfg.SweepEvery, sweepers)
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
			now := cfg.Now()
			sweep(now)
			d, err := lim.AllowN(key, now, cfg.Costs.Cost(cfg.Route(r)))
			if err != nil {
				writeError(w, http.StatusInternalServerError, "limiter_error", err.Error(), 0)
				return
			}
			q := cfg.Quota(id.Plan, d)
			q.SetHeaders(w.Header(), cfg.Headers)
			if !d.Allowed {
				secs := RetryAfterSeconds(q.Next)
				writeError(w, http.StatusTooManyRequests, "rate_limited",
					fmt.Sprintf("rate limit of %d per %s exceeded; retry after %d s", q.Limit, fmtWindow(q.Window), secs), secs)
				return
			}
			next.ServeHTTP(w, r)
		})
	}, nil
}

// withDefaults checks cfg's limiters and sweep period, fills in the
// defaults for what was left unset, and returns the limiters that can be
// swept.
func (cfg LimitConfig) withDefaults() (LimitConfig, []Sweeper, error) {
	if len(cfg.Limiters) == 0 {
		return cfg, nil, core.BadParam("limiters", "none", "one limiter per plan name")
	}
	var sweepers []Sweeper
	for name, l := range cfg.Limiters {
		if l == nil {
			return cfg, nil, core.BadParam("limiters", fmt.Sprintf("%s: nil", name), "a non-nil limiter per plan name")
		}
		if s, ok := l.(Sweeper); ok {
			sweepers = append(sweepers, s)
		}
	}
	if cfg.SweepEvery < 0 {
		return cfg, nil, core.BadParam("sweep every", cfg.SweepEvery, "a duration >= 0 (0: one minute)")
	}
	if cfg.SweepEvery == 0 {
		cfg.SweepEvery = time.Minute
	}
	if cfg.Costs == nil {
		cfg.Costs = DefaultCosts
	}
	if cfg.Route == nil {
		cfg.Route = cfg.Costs.Route
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Quota == nil {
		cfg.Quota = QuotaFor
	}
	return cfg, sweepers, nil
}

// sweepSchedule returns what each request calls with its time to sweep
// the sweepers when a sweep is due. A key is dropped at the first sweep
// after its state turns idle (a plan's bucket refills within its window),
// so at any time the limiters hold at most the keys seen in the last
// period plus one refill time, however many keys have come and gone.
// The request clock is an edge and can jump, so the schedule does not
// trust one reading: a sweep runs at the earlier of the request's time and
// the previous request's (a single timestamp far ahead neither sweeps in
// the future, where every key looks idle, nor pushes the next sweep out of
// reach), and a clock found more than one period before the last sweep
// makes a sweep due at once.
func sweepSchedule(period time.Duration, sweepers []Sweeper) func(now time.Time) {
	var swept, prev atomic.Int64 // Unix ns: the last sweep's instant, the previous request's
	every := int64(period)
	return func(now time.Time) {
		t := now.UnixNano()
		p := prev.Swap(t)
		last := swept.Load()
		if p != 0 && (t-last < every && last-t <= every) {
			return // not due, and the clock has not fallen back past a period
		}
		at := t
		if p != 0 {
			at = min(t, p) // one stray timestamp cannot sweep in the future
		}
		if !swept.CompareAndSwap(last, at) {
			return // another request sweeps
		}
		for _, s := range sweepers {
			s.Sweep(time.Unix(0, at))
		}
	}
}

// Config wires the whole chain.
type Config struct {
	// Identify recognises the caller; nil means IdentifyByAPIKey(Keys, Proxies).
	Identify IdentifyFunc
	// Keys verifies API keys; required when Identify is nil.
	Keys KeyStore
	// Proxies is the trusted-proxy setting for the client address.
	Proxies TrustedProxies
	// Key builds the limiter key; nil means KeyByAPIKey.
	Key KeyFunc
	LimitConfig
}

// Chain returns Identify → KeyBy → Limit → next.
func Chain(cfg Config, next http.Handler) (http.Handler, error) {
	if cfg.Identify == nil {
		if cfg.Keys == nil {
			return nil, core.BadParam("keys", "none", "a KeyStore that verifies API keys, or an Identify function")
		}
		cfg.Identify = IdentifyByAPIKey(cfg.Keys, cfg.Proxies)
	}
	if cfg.Key == nil {
		cfg.Key = KeyByAPIKey
	}
	if cfg.Costs == nil {
		cfg.Costs = DefaultCosts
	}
	if cfg.Route == nil {
		cfg.Route = cfg.Costs.Route
	}
	limit, err := Limit(cfg.LimitConfig)
	if err != nil {
		return nil, err
	}
	return Identify(cfg.Identify)(KeyBy(cfg.Key, cfg.Route)(limit(next))), nil
}

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

func fmtWindow(d time.Duration) string {
	if d == time.Minute {
		return "minute"
	}
	return d.String()
}
