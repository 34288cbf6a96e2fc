package rules

import (
	"fmt"
	"strings"
	"testing"
)

// The matching on its own, with no server and no store: the rule each
// descriptor lands on, for E32's rules and for every case that E33 sends to
// envoyproxy/ratelimit (the rules of peer/rules), and what limitsToCheck
// keeps of a request. In the exercise these are the first tests to pass:
//
//	go test -count=1 -tags exercise10 -run TestMatch -v ./chapters/10-service/rules/   # walk alone
//	go vet -tags exercise10 ./chapters/10-service/...                                # a quick compile check

// loadDomain loads the rules at path and returns the domain named name.
func loadDomain(t *testing.T, path, name string) *Domain {
	t.Helper()
	set, err := LoadRules(path)
	if err != nil {
		t.Fatal(err)
	}
	d := set.domains[name]
	if d == nil {
		t.Fatalf("%s: no domain %q", path, name)
	}
	return d
}

// entries is a descriptor: key, value, key, value...
func entries(kv ...string) []Entry {
	var es []Entry
	for i := 0; i+1 < len(kv); i += 2 {
		es = append(es, Entry{kv[i], kv[i+1]})
	}
	return es
}

// show is a descriptor as "k=v,k=v".
func show(es []Entry) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Key+"="+e.Value)
	}
	return strings.Join(parts, ",")
}

// noPanic ends the test with what a panic said (the stub's "implement
// walk" among them), so that one test fails instead of the whole run.
func noPanic(t *testing.T) {
	if r := recover(); r != nil {
		t.Fatalf("%v", r)
	}
}

// label is the rule's name in these tests: its label, or "-" for none.
func label(r *Rule) string {
	if r == nil {
		return "-"
	}
	return r.Label()
}

// matchCase is one descriptor and the label of the rule it must land on.
type matchCase struct {
	why  string
	kv   []string
	want string
}

func checkMatches(t *testing.T, d *Domain, cases []matchCase) {
	t.Helper()
	defer noPanic(t)
	for _, c := range cases {
		es := entries(c.kv...)
		if got := label(d.Match(es)); got != c.want {
			t.Errorf("%s: [%s] matched %s, want %s", c.why, show(es), got, c.want)
		}
	}
}

// TestMatch_E32: the descriptors of E32, on its rules (service_test.go).
func TestMatch_E32(t *testing.T) {
	d := loadDomain(t, writeRules(t, e32Rules), "e32")
	checkMatches(t, d, []matchCase{
		{"key only: any value", []string{"api_key", "a"}, "e32.api_key"},
		{"key_value before the key alone", []string{"api_key", "gold"}, "e32.api_key_gold"},
		{"a wildcard: the value starts with /search", []string{"path", "/search?q=1"}, "e32.path_/search*"},
		{"the exact value before the wildcard", []string{"path", "/searching"}, "e32.path_/searching"},
		{"a node with children and no rule", []string{"path", "/login"}, "-"},
		{"nested: the rule is on the second level", []string{"path", "/login", "ip", "1.2.3.4"}, "login_ip"},
		{"more entries than the tree", []string{"api_key", "c", "extra", "x"}, "-"},
		{"no child takes the key", []string{"nothing", "x"}, "-"},
		{"no entries at all", nil, "-"},
		{"unlimited is a match (limitsToCheck decides it)", []string{"internal", "x"}, "e32.internal"},
		{"a named rule", []string{"user", "u"}, "per_user"},
	})
}

