package framing

import (
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

// NewTrustedProxies parses each network ("10.0.0.0/8", "2001:db8::/32") or
// single address ("192.0.2.10"); anything else is a *core.ParamError.
func NewTrustedProxies(networks ...string) (TrustedProxies, error) {
	t := TrustedProxies{}
	for _, n := range networks {
		p, err := netip.ParsePrefix(strings.TrimSpace(n))
		if err != nil {
			a, aerr := ParseAddr(n)
			if aerr != nil {
				return TrustedProxies{}, core.BadParam("trusted proxy", n, "a network such as 10.0.0.0/8 or an address")
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		t.nets = append(t.nets, netip.PrefixFrom(p.Addr().Unmap(), unmapBits(p)).Masked())
	}
	return t, nil
}

// unmapBits is the prefix length once an IPv4-mapped network is written as IPv4.
func unmapBits(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		return max(p.Bits()-96, 0)
	}
	return p.Bits()
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
