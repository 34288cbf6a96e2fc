package framing

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/ratelimit-course/ratelimit/core"
)

// Which address is the client's? The TCP peer (RemoteAddr) is the one
// address nobody can forge, but behind a load balancer it is the balancer's.
// The balancer reports the address it saw by appending it to
// X-Forwarded-For, so the header reads left to right as the client's claims
// followed by one hop per proxy:
//
//	X-Forwarded-For: <anything the client wrote>, <client as the 1st proxy saw it>, …
//
// Everything left of what your own proxies appended was written by the
// client and proves nothing: counting the first entry lets a client pick a
// fresh key per request. Read it from the right instead, skipping only hops
// that are your proxies: the first hop that is not one is the address the
// outermost trusted proxy saw, the client. A peer that is not a trusted
// proxy is the client itself, whatever header it sent; and a header that is
// missing or cannot be parsed where it matters is counted under the peer,
// never skipped (skipping would make "send garbage" a way out of the limit).

// TrustedProxies is the trusted-proxy setting: the networks your own proxies
// and load balancers send from. The zero value trusts nobody, so the client
// address is always the peer.
type TrustedProxies struct {
	nets []netip.Prefix
}

// The widest network a trusted-proxy setting may name: IPv4 /8 (10.0.0.0/8)
// and IPv6 /7 (fc00::/7, the unique local addresses) are the largest
// private networks of each family, so a wider one is not a network of your
// own proxies but a typo or a "trust everyone" in disguise.
const (
	MinTrustedV4Bits = 8
	MinTrustedV6Bits = 7
)

// ipv4Mapped is ::ffff:0:0/96, every IPv4 address written as IPv6.
var ipv4Mapped = netip.MustParsePrefix("::ffff:0:0/96")

// NewTrustedProxies parses each network ("10.0.0.0/8", "2001:db8::/32") or
// single address ("192.0.2.10"); anything else is a *core.ParamError. An
// IPv4-mapped network ("::ffff:10.0.0.0/104") means the IPv4 network it
// maps (10.0.0.0/8). Three settings that used to go silently wrong are
// refused: a network wider than IPv4 /8 or IPv6 /7 (0.0.0.0/0 and ::/0
// trust every peer, and so does ::ffff:0:0/96, which is 0.0.0.0/0 written
// as IPv6), an IPv6 network shorter than /96 that holds IPv4-mapped
// addresses (it mixes the two families), and a zone ("fe80::%eth0/64"),
// which names an interface, not a network.
func NewTrustedProxies(networks ...string) (TrustedProxies, error) {
	t := TrustedProxies{}
	for _, n := range networks {
		p, err := trustedNetwork(strings.TrimSpace(n))
		if err != nil {
			return TrustedProxies{}, err
		}
		t.nets = append(t.nets, p)
	}
	return t, nil
}

// trustedNetwork parses one trusted-proxy setting, masked and, if
// IPv4-mapped, written as IPv4.
func trustedNetwork(n string) (netip.Prefix, error) {
	bad := func(accept string) error { return core.BadParam("trusted proxy", fmt.Sprintf("%.64q", n), accept) }
	if strings.Contains(n, "%") {
		return netip.Prefix{}, bad("a network or an address without a zone: a zone names an interface, not a network (write fe80::/64)")
	}
	p, err := netip.ParsePrefix(n)
	if err != nil {
		a, aerr := ParseAddr(n)
		if aerr != nil {
			return netip.Prefix{}, bad("a network such as 10.0.0.0/8 or an address")
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	p = p.Masked()
	every := "every %s address"
	switch {
	case p.Bits() >= 96 && ipv4Mapped.Contains(p.Addr()):
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		every = "every %s address, written as IPv4-mapped IPv6"
	case p.Addr().Is6() && p.Bits() > 0 && p.Overlaps(ipv4Mapped):
		return netip.Prefix{}, bad("an IPv4-mapped network of at least /96 (a shorter one holds IPv4-mapped and IPv6 addresses together)")
	}
	family, least := "IPv6", MinTrustedV6Bits
	if p.Addr().Is4() {
		family, least = "IPv4", MinTrustedV4Bits
	}
	if p.Bits() == 0 {
		return netip.Prefix{}, bad(fmt.Sprintf("the network of your own proxies, at least /%d for %s; this one is "+every+", so any peer could name any client", least, family, family))
	}
	if p.Bits() < least {
		return netip.Prefix{}, bad(fmt.Sprintf("the network of your own proxies, at least /%d for %s; a wider one trusts strangers to name their client", least, family))
	}
	return p, nil
}

// Trusts reports whether a is one of the trusted proxies.
func (t TrustedProxies) Trusts(a netip.Addr) bool {
	for _, p := range t.nets {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientAddr is the client's address for r: Client applied to RemoteAddr and
// every X-Forwarded-For line.
func (t TrustedProxies) ClientAddr(r *http.Request) (netip.Addr, error) {
	return t.Client(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}

// Client finds the client behind peer (the TCP peer, port allowed) from the
// forwarding header's lines, in order. It walks the hops from the right and
// returns the first one that is not a trusted proxy; if every hop is
// trusted, the leftmost. An untrusted peer is the answer itself, and a
// missing header or an unparsable hop reached on the walk makes the peer the
// answer. The error is only for a peer that is not an address. The walk
// never reads past the first untrusted hop, so a long header written by the
// client costs nothing.
func (t TrustedProxies) Client(peer string, forwarded []string) (netip.Addr, error) {
	p, err := ParseAddr(peer)
	if err != nil {
		return netip.Addr{}, err
	}
	if !t.Trusts(p) {
		return p, nil
	}
	client := p
	for i := len(forwarded) - 1; i >= 0; i-- {
		v := forwarded[i] // an empty line is an unparsable hop
		for more := true; more; {
			var hop string
			if j := strings.LastIndexByte(v, ','); j >= 0 {
				v, hop = v[:j], v[j+1:]
			} else {
				hop, more = v, false
			}
			a, err := ParseAddr(hop)
			if err != nil {
				return p, nil
			}
			client = a
			if !t.Trusts(a) {
				return a, nil
			}
		}
	}
	return client, nil
}
