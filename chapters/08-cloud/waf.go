package cloud

import (
	"fmt"
	"net/http"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	"github.com/ratelimit-course/ratelimit/core"
)

// Request is one request as the cloud layers see it.
type Request struct {
	At       time.Time
	SourceIP string      // the TCP peer the edge sees (a proxy or NAT for many users)
	Header   http.Header // X-Forwarded-For, X-Api-Key, custom headers…
	APIKey   string      // the API key the gateway reads
	UserID   string      // the application's user: known inside the service
	Route    string
}

// KeyType is what a WAF rate-based rule aggregates on.
type KeyType int

// Aggregation keys of a rate-based rule.
const (
	ByIP          KeyType = iota // the source address of the connection
	ByForwardedIP                // the client address in a forwarding header, read from the right
	ByCustom                     // the values of the named headers, together
)

func (k KeyType) String() string {
	switch k {
	case ByIP:
		return "IP"
	case ByForwardedIP:
		return "FORWARDED_IP"
	case ByCustom:
		return "CUSTOM_KEYS"
	}
	return fmt.Sprintf("KeyType(%d)", int(k))
}

// MinRateLimit is the smallest threshold a rate-based rule accepts. It was
// 100 per window for years and is now 10.
const MinRateLimit = 10

// DefaultEvaluationWindow is the window a rule uses when none is given.
const DefaultEvaluationWindow = 5 * time.Minute

// EvaluationWindows are the only windows a rate-based rule accepts.
var EvaluationWindows = []time.Duration{1 * time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute}

// RateRule is a WAF rate-based rule.
type RateRule struct {
	Window time.Duration // 1, 2, 5 or 10 minutes; 0 means 5
	Limit  int           // requests per window per key; >= 10
	Key    KeyType
	// ForwardedHeader names the header ByForwardedIP reads; "" means
	// X-Forwarded-For.
	ForwardedHeader string
	// TrustedProxies are the networks of the proxies in front of the WAF
	// (a CDN, a balancer), as framing.NewTrustedProxies takes them. For
	// ByForwardedIP the client is the rightmost forwarding hop that is not
	// one of them; a source that is not one of them is the client itself.
	TrustedProxies []string
	// CustomHeaders are the headers ByCustom combines into one key.
	CustomHeaders []string
	// BlockStatus is the status of a blocked request; 0 means 403, the
	// WAF's default block response.
	BlockStatus int
	// IPv6Prefix groups IPv6 addresses (the source or the forwarded IP) by
	// their first IPv6Prefix bits, so that one key counts a whole network.
	// It is the model's option, not AWS's: a rate-based rule makes every
	// distinct address its own aggregation instance, and a client holding
	// a /64 has 2^64 of them. 0 means no grouping, as on AWS; otherwise 32
	// to 128 (64 is one customer's subnet). IPv4 addresses stay single.
	IPv6Prefix int
}

// MinIPv6Prefix is the widest IPv6 grouping the model accepts: a /32 is a
// provider's allocation; wider than that is one key for strangers.
const MinIPv6Prefix = 32

// WAF is an executable model of one rate-based rule. It counts every
// request a key sends in the trailing window, blocked ones included, so a
// client is blocked for as long as it keeps sending faster than the limit
// and released once its rate falls back. The real service aggregates with
// some delay, which makes it coarser still; the model counts exactly. Not
// safe for concurrent use.
//
// The forwarded IP is where the model departs from the product on purpose.
// AWS documents that its forwarded-IP option evaluates only the first
// address in the header and does not apply the rule to a request without
// the header. The first address is the one the client writes, so a client
// that changes it on every request is a new key every time, and one that
// drops the header is not counted at all. The model applies the rule a
// limiter needs instead (chapter 01's TrustedProxies): the rightmost hop
// that is not a trusted proxy, and a missing or unparsable header counted
// under the source address, never skipped. On AWS the nearest equivalent is
// to key on the source IP where the WAF sees the viewer (on CloudFront), or
// to have the proxy in front overwrite the header rather than append to it.
// A request without a custom key's header is still not counted, as on AWS.
//
// IPv6 addresses are counted one by one, as AWS does, unless the rule's
// IPv6Prefix groups them (the model's option; AWS has none).
//
// State is bounded per key and in keys. A key keeps the times of its latest
// Limit + 1 requests and no more: more than Limit requests fall in the
// window exactly when the oldest of those is inside it, so Limit + 1 times
// decide every request exactly, whatever the sender's rate. And once per
// window, keys with no request left inside it are dropped.
type WAF struct {
	rule      RateRule
	proxies   framing.TrustedProxies
	group     framing.IPGrouping // IPv4 /32, IPv6 /IPv6Prefix (or /128)
	seen      map[string]*recent // key → its latest request times
	nextSweep int64              // Unix ns of the next sweep of empty keys
}

// recent is a ring of a key's latest request times (Unix ns), oldest first
// from start, at most Limit + 1 of them.
type recent struct {
	t     []int64
	start int
}

// add records now, dropping the oldest time once n are held.
func (r *recent) add(now int64, n int) {
	if len(r.t) < n {
		r.t = append(r.t, now)
		return
	}
	r.t[r.start] = now
	r.start = (r.start + 1) % n
}

// at is the i-th time held, oldest first.
func (r *recent) at(i int) int64 { return r.t[(r.start+i)%len(r.t)] }

