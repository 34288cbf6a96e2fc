package framing

import (
	"errors"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestKeyBuildersKeepDimensionsApart(t *testing.T) {
	got := []string{UserKey("42"), APIKeyKey("42"), RouteKey(APIKeyKey("42"), "/upload"), GlobalKey}
	want := []string{"user:42", "key:42", "key:42|route:/upload", "global"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("key %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestIPGroupingDefaultCIDR(t *testing.T) {
	cases := []struct{ addr, want string }{
		{"203.0.113.7", "ip:203.0.113.0/24"},
		{"203.0.113.250:5123", "ip:203.0.113.0/24"}, // RemoteAddr form
		{"203.0.114.7", "ip:203.0.114.0/24"},
		{"::ffff:203.0.113.9", "ip:203.0.113.0/24"}, // IPv4-mapped counts as IPv4
		{"2001:db8:1:2:aaaa::1", "ip:2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::9]:443", "ip:2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "ip:2001:db8:1:3::/64"},
		{"fe80::1%eth0", "ip:fe80::/64"},
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
	if k, _ := g.Key("203.0.113.7"); k != "ip:203.0.113.7/32" {
		t.Errorf("/32: got %s", k)
	}
	g, _ = NewIPGrouping(16, 48)
	if k, _ := g.Key("2001:db8:abcd:12::1"); k != "ip:2001:db8:abcd::/48" {
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
