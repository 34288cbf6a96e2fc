package framing

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestClientIPIsRightmostUntrustedHop is issue 11's finding for chapter 01:
// the client address is the first hop from the right that is not one of our
// proxies; what the client wrote to the left of it is never read.
func TestClientIPIsRightmostUntrustedHop(t *testing.T) {
	lb, err := NewTrustedProxies("10.0.0.0/8", "2001:db8:ffff::/48", "192.0.2.10")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		peer  string
		xff   []string
		proxy TrustedProxies
		want  string
	}{
		{"one balancer", "10.0.0.5:443", []string{"198.51.100.7"}, lb, "198.51.100.7"},
		{"spoofed entry on the left is ignored", "10.0.0.5:443", []string{"1.2.3.4, 198.51.100.7"}, lb, "198.51.100.7"},
		{"two of our proxies", "10.0.0.5:443", []string{"6.6.6.6, 198.51.100.7, 10.1.1.1"}, lb, "198.51.100.7"},
		{"single trusted address", "192.0.2.10:80", []string{"203.0.113.9"}, lb, "203.0.113.9"},
		{"two header lines read in order", "10.0.0.5:443", []string{"6.6.6.6", "198.51.100.7 , 10.2.2.2"}, lb, "198.51.100.7"},
		{"ipv6 balancer and client", "[2001:db8:ffff::1]:443", []string{"2001:db8:1:2::9"}, lb, "2001:db8:1:2::9"},
		{"hop with a port", "10.0.0.5:443", []string{"[2001:db8:1::7]:5555"}, lb, "2001:db8:1::7"},
		{"every hop trusted: the leftmost", "10.0.0.5:443", []string{"10.9.9.9, 10.1.1.1"}, lb, "10.9.9.9"},
		{"untrusted peer: its header is ignored", "198.51.100.7:5000", []string{"1.2.3.4"}, lb, "198.51.100.7"},
		{"nobody trusted (the zero value)", "10.0.0.5:443", []string{"198.51.100.7"}, TrustedProxies{}, "10.0.0.5"},
		{"garbage left of the client is never read", "10.0.0.5:443", []string{"not-an-ip, 198.51.100.7"}, lb, "198.51.100.7"},
	}
	for _, c := range cases {
		got, err := c.proxy.Client(c.peer, c.xff)
		if err != nil || got.String() != c.want {
			t.Errorf("%s: %v, %v; want %s", c.name, got, err, c.want)
		}
	}
}

// TestMissingForwardedHeaderCountsThePeer: no header, an empty one, or an
// unparsable hop where the walk needs it: the request is counted under the
// peer, never skipped.
func TestMissingForwardedHeaderCountsThePeer(t *testing.T) {
	lb, _ := NewTrustedProxies("10.0.0.0/8")
	for _, c := range []struct {
		name string
		xff  []string
	}{
		{"missing", nil},
		{"empty", []string{""}},
		{"garbage", []string{"not-an-ip"}},
		{"trailing comma", []string{"198.51.100.7,"}},
		{"garbage right of a trusted hop", []string{"198.51.100.7, bogus, 10.0.0.9"}},
		{"huge garbage", []string{strings.Repeat("x", 1<<20)}},
	} {
		got, err := lb.Client("10.0.0.5:443", c.xff)
		if err != nil || got.String() != "10.0.0.5" {
			t.Errorf("%s: %v, %v; want the peer 10.0.0.5", c.name, got, err)
		}
	}
	r := httptest.NewRequest("GET", "/read", nil)
	r.RemoteAddr = "10.0.0.5:443"
	if got, err := lb.ClientAddr(r); err != nil || got.String() != "10.0.0.5" {
		t.Errorf("ClientAddr without a header: %v, %v", got, err)
	}
	if _, err := lb.Client("not-an-address", nil); err == nil {
		t.Error("an unparsable peer gave an address")
	}
}

func TestNewTrustedProxiesRejectsBadInput(t *testing.T) {
	for _, bad := range []string{"", "10.0.0.0/33", "proxy.internal", "10.0.0.0/8/8"} {
		var pe *core.ParamError
		if _, err := NewTrustedProxies("192.0.2.0/24", bad); !errors.As(err, &pe) || pe.Param != "trusted proxy" {
			t.Errorf("NewTrustedProxies(%q): err %v, want a ParamError naming trusted proxy", bad, err)
		}
	}
	tp, err := NewTrustedProxies("10.1.2.3/8", "::ffff:192.0.2.0/120")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{"10.200.0.1": true, "192.0.2.77": true, "192.0.3.1": false, "11.0.0.1": false} {
		a, _ := ParseAddr(addr)
		if tp.Trusts(a) != want {
			t.Errorf("Trusts(%s) = %v, want %v", addr, !want, want)
		}
	}
}

// TestTrustedProxySettingsThatSilentlyGoWrong is issue 7's finding:
// "::ffff:0:0/96" became 0.0.0.0/0 and trusted every IPv4 peer (1,000 of
// 1,000 spoofed requests admitted), "0.0.0.0/0" and "::/0" were accepted
// silently, and "fe80::%eth0/64" parsed as the single address fe80::. Each
// is refused now with one error that names the setting and what is accepted.
func TestTrustedProxySettingsThatSilentlyGoWrong(t *testing.T) {
	cases := []struct{ setting, says string }{
		{"::ffff:0:0/96", "every IPv4 address"},
		{"::ffff:0.0.0.0/96", "every IPv4 address"},
		{"::ffff:0:0/80", "IPv4-mapped"},
		{"0.0.0.0/0", "every IPv4 address"},
		{"::/0", "every IPv6 address"},
		{"0.0.0.0/1", "at least /8"},
		{"2000::/3", "at least /7"},
		{"fe80::%eth0/64", "zone"},
		{"fe80::1%eth0", "zone"},
	}
	for _, c := range cases {
		tp, err := NewTrustedProxies("10.0.0.0/8", c.setting)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "trusted proxy" || !strings.Contains(err.Error(), c.says) {
			t.Errorf("NewTrustedProxies(%q) = %v, err %v; want a ParamError naming the trusted proxy and saying %q", c.setting, tp.nets, err, c.says)
		}
		if err != nil && strings.Count(err.Error(), "\n") != 0 {
			t.Errorf("%q: a multi-line error %q", c.setting, err)
		}
	}
	// What the refused setting used to do: trust every IPv4 peer, so each
	// spoofed X-Forwarded-For entry was a new client.
	if tp, err := NewTrustedProxies("::ffff:0:0/96"); err == nil {
		spoofed := map[string]bool{}
		for i := 0; i < 1000; i++ {
			a, _ := tp.Client("198.51.100.7:5000", []string{fmt.Sprintf("192.0.%d.%d", i/256, i%256)})
			spoofed[a.String()] = true
		}
		t.Errorf("::ffff:0:0/96 accepted: 1,000 spoofed requests from one peer became %d clients", len(spoofed))
	}
	// Narrower IPv4-mapped networks still mean their IPv4 network.
	tp, err := NewTrustedProxies("::ffff:10.0.0.0/104", "fe80::/64", "fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{"10.1.2.3": true, "11.0.0.1": false, "fe80::1": true, "fe80:0:0:1::1": false, "fd12::1": true} {
		a, _ := ParseAddr(addr)
		if tp.Trusts(a) != want {
			t.Errorf("Trusts(%s) = %v, want %v", addr, !want, want)
		}
	}
}