// after counts the times held later than cut (requests arrive in order,
// so the held times are sorted).
func (r *recent) after(cut int64) int {
	return len(r.t) - sort.Search(len(r.t), func(i int) bool { return r.at(i) > cut })
}

// newest is the latest time held.
func (r *recent) newest() int64 { return r.at(len(r.t) - 1) }

// NewWAF validates the rule: a window other than 1, 2, 5 or 10 minutes, a
// limit below 10 and a trusted proxy that is not a network or an address
// are rejected with a *core.ParamError.
func NewWAF(rule RateRule) (*WAF, error) {
	if rule.Window == 0 {
		rule.Window = DefaultEvaluationWindow
	}
	okWindow := false
	for _, w := range EvaluationWindows {
		okWindow = okWindow || rule.Window == w
	}
	if !okWindow {
		return nil, core.BadParam("evaluation window", rule.Window, "1, 2, 5 or 10 minutes (default 5)")
	}
	if rule.Limit < MinRateLimit {
		return nil, core.BadParam("rate limit", rule.Limit, fmt.Sprintf("an integer >= %d requests per window (the minimum was 100 before)", MinRateLimit))
	}
	switch rule.Key {
	case ByIP:
	case ByForwardedIP:
		if rule.ForwardedHeader == "" {
			rule.ForwardedHeader = "X-Forwarded-For"
		}
	case ByCustom:
		if len(rule.CustomHeaders) == 0 {
			return nil, core.BadParam("custom keys", "none", "at least one header name")
		}
	default:
		return nil, core.BadParam("aggregation key", rule.Key, "IP, FORWARDED_IP or CUSTOM_KEYS")
	}
	if rule.IPv6Prefix != 0 && (rule.IPv6Prefix < MinIPv6Prefix || rule.IPv6Prefix > 128) {
		return nil, core.BadParam("ipv6 prefix", rule.IPv6Prefix, fmt.Sprintf("0 (each address its own key, as AWS counts) or a prefix length from %d to 128", MinIPv6Prefix))
	}
	if rule.IPv6Prefix != 0 && rule.Key == ByCustom {
		return nil, core.BadParam("ipv6 prefix", rule.IPv6Prefix, "0 with custom keys (it groups the IP or forwarded-IP key)")
	}
	group := framing.IPGrouping{V4Prefix: 32, V6Prefix: 128}
	if rule.IPv6Prefix != 0 {
		group.V6Prefix = rule.IPv6Prefix
	}
	if rule.BlockStatus == 0 {
		rule.BlockStatus = http.StatusForbidden
	}
	proxies, err := framing.NewTrustedProxies(rule.TrustedProxies...)
	if err != nil {
		return nil, err
	}
	return &WAF{rule: rule, proxies: proxies, group: group, seen: map[string]*recent{}}, nil
}

// Rule returns the validated rule, defaults filled in.
func (w *WAF) Rule() RateRule { return w.rule }

// WAFVerdict is the rule's answer for one request.
type WAFVerdict struct {
	Blocked bool
	Status  int    // BlockStatus when blocked, 0 otherwise
	Key     string // the aggregation key, "" if the request was not counted
	Count   int    // requests from Key in the window, this one included, up to Limit + 1 (all a key keeps)
}

// Key is the aggregation key the rule reads from r, or "" if it has none.
func (w *WAF) Key(r Request) string {
	switch w.rule.Key {
	case ByIP:
		if ip, err := framing.ParseAddr(r.SourceIP); err == nil {
			return "ip:" + w.address(ip)
		}
	case ByForwardedIP:
		if ip, err := w.proxies.Client(r.SourceIP, r.Header.Values(w.rule.ForwardedHeader)); err == nil {
			return "fwd:" + w.address(ip)
		}
	case ByCustom:
		parts := make([]string, len(w.rule.CustomHeaders))
		for i, h := range w.rule.CustomHeaders {
			v := r.Header.Get(h)
			if v == "" {
				return ""
			}
			parts[i] = h + "=" + strconv.Quote(v) // quoted: a value holding "&" cannot pose as two
		}
		return "custom:" + strings.Join(parts, "&")
	}
	return ""
}

// address is ip as a key: the address itself, or its IPv6 network when the
// rule groups IPv6.
func (w *WAF) address(ip netip.Addr) string {
	if ip.Is4() || w.group.V6Prefix == 128 {
		return ip.String()
	}
	p, _ := ip.Prefix(w.group.V6Prefix) // a valid length: checked by NewWAF
	return p.String()
}

// Inspect counts r and decides: blocked while the key's count in the
// trailing window (now - Window, now] is above the limit.
func (w *WAF) Inspect(r Request) WAFVerdict {
	key := w.Key(r)
	if key == "" {
		return WAFVerdict{}
	}
	now := r.At.UnixNano()
	cut := now - int64(w.rule.Window)
	if now >= w.nextSweep {
		for k, rec := range w.seen {
			if rec.newest() <= cut {
				delete(w.seen, k)
			}
		}
		w.nextSweep = now + int64(w.rule.Window)
	}
	rec := w.seen[key]
	if rec == nil {
		rec = &recent{t: make([]int64, 0, min(w.rule.Limit+1, 16))}
		w.seen[key] = rec
	}
	rec.add(now, w.rule.Limit+1)
	v := WAFVerdict{Key: key, Count: rec.after(cut)}
	if v.Count > w.rule.Limit {
		v.Blocked, v.Status = true, w.rule.BlockStatus
	}
	return v
}

// Keys reports how many keys hold request times.
func (w *WAF) Keys() int { return len(w.seen) }
