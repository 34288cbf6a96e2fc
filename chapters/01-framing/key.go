package framing

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/ratelimit-course/ratelimit/core"
)

// The first of the four questions: who is being counted? A limiter key names
// one identity; every request that maps to the same key spends from the same
// budget. So two different identities must never spell the same key.
//
// Gluing parts with a separator fails that test as soon as a part may
// contain the separator: "key:a|route:/x" + "|route:/y" and "key:a" +
// "|route:/x|route:/y" are one string. Every part here is written as
// dimension:length:value, a netstring: the length says where the value ends,
// whatever bytes it holds, so a key decodes one way only and two keys are
// equal exactly when all their parts are.

// Caps on the parts of a key. An id is issued by the server (a key store's
// record) and a route is a template from a fixed list, so neither needs to
// be long; a cap keeps a hostile value from becoming a megabyte of key.
const (
	MaxIDLen    = 64  // bytes in a key id or a user id
	MaxRouteLen = 256 // bytes in a route
)

// GlobalKey is the one key every request shares: the service's absolute ceiling.
const GlobalKey = "global"

// part writes one dimension of a key as dim:len:value.
func part(dim, value string) string {
	return dim + ":" + strconv.Itoa(len(value)) + ":" + value
}

// checkPart refuses an empty or over-long key part with a *core.ParamError
// naming the part and the cap. It reports the length, not the value: a
// hostile value is not worth echoing.
func checkPart(param, value string, max int) error {
	if value == "" || len(value) > max {
		return core.BadParam(param, fmt.Sprintf("of %d bytes", len(value)), fmt.Sprintf("1 to %d bytes", max))
	}
	return nil
}

// UserKey counts an authenticated user, whatever credential or address the
// user arrives with.
func UserKey(userID string) string { return part("user", userID) }

// APIKeyKey counts a credential by its key id (never its secret): the tenant
// or partner that holds the key, however many end users sit behind it.
func APIKeyKey(keyID string) string { return part("key", keyID) }

// RouteKey narrows any key to one route, so that an expensive endpoint gets a
// budget of its own: (API key, route) is the usual pair.
func RouteKey(key, route string) string { return key + "|" + part("route", route) }

// IPGrouping turns a source address into a key for its network rather than
// the single address. Counting single addresses is useless against a client
// that owns a block: an IPv6 customer typically gets a whole /64 and can pick
// a fresh address for every request, and one IPv4 host rarely stops at one
// address in its /24. Grouping trades some collateral (neighbours share a
// budget) for a key the client cannot rotate cheaply.
type IPGrouping struct {
	V4Prefix int // bits kept from an IPv4 address, 0..32
	V6Prefix int // bits kept from an IPv6 address, 0..128
}

// DefaultIPGrouping groups IPv4 by /24 and IPv6 by /64 (one customer's subnet).
var DefaultIPGrouping = IPGrouping{V4Prefix: 24, V6Prefix: 64}

// NewIPGrouping validates the two prefix lengths.
func NewIPGrouping(v4Prefix, v6Prefix int) (IPGrouping, error) {
	if v4Prefix < 0 || v4Prefix > 32 {
		return IPGrouping{}, core.BadParam("ipv4 prefix", v4Prefix, "a prefix length from 0 to 32")
	}
	if v6Prefix < 0 || v6Prefix > 128 {
		return IPGrouping{}, core.BadParam("ipv6 prefix", v6Prefix, "a prefix length from 0 to 128")
	}
	return IPGrouping{V4Prefix: v4Prefix, V6Prefix: v6Prefix}, nil
}

// Key returns the key of the network that addr belongs to, e.g.
// "ip:14:203.0.113.0/24" or "ip:17:2001:db8:1:2::/64". addr may carry a port
// ("203.0.113.7:5123", "[2001:db8::1]:443", as in http.Request.RemoteAddr)
// and an IPv6 zone. IPv4-mapped IPv6 addresses count as IPv4, so one client
// cannot get two budgets by switching notation.
func (g IPGrouping) Key(addr string) (string, error) {
	p, err := g.Prefix(addr)
	if err != nil {
		return "", err
	}
	return part("ip", p.String()), nil
}

// Prefix is the masked network itself, the value inside Key.
func (g IPGrouping) Prefix(addr string) (netip.Prefix, error) {
	if _, err := NewIPGrouping(g.V4Prefix, g.V6Prefix); err != nil {
		return netip.Prefix{}, err
	}
	ip, err := ParseAddr(addr)
	if err != nil {
		return netip.Prefix{}, err
	}
	bits := g.V6Prefix
	if ip.Is4() {
		bits = g.V4Prefix
	}
	p, err := ip.Prefix(bits)
	if err != nil { // unreachable after validation; keep the error path anyway
		return netip.Prefix{}, core.BadParam("ip", addr, "an IPv4 or IPv6 address")
	}
	return p, nil
}

// ParseAddr accepts an address with or without a port and normalises it: the
// zone is dropped and an IPv4-mapped IPv6 address becomes IPv4.
func ParseAddr(addr string) (netip.Addr, error) {
	s := strings.TrimSpace(addr)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), nil
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return netip.Addr{}, core.BadParam("ip", fmt.Sprintf("%.64q", addr), "an IPv4 or IPv6 address, optionally with a port")
	}
	return ip.Unmap().WithZone(""), nil
}
