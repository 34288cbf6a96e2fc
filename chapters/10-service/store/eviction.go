package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// A limiter's Redis must not evict its keys (chapter 06, E20): an evicted
// key is a counter back at zero, a whole new budget for whoever it counted.
// At start the service reads maxmemory-policy with CONFIG GET and refuses
// anything but noeviction. Managed Redis services often disable CONFIG, so
// the policy cannot be read there: --redis-eviction-policy (Options.
// RedisEvictionPolicy) states it instead, and the service takes the
// operator's word.

// safePolicies are the maxmemory-policy values chapter 06's
// CheckNoEviction accepts. Only noeviction: every limiter key carries a
// TTL, so the volatile-* policies evict exactly those keys first.
var safePolicies = []string{"noeviction"}

// evictingPolicies are the other policies Redis knows (7.x), each of which
// may evict a limiter key.
var evictingPolicies = []string{"allkeys-lru", "allkeys-lfu", "allkeys-random",
	"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}

// evictionFlag is --redis-eviction-policy's name, quoted in the errors.
const evictionFlag = "--redis-eviction-policy"

// EvictionUsage is the flag's line in --help.
const EvictionUsage = "state Redis's maxmemory-`policy` instead of reading it with CONFIG GET, for a managed Redis that disables CONFIG; " +
	"accepted: noeviction (default: read it, and refuse to start unless it is noeviction). " +
	"The service trusts it: if the real policy evicts, a limiter key can vanish and its budget start again from full"

// policyProblem says why a stated maxmemory-policy will not do, or "".
func policyProblem(p string) string {
	accepted := "accepted: " + strings.Join(safePolicies, ", ")
	switch {
	case slices.Contains(safePolicies, p):
		return ""
	case slices.Contains(evictingPolicies, p):
		return "that policy may evict the limiter's keys (each has a TTL), and an evicted key's budget starts again from full; " +
			accepted + " (set it at the provider first)"
	}
	return "not a Redis maxmemory-policy; " + accepted
}

// EvictionPolicyFlag is the flag's setter: a value is checked as it is
// parsed, so a bad one exits 2 before anything starts.
func EvictionPolicyFlag(dst *string) func(string) error {
	return func(v string) error {
		if why := policyProblem(v); why != "" {
			return errors.New(why)
		}
		*dst = v
		return nil
	}
}

// checkStatedPolicy refuses a stated policy that will not do, before
// anything is dialled ("" = none stated).
func checkStatedPolicy(stated string) error {
	if stated == "" {
		return nil
	}
	if why := policyProblem(stated); why != "" {
		return fmt.Errorf("%s %q: %s", evictionFlag, stated, why)
	}
	return nil
}

// checkEviction is newRedisStore's check, after the PING: the stated
// policy if there is one (no CONFIG GET), else the policy read from every
// primary. A server that answers PING but not CONFIG GET (renamed, or an
// ACL without +config|get) gets an error naming the flag.
func checkEviction(ctx context.Context, client redis.UniversalClient, stated string) error {
	if stated != "" {
		return checkStatedPolicy(stated)
	}
	err := distributed.CheckNoEviction(ctx, client)
	var evicting *distributed.EvictionError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &evicting):
		return fmt.Errorf("%s runs maxmemory-policy %q, which may evict the limiter's keys (each has a TTL) and so "+
			"start a budget again from full; set it to noeviction (CONFIG SET maxmemory-policy noeviction, or the "+
			"provider's settings)", evicting.Addr, evicting.Policy)
	}
	cause := err
	if u := errors.Unwrap(err); u != nil {
		cause = u
	}
	return fmt.Errorf("cannot read maxmemory-policy with CONFIG GET (%v); if the server disables CONFIG, as managed Redis "+
		"services often do, check in the provider's settings that the policy is noeviction and start with %s noeviction",
		cause, evictionFlag)
}
