package rules

import (
	"strings"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// Unit is a rule's window as the protocol names it (SECOND … YEAR), read
// once when the rules load, as the reference's config holds its unit. The
// zero Unit is the protocol's UNKNOWN: an unlimited rule has no unit.
type Unit rls.RateLimitResponse_RateLimit_Unit

// unitSeconds are envoyproxy/ratelimit's units in seconds: a month is 30
// days and a year 365, and every window is aligned to the Unix epoch.
var unitSeconds = map[Unit]int64{
	Unit(rls.RateLimitResponse_RateLimit_SECOND): 1,
	Unit(rls.RateLimitResponse_RateLimit_MINUTE): 60,
	Unit(rls.RateLimitResponse_RateLimit_HOUR):   3600,
	Unit(rls.RateLimitResponse_RateLimit_DAY):    86400,
	Unit(rls.RateLimitResponse_RateLimit_WEEK):   7 * 86400,
	Unit(rls.RateLimitResponse_RateLimit_MONTH):  30 * 86400,
	Unit(rls.RateLimitResponse_RateLimit_YEAR):   365 * 86400,
}

// ParseUnit reads a unit as a rules file writes it, in any case ("minute",
// "MINUTE"); ok is false for anything else.
func ParseUnit(s string) (u Unit, ok bool) {
	v, known := rls.RateLimitResponse_RateLimit_Unit_value[strings.ToUpper(s)]
	u = Unit(v)
	_, ok = unitSeconds[u]
	return u, known && ok
}

// Seconds is the unit's length in seconds (0 for no unit).
func (u Unit) Seconds() int64 { return unitSeconds[u] }

// Window is the unit's length as a duration.
func (u Unit) Window() time.Duration { return time.Duration(u.Seconds()) * time.Second }

// String is the unit as a rules file writes it ("minute"; "" for none).
func (u Unit) String() string {
	if u.Seconds() == 0 {
		return ""
	}
	return strings.ToLower(rls.RateLimitResponse_RateLimit_Unit(u).String())
}