// TestMatch_PeerRules: every kind of descriptor E33 sends to
// envoyproxy/ratelimit, each with one value of its pool, on the same rules
// (peer/rules, read beside this test: each case is commented there). The
// reference service lands on these rules; E33 checks that it answers as
// envoyproxy/ratelimit does.
func TestMatch_PeerRules(t *testing.T) {
	t.Run("edge", func(t *testing.T) {
		checkMatches(t, loadDomain(t, "../peer/rules", "edge"), []matchCase{
			{"key only, each value its own counter", []string{"remote_address", "10.0.0.3"}, "edge.remote_address"},
			{"nested value then key", []string{"plan", "free", "user", "u1"}, "free-user"},
			{"value node without a limit (the key-only plan is not tried)", []string{"plan", "free"}, "-"},
			{"node with a limit of its own", []string{"plan", "pro"}, "edge.plan_pro"},
			{"nested under a node with a limit", []string{"plan", "pro", "user", "u2"}, "edge.plan_pro.user"},
			{"key-only fallback", []string{"plan", "team"}, "edge.plan"},
			{"key-only fallback, another value", []string{"plan", "trial"}, "edge.plan"},
			{"deeper than the tree", []string{"plan", "team", "user", "u0"}, "-"},
			{"exact value before a wildcard", []string{"path", "/api/v1/health"}, "edge.path_/api/v1/health"},
			{"first wildcard written wins", []string{"path", "/api/v1/items/2"}, "api-v1"},
			{"shorter wildcard", []string{"path", "/api/v2/0"}, "edge.path_/api/*"},
			{"unlimited", []string{"path", "/static"}, "edge.path_/static"},
			{"requests_per_unit 0", []string{"path", "/login"}, "edge.path_/login"},
			{"key-only after the wildcards", []string{"path", "/home3"}, "edge.path"},
			{"shadow mode", []string{"client", "beta"}, "edge.client_beta"},
			{"beside shadow mode", []string{"client", "app1"}, "edge.client"},
			{"named, replaceable", []string{"tenant", "t0"}, "per-tenant"},
			{"replaces", []string{"tier", "gold"}, "gold"},
			{"unlimited that replaces", []string{"bypass", "yes"}, "edge.bypass_yes"},
			{"value with children", []string{"region", "eu"}, "edge.region_eu"},
			{"under a value", []string{"region", "eu", "zone", "z2"}, "edge.region_eu.zone"},
			{"wildcard * then wildcard", []string{"region", "r1", "zone", "a0"}, "edge.region_*.zone_a*"},
			{"wildcard * then no match", []string{"region", "r1", "zone", "b0"}, "-"},
			{"wildcard node without a limit", []string{"region", "r2"}, "-"},
			{"no rule for the key", []string{"color", "c0"}, "-"},
			{"an empty key", []string{"", "v"}, "-"},
			{"share_threshold: one counter for the wildcard", []string{"file", "f/3"}, "edge.file_f/*"},
			{"share_threshold: the pattern written out (exact)", []string{"file", "f/*"}, "edge.file_f/*"},
			{"nested under a share_threshold wildcard", []string{"dir", "d/1", "user", "u0"}, "edge.dir_d/*.user"},
			{"share_threshold at two levels", []string{"dir", "d/1", "obj", "o/2"}, "edge.dir_d/*.obj_o/*"},
			{"share_threshold node without a limit", []string{"dir", "d/0"}, "-"},
			{"quota_mode", []string{"quota", "q1"}, "edge.quota"},
			{"quota_mode and shadow_mode", []string{"quota", "shadowed"}, "edge.quota_shadowed"},
			{"quota_mode on a share_threshold wildcard", []string{"bulk", "b/2"}, "edge.bulk_b/*"},
		})
	})
	t.Run("internal", func(t *testing.T) {
		checkMatches(t, loadDomain(t, "../peer/rules", "internal"), []matchCase{
			{"same key, other domain", []string{"remote_address", "10.0.0.3"}, "internal.remote_address"},
			{"shorter wildcard written first", []string{"path", "/api/v1/items/1"}, "internal.path_/api/*"},
			{"named, per day", []string{"job", "nightly"}, "nightly"},
			{"key only, requests_per_unit 0", []string{"job", "batch2"}, "internal.job"},
		})
	})
}

// checked is limitsToCheck's answer in one line: per descriptor the rule
// kept, "unlimited", or "-" (none: replaced, or no match).
func checked(d *Domain, descs [][]Entry) string {
	rules, unlimited := d.limitsToCheck(descs)
	if len(rules) != len(descs) || len(unlimited) != len(descs) {
		return fmt.Sprintf("%d rules and %d unlimited for %d descriptors", len(rules), len(unlimited), len(descs))
	}
	var parts []string
	for i := range descs {
		switch {
		case unlimited[i] && rules[i] != nil:
			parts = append(parts, "unlimited and "+label(rules[i]))
		case unlimited[i]:
			parts = append(parts, "unlimited")
		default:
			parts = append(parts, label(rules[i]))
		}
	}
	return strings.Join(parts, " ")
}

// TestLimitsToCheck: what crosses descriptors. A rule named in the
// replaces of another rule matched in the same request is dropped, in
// whichever order the two come; an unlimited rule is reported as such,
// counts nothing, and its replaces still apply.
func TestLimitsToCheck(t *testing.T) {
	defer noPanic(t)
	edge := loadDomain(t, "../peer/rules", "edge")
	e32 := loadDomain(t, writeRules(t, e32Rules), "e32")
	for _, c := range []struct {
		why   string
		d     *Domain
		descs [][]Entry
		want  string
	}{
		{"one rule", edge, [][]Entry{entries("tenant", "t1")}, "per-tenant"},
		{"no match", edge, [][]Entry{entries("color", "c1")}, "-"},
		{"every descriptor its own rule", edge,
			[][]Entry{entries("remote_address", "10.0.0.1"), entries("plan", "pro"), entries("color", "c1")},
			"edge.remote_address edge.plan_pro -"},
		{"replaced by a rule after it", edge, [][]Entry{entries("tenant", "t1"), entries("tier", "gold")}, "- gold"},
		{"replaced by a rule before it", edge, [][]Entry{entries("tier", "gold"), entries("tenant", "t1")}, "gold -"},
		{"every descriptor on the replaced rule", edge,
			[][]Entry{entries("tenant", "t1"), entries("tenant", "t2"), entries("tier", "gold")}, "- - gold"},
		{"the replacing rule must match: tier=silver does not", edge,
			[][]Entry{entries("tenant", "t1"), entries("tier", "silver")}, "per-tenant -"},
		{"unlimited", edge, [][]Entry{entries("path", "/static")}, "unlimited"},
		{"an unlimited rule replaces too", edge, [][]Entry{entries("tenant", "t1"), entries("bypass", "yes")}, "- unlimited"},
		{"E32: per_user replaces generic", e32, [][]Entry{entries("generic", "g"), entries("user", "u")}, "- per_user"},
		{"E32: unlimited beside a limit", e32, [][]Entry{entries("internal", "x"), entries("api_key", "a")}, "unlimited e32.api_key"},
	} {
		if got := checked(c.d, c.descs); got != c.want {
			t.Errorf("%s: got %q, want %q", c.why, got, c.want)
		}
	}
}
