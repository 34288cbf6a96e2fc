package peer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Case is one way a descriptor meets the rules of peer/rules: its Name
// says which, and Entries builds a fresh descriptor from small pools of
// values, so that counters fill up and cross their limits within a few
// thousand requests. Values never contain '_' (the reference joins key and
// value with it, so "a_b"+"c" and "a"+"b_c" would collide there).
type Case struct {
	Name    string
	Entries func(r *rand.Rand) [][2]string
	// Limited: the rule has a finite limit the sequence is expected to cross
	// at least once (E33 checks it, so the sequence really explores
	// OVER_LIMIT).
	Limited bool
}

func pick(r *rand.Rand, prefix string, n int) string {
	return fmt.Sprintf("%s%d", prefix, r.IntN(n))
}

// oneOf is a descriptor of one entry: key and one of n values prefix0…
func oneOf(key, prefix string, n int) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{key, pick(r, prefix, n)}} }
}

// under is a descriptor of two entries: parent=value, then key and one of n
// values prefix0…
func under(parent, value, key, prefix string, n int) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{parent, value}, {key, pick(r, prefix, n)}} }
}

// fixed is a descriptor whose entries are always key1, value1, key2, ...
func fixed(kv ...string) func(*rand.Rand) [][2]string {
	return func(*rand.Rand) [][2]string {
		e := make([][2]string, 0, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			e = append(e, [2]string{kv[i], kv[i+1]})
		}
		return e
	}
}

// either is a descriptor key=a or key=b, at random.
func either(key, a, b string) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{key, []string{a, b}[r.IntN(2)]}} }
}

// twoOf is a descriptor of two entries: key1 and one of n1 values p1…, then
// key2 and one of n2 values p2….
func twoOf(key1, p1 string, n1 int, key2, p2 string, n2 int) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{key1, pick(r, p1, n1)}, {key2, pick(r, p2, n2)}} }
}

// Domains are the domains of Cases, in the order they are listed.
var Domains = []string{"edge", "internal", "nowhere"}

// Cases are the descriptors sent per domain of peer/rules (each domain's
// name before the suffix NewRequest is given).
var Cases = map[string][]Case{
	"edge": {
		{"key only, each value its own counter", oneOf("remote_address", "10.0.0.", 6), true},
		{"nested value then key", under("plan", "free", "user", "u", 5), true},
		{"value node without a limit", fixed("plan", "free"), false},
		{"node with a limit of its own", fixed("plan", "pro"), true},
		{"nested under a node with a limit", under("plan", "pro", "user", "u", 3), true},
		{"key-only fallback", either("plan", "team", "trial"), true},
		{"deeper than the tree", under("plan", "team", "user", "u", 3), false},
		{"exact value before a wildcard", fixed("path", "/api/v1/health"), true},
		{"first wildcard written wins", oneOf("path", "/api/v1/items/", 3), true},
		{"shorter wildcard", oneOf("path", "/api/v2/", 3), true},
		{"unlimited", fixed("path", "/static"), false},
		{"requests_per_unit 0", fixed("path", "/login"), true},
		{"key-only after the wildcards", oneOf("path", "/home", 4), true},
		{"shadow mode", fixed("client", "beta"), true},
		{"beside shadow mode", oneOf("client", "app", 3), true},
		{"named, replaceable", oneOf("tenant", "t", 4), true},
		{"replaces", fixed("tier", "gold"), true},
		{"unlimited that replaces", fixed("bypass", "yes"), false},
		{"value with children", fixed("region", "eu"), true},
		{"under a value", under("region", "eu", "zone", "z", 3), true},
		{"wildcard * then wildcard", twoOf("region", "r", 3, "zone", "a", 3), true},
		{"wildcard * then no match", twoOf("region", "r", 3, "zone", "b", 3), false},
		{"wildcard node without a limit", oneOf("region", "r", 3), false},
		{"no rule for the key", oneOf("color", "c", 3), false},
		{"share_threshold: one counter for the wildcard", oneOf("file", "f/", 8), true},
		{"share_threshold: the pattern written out", fixed("file", "f/*"), true},
		{"nested under a share_threshold wildcard", twoOf("dir", "d/", 5, "user", "u", 3), true},
		{"share_threshold at two levels", twoOf("dir", "d/", 5, "obj", "o/", 5), true},
		{"share_threshold node without a limit", oneOf("dir", "d/", 3), false},
		{QuotaCase, oneOf("quota", "q", 2), true},
		{QuotaCase + " and shadow_mode", fixed("quota", "shadowed"), true},
		{QuotaCase + " on a share_threshold wildcard", oneOf("bulk", "b/", 6), true},
	},
	"internal": {
		{"same key, other domain", oneOf("remote_address", "10.0.0.", 6), true},
		{"shorter wildcard written first", oneOf("path", "/api/v1/items/", 3), true},
		{"named, per day", fixed("job", "nightly"), true},
		{"key only, requests_per_unit 0", oneOf("job", "batch", 3), true},
	},
	"nowhere": { // a domain with no rules: everything is OK, nothing counted
		{"unknown domain", oneOf("remote_address", "10.0.0.", 6), false},
	},
}

