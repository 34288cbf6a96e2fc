package framing

import (
	"errors"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestKeyBuildersKeepDimensionsApart(t *testing.T) {
	got := []string{UserKey("42"), APIKeyKey("42"), RouteKey(APIKeyKey("42"), "/upload"), GlobalKey}
	want := []string{"user:2:42", "key:2:42", "key:2:42|route:7:/upload", "global"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("key %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestRouteKeysCannotCollide is issue 11's finding: with "|" as a bare
// separator, API key "free_a|route:/x" on /y and key "free_a" on
// "/x|route:/y" (the path /x%7Croute:/y) were one key and one budget.
func TestRouteKeysCannotCollide(t *testing.T) {
	a, errA := KeyByAPIKeyAndRoute(Identity{KeyID: "free_a|route:/x"}, "/y")
	b, errB := KeyByAPIKeyAndRoute(Identity{KeyID: "free_a"}, "/x|route:/y")
	if errA != nil || errB != nil || a == b {
		t.Fatalf("keys %q and %q (%v, %v): two identities share one key", a, b, errA, errB)
	}
}

// FuzzKeyEncodingIsInjective: two (key id, route) pairs give one key only
// if they are the same pair, whatever bytes the parts hold.
func FuzzKeyEncodingIsInjective(f *testing.F) {
	f.Add("free_a|route:/x", "/y", "free_a", "/x|route:/y")
	f.Add("a:1:b", "", "a", ":1:b")
	f.Fuzz(func(t *testing.T, id1, r1, id2, r2 string) {
		k1, k2 := RouteKey(APIKeyKey(id1), r1), RouteKey(APIKeyKey(id2), r2)
		if (k1 == k2) != (id1 == id2 && r1 == r2) {
			t.Fatalf("(%q, %q) -> %q, (%q, %q) -> %q", id1, r1, k1, id2, r2, k2)
		}
		if UserKey(id1) == APIKeyKey(id2) {
			t.Fatalf("a user and a key share %q", UserKey(id1))
		}
	})
}

// TestOverlongIDsAreRefused: ids and routes have caps, and a key function
// refuses a longer one with a ParamError naming the part and the cap.
func TestOverlongIDsAreRefused(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name  string
		f     KeyFunc
		id    Identity
		route string
		param string
		cap   string
	}{
		{"user id", KeyByUser, Identity{UserID: long(MaxIDLen + 1)}, "/read", "user id", "1 to 64 bytes"},
		{"no user id", KeyByUser, Identity{}, "/read", "user id", "1 to 64 bytes"},
		{"key id", KeyByAPIKey, Identity{KeyID: long(MaxIDLen + 1)}, "/read", "API key id", "1 to 64 bytes"},
		{"route", KeyByAPIKeyAndRoute, Identity{KeyID: "k"}, long(MaxRouteLen + 1), "route", "1 to 256 bytes"},
		{"endpoint", KeyByRoute, Identity{}, long(MaxRouteLen + 1), "route", "1 to 256 bytes"},
	}
	for _, c := range cases {
		_, err := c.f(c.id, c.route)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param || pe.Accept != c.cap {
			t.Errorf("%s: err %v, want a ParamError naming %s and %s", c.name, err, c.param, c.cap)
		}
	}
	for _, ok := range []struct {
		f     KeyFunc
		id    Identity
		route string
	}{
		{KeyByUser, Identity{UserID: long(MaxIDLen)}, ""},
		{KeyByAPIKeyAndRoute, Identity{KeyID: long(MaxIDLen)}, long(MaxRouteLen)},
	} {
		if _, err := ok.f(ok.id, ok.route); err != nil {
			t.Errorf("a part exactly at the cap refused: %v", err)
		}
	}
}

func TestIPGroupingDefaultCIDR(t *testing.T) {
	cases := []struct{ addr, want string }{
		{"203.0.113.7", "ip:14:203.0.113.0/24"},
		{"203.0.113.250:5123", "ip:14:203.0.113.0/24"}, // RemoteAddr form
		{"203.0.114.7", "ip:14:203.0.114.0/24"},
		{"::ffff:203.0.113.9", "ip:14:203.0.113.0/24"}, // IPv4-mapped counts as IPv4
		{"2001:db8:1:2:aaaa::1", "ip:17:2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::9]:443", "ip:17:2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "ip:17:2001:db8:1:3::/64"},
		{"fe80::1%eth0", "ip:9:fe80::/64"},
	}
	for _, c := range cases {
		got, err := DefaultIPGrouping.Key(c.addr)
		if err != nil || got != c.want {
			t.Errorf("Key(%q) = %q, %v; want %q", c.addr, got, err, c.want)
		}
	}
}

func TestIPGroupingConfigurable(t *testing.T) {
	g, err := NewIPGrouping(32, 128)
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := g.Key("203.0.113.7"); k != "ip:14:203.0.113.7/32" {
		t.Errorf("/32: got %s", k)
	}
	g, _ = NewIPGrouping(16, 48)
	if k, _ := g.Key("2001:db8:abcd:12::1"); k != "ip:18:2001:db8:abcd::/48" {
		t.Errorf("/48: got %s", k)
	}
}

func TestIPGroupingRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		v4, v6 int
		param  string
	}{{33, 64, "ipv4 prefix"}, {-1, 64, "ipv4 prefix"}, {24, 129, "ipv6 prefix"}, {24, -8, "ipv6 prefix"}} {
		_, err := NewIPGrouping(c.v4, c.v6)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("NewIPGrouping(%d, %d): err %v, want a ParamError naming %s", c.v4, c.v6, err, c.param)
		}
	}
	// A zero-value or hand-built grouping is checked too, never a panic.
	if _, err := (IPGrouping{V4Prefix: 40, V6Prefix: 64}).Key("1.2.3.4"); err == nil {
		t.Error("an out-of-range prefix must be an error")
	}
	for _, addr := range []string{"", "not-an-ip", "300.1.1.1", "1.2.3.4:port"} {
		_, err := DefaultIPGrouping.Key(addr)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "ip" {
			t.Errorf("Key(%q): err %v, want a ParamError naming ip", addr, err)
		}
	}
}

func FuzzIPGroupingNeverPanics(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "[::1]:80", "::ffff:1.2.3.4", "x", ""} {
		f.Add(s, 24, 64)
	}
	f.Fuzz(func(t *testing.T, addr string, v4, v6 int) {
		g := IPGrouping{V4Prefix: v4, V6Prefix: v6}
		k, err := g.Key(addr)
		if err == nil && k == "" {
			t.Fatal("empty key without an error")
		}
		if err == nil {
			// Every address in the group maps to the same key.
			p, _ := g.Prefix(addr)
			if k2, _ := g.Key(p.Addr().String()); k2 != k {
				t.Fatalf("network address %s keyed %s, member keyed %s", p.Addr(), k2, k)
			}
		}
	})
}

func TestFourQuestionsAreAnswered(t *testing.T) {
	names := []string{"key", "traffic shape", "shared state", "placement"}
	if len(FourQuestions) != 4 {
		t.Fatalf("%d questions, want 4", len(FourQuestions))
	}
	for i, q := range FourQuestions {
		if q.Name != names[i] || q.Ask == "" || q.Answers == "" || q.Where == "" {
			t.Errorf("question %d incomplete: %+v", i, q)
		}
	}
}
