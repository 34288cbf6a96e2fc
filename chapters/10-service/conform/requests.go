package conform

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// The sequence is E33's (peer_requests_test.go in the service's package),
// copied here so that the shipped binary links no test file: a domain of
// peer/rules, one to four descriptors from small pools of values (so that
// counters fill and cross their limits within a few thousand requests),
// every form of hits_addend, and one request in ten with an edge input.
// Values never contain '_' (the reference joins key and value with it).

// aCase is one way a descriptor meets the rules: its name, and a builder of
// its entries.
type aCase struct {
	name    string
	entries func(r *rand.Rand) [][2]string
}

func pick(r *rand.Rand, prefix string, n int) string { return fmt.Sprintf("%s%d", prefix, r.IntN(n)) }

// oneOf is a descriptor of one entry: key and one of n values prefix0…
func oneOf(key, prefix string, n int) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{key, pick(r, prefix, n)}} }
}

// under is parent=value, then key and one of n values prefix0…
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

// twoOf is key1 and one of n values p1…, then key2 and one of n values p2….
func twoOf(key1, p1, key2, p2 string, n int) func(*rand.Rand) [][2]string {
	return func(r *rand.Rand) [][2]string { return [][2]string{{key1, pick(r, p1, n)}, {key2, pick(r, p2, n)}} }
}

// cases are the descriptors sent per domain of peer/rules (before the
// suffix of the rules written).
var cases = map[string][]aCase{
	"edge": {
		{"key only, each value its own counter", oneOf("remote_address", "10.0.0.", 6)},
		{"nested value then key", under("plan", "free", "user", "u", 5)},
		{"value node without a limit", fixed("plan", "free")},
		{"node with a limit of its own", fixed("plan", "pro")},
		{"nested under a node with a limit", under("plan", "pro", "user", "u", 3)},
		{"key-only fallback", either("plan", "team", "trial")},
		{"deeper than the tree", under("plan", "team", "user", "u", 3)},
		{"exact value before a wildcard", fixed("path", "/api/v1/health")},
		{"first wildcard written wins", oneOf("path", "/api/v1/items/", 3)},
		{"shorter wildcard", oneOf("path", "/api/v2/", 3)},
		{"unlimited", fixed("path", "/static")},
		{"requests_per_unit 0", fixed("path", "/login")},
		{"key-only after the wildcards", oneOf("path", "/home", 4)},
		{"shadow mode", fixed("client", "beta")},
		{"beside shadow mode", oneOf("client", "app", 3)},
		{"named, replaceable", oneOf("tenant", "t", 4)},
		{"replaces", fixed("tier", "gold")},
		{"unlimited that replaces", fixed("bypass", "yes")},
		{"value with children", fixed("region", "eu")},
		{"under a value", under("region", "eu", "zone", "z", 3)},
		{"wildcard * then wildcard", twoOf("region", "r", "zone", "a", 3)},
		{"wildcard * then no match", twoOf("region", "r", "zone", "b", 3)},
		{"wildcard node without a limit", oneOf("region", "r", 3)},
		{"no rule for the key", oneOf("color", "c", 3)},
	},
	"internal": {
		{"same key, other domain", oneOf("remote_address", "10.0.0.", 6)},
		{"shorter wildcard written first", oneOf("path", "/api/v1/items/", 3)},
		{"named, per day", fixed("job", "nightly")},
		{"key only, requests_per_unit 0", oneOf("job", "batch", 3)},
	},
	"nowhere": { // a domain with no rules: everything is OK, nothing counted
		{"unknown domain", oneOf("remote_address", "10.0.0.", 6)},
	},
}

// request is one request of the sequence and, per descriptor, the case it
// was built from.
type request struct {
	req   *rls.RateLimitRequest
	cases []string
}

// newRequest draws a request on the domains of peer/rules, each named with
// suffix: a domain, one to four descriptors, the cost in every form the
// protocol has (none, the request's hits_addend, a descriptor's, 0 to 5),
// and in one request of ten an edge input.
func newRequest(r *rand.Rand, suffix string) request {
	domain := "edge"
	switch x := r.IntN(100); {
	case x < 25:
		domain = "internal"
	case x < 29:
		domain = "nowhere"
	}
	cs := cases[domain]
	req := &rls.RateLimitRequest{Domain: domain + suffix}
	if r.IntN(10) < 4 {
		req.HitsAddend = uint32(r.IntN(4)) // 0 means 1
	}
	var names []string
	for n := 1 + r.IntN(4); n > 0; n-- {
		c := cs[r.IntN(len(cs))]
		d := &rlcommon.RateLimitDescriptor{}
		for _, kv := range c.entries(r) {
			d.Entries = append(d.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: kv[0], Value: kv[1]})
		}
		if r.IntN(5) == 0 {
			d.HitsAddend = wrapperspb.UInt64(uint64(r.IntN(6)))
		}
		req.Descriptors = append(req.Descriptors, d)
		names = append(names, c.name)
	}
	p := request{req: req, cases: names}
	if r.IntN(10) == 0 {
		edgeInput(r, &p)
	}
	return p
}

// longValues are values past 1 KiB that differ only at their end.
var longValues = [3]string{strings.Repeat("v", 1100) + "0", strings.Repeat("v", 1100) + "1", strings.Repeat("v", 2000)}

// edgeInput adds one input a service might refuse with an error (and so let
// through behind Envoy): a value past 1 KiB, a request hits_addend of
// 2^32-1, an empty key, a descriptor with no entries, one of 17 entries, a
// 257-byte key, or 65 descriptors in all.
func edgeInput(r *rand.Rand, p *request) {
	add := func(name string, kv ...string) {
		d := &rlcommon.RateLimitDescriptor{}
		for i := 0; i+1 < len(kv); i += 2 {
			d.Entries = append(d.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: kv[i], Value: kv[i+1]})
		}
		p.req.Descriptors = append(p.req.Descriptors, d)
		p.cases = append(p.cases, name)
	}
	switch r.IntN(7) {
	case 0, 1:
		add("a value past 1 KiB", "remote_address", longValues[r.IntN(len(longValues))])
	case 2:
		if r.IntN(4) == 0 { // rare: it fills a counter for its whole window
			p.req.HitsAddend = math.MaxUint32
			p.cases[0] += ", request hits_addend 2^32-1"
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
		for len(p.req.Descriptors) < 65 {
			add("one of 65 descriptors", "color", pick(r, "c", 3))
		}
	}
}

// String is the request on one line: domain, hits_addend, and per
// descriptor its entries (a long value shortened), its own hits_addend and
// its case.
func (p request) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "domain=%s hits_addend=%d", p.req.Domain, p.req.HitsAddend)
	for i, d := range p.req.Descriptors {
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
		fmt.Fprintf(&b, " (%s)]", p.cases[i])
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