// QuotaCase starts the name of each case on a quota_mode rule.
const QuotaCase = "quota_mode"

// Request is one request of the sequence and, per descriptor, the name of
// the case it was built from.
type Request struct {
	Req   *rls.RateLimitRequest
	Cases []string
}

// NewRequest draws a request: a domain of peer/rules, its name followed by
// suffix ("" for the files as they are), one to four descriptors (the same
// case may come twice: one counter hit twice in one request), and the cost
// in every form the protocol has: none (1), hits_addend on the request, and
// hits_addend on a descriptor, 0 (a check, counting nothing) to 5. One
// request in ten also carries what a client could send to get past a limit
// if it were refused (edgeInput).
func NewRequest(r *rand.Rand, suffix string) Request {
	domain := "edge"
	switch x := r.IntN(100); {
	case x < 25:
		domain = "internal"
	case x < 29:
		domain = "nowhere"
	}
	cases := Cases[domain]
	req := &rls.RateLimitRequest{Domain: domain + suffix}
	if r.IntN(10) < 4 {
		req.HitsAddend = uint32(r.IntN(4)) // 0 means 1
	}
	var names []string
	for n := 1 + r.IntN(4); n > 0; n-- {
		c := cases[r.IntN(len(cases))]
		d := &rlcommon.RateLimitDescriptor{}
		for _, kv := range c.Entries(r) {
			d.Entries = append(d.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: kv[0], Value: kv[1]})
		}
		if r.IntN(5) == 0 {
			d.HitsAddend = wrapperspb.UInt64(uint64(r.IntN(6)))
		}
		req.Descriptors = append(req.Descriptors, d)
		names = append(names, c.Name)
	}
	p := Request{Req: req, Cases: names}
	if r.IntN(10) == 0 {
		edgeInput(r, &p)
	}
	return p
}

// longValues are values past 1 KiB, which differ only at their end: each
// must be counted on its own, as the reference counts it.
var longValues = [3]string{strings.Repeat("v", 1100) + "0", strings.Repeat("v", 1100) + "1", strings.Repeat("v", 2000)}

// edgeInput adds to a request one thing that the service once refused with
// an error (and so let through behind Envoy): a value past 1 KiB on a
// key-only rule, a request hits_addend of 2^32-1, an empty key, a descriptor
// with no entries, one of 17 entries, a 257-byte key, or 65 descriptors in
// all.
func edgeInput(r *rand.Rand, p *Request) {
	add := func(name string, kv ...string) {
		d := &rlcommon.RateLimitDescriptor{}
		for i := 0; i+1 < len(kv); i += 2 {
			d.Entries = append(d.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: kv[i], Value: kv[i+1]})
		}
		p.Req.Descriptors = append(p.Req.Descriptors, d)
		p.Cases = append(p.Cases, name)
	}
	switch r.IntN(7) {
	case 0, 1:
		add("a value past 1 KiB", "remote_address", longValues[r.IntN(len(longValues))])
	case 2:
		if r.IntN(4) == 0 { // rare: it fills a counter for its whole window
			p.Req.HitsAddend = math.MaxUint32
			p.Cases[0] += ", request hits_addend 2^32-1"
		} else {
			add("an empty key", "", "v")
		}
	case 3:
		add("no entries")
	case 4:
		kv := make([]string, 0, 34)
		for i := range 17 {
			kv = append(kv, fmt.Sprint("e", i), "v")
		}
		add("17 entries", kv...)
	case 5:
		add("a 257-byte key", strings.Repeat("k", 257), "v")
	case 6:
		for len(p.Req.Descriptors) < 65 {
			add("one of 65 descriptors", "color", pick(r, "c", 3))
		}
	}
}

// String is the request on one line: domain, hits_addend, and per
// descriptor its entries (a long key or value shortened), its own
// hits_addend and its case.
func (p Request) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "domain=%s hits_addend=%d", p.Req.Domain, p.Req.HitsAddend)
	for i, d := range p.Req.Descriptors {
		b.WriteString(" [")
		for j, e := range d.Entries {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%s=%s", clip(e.Key), clip(e.Value))
		}
		if d.HitsAddend != nil {
			fmt.Fprintf(&b, " hits_addend=%d", d.HitsAddend.Value)
		}
		fmt.Fprintf(&b, " (%s)]", p.Cases[i])
	}
	return b.String()
}

// clip shortens a long key or value in a report line.
func clip(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s…(%d bytes)", s[:20], len(s))
	}
	return s
}
