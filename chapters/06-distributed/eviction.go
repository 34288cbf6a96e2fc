package distributed

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrMayEvict is wrapped by the error a limiter returns when its Redis runs a
// maxmemory-policy other than noeviction (E20). Every limiter key carries a
// TTL, so a volatile-* policy evicts exactly those keys first and allkeys-*
// evicts them among the rest; a limiter whose key has just been evicted sees
// a fresh identity and admits a whole new limit. Under noeviction a full
// Redis refuses the scripts instead (an OOM error), and the endpoint's
// failure policy decides, as for any outage.
var ErrMayEvict = errors.New("the server may evict rate-limit keys (maxmemory-policy is not noeviction, E20)")

// CheckNoEviction asks every primary behind rdb for its maxmemory-policy
// (CONFIG GET) and returns nil only if each answers noeviction. It works with
// a *redis.Client, a *redis.ClusterClient (every master), a *redis.Ring
// (every shard) and a *Batcher (the client it sends through). Every limiter calls it on its first decision and fails
// until it passes; call it yourself at start-up to fail early.
//
// A wrong policy gives an error wrapping ErrMayEvict. A server that cannot
// answer (CONFIG disabled or renamed, as on many managed services, or an
// ACL without +config) gives an error saying so: check the policy in the
// provider's console and wrap the client with AssumeNoEviction.
func CheckNoEviction(ctx context.Context, rdb redis.Scripter) error {
	switch c := rdb.(type) {
	case assumedNoEviction:
		return nil
	case *Batcher:
		return CheckNoEviction(ctx, c.rdb)
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, checkPolicy)
	case *redis.Ring:
		return c.ForEachShard(ctx, checkPolicy)
	case *redis.Client:
		return checkPolicy(ctx, c)
	}
	return fmt.Errorf("cannot check maxmemory-policy through a %T; if its Redis runs noeviction, wrap it with distributed.AssumeNoEviction", rdb)
}

func checkPolicy(ctx context.Context, c *redis.Client) error {
	cfg, err := c.ConfigGet(ctx, "maxmemory-policy").Result()
	if err != nil {
		return fmt.Errorf("cannot read maxmemory-policy of %s (%w); if CONFIG is disabled there, make sure the policy is "+
			"noeviction and wrap the client with distributed.AssumeNoEviction", c.Options().Addr, err)
	}
	if p := cfg["maxmemory-policy"]; p != "noeviction" {
		return &EvictionError{Addr: c.Options().Addr, Policy: p}
	}
	return nil
}

// EvictionError is CheckNoEviction's answer for a server whose
// maxmemory-policy may evict: its address and the policy it runs. It wraps
// ErrMayEvict.
type EvictionError struct{ Addr, Policy string }

func (e *EvictionError) Error() string {
	return fmt.Sprintf("%v: %s runs %q; set maxmemory-policy noeviction (or give the limiter a Redis of its own "+
		"and wrap the client with distributed.AssumeNoEviction)", ErrMayEvict, e.Addr, e.Policy)
}

// Unwrap is ErrMayEvict.
func (e *EvictionError) Unwrap() error { return ErrMayEvict }

// AssumeNoEviction wraps rdb so that limiters skip the maxmemory-policy check:
// the opt-out for a Redis whose CONFIG command is disabled (check its policy
// where the provider shows it) or one dedicated to the limiter, whose
// operator has decided what eviction may cost. The wrapper only runs
// scripts; use rdb itself for anything else.
func AssumeNoEviction(rdb redis.Scripter) redis.Scripter { return assumedNoEviction{rdb} }

type assumedNoEviction struct{ redis.Scripter }

// PolicyRecheck is how long a limiter trusts a passed maxmemory-policy
// check. The policy can change under a running limiter: CONFIG SET, a
// failover to a replica configured differently, a restart from another
// config file. So a limiter checks again on its first decision after
// PolicyRecheck has passed, and on the first decision after any failed
// call (a reconnect, a failover and an OOM refusal all show as one). The
// cost is one CONFIG GET per limiter (per primary of a cluster) each
// PolicyRecheck, whatever the traffic; a policy changed without any error
// goes unnoticed for at most that long.
const PolicyRecheck = time.Second

// policyCheck is how a limiter keeps to the E20 rule: it runs
// CheckNoEviction before it decides, and again once the last pass is
// older than every (PolicyRecheck) or a call has failed since.
type policyCheck struct {
	every time.Duration // 0: PolicyRecheck
	// validUntil is the wall-clock time (Unix ns) until which the last
	// passed check holds; 0 means check before the next decision.
	validUntil atomic.Int64
}

// ensure returns nil if rdb was found to run noeviction within the last
// PolicyRecheck and no call has failed since, or if it does now. While one
// caller re-checks an expired pass, the others go on under it: one CONFIG
// GET per period, not one per goroutine.
func (p *policyCheck) ensure(ctx context.Context, rdb redis.Scripter) error {
	now := time.Now().UnixNano()
	until := p.validUntil.Load()
	if now < until {
		return nil
	}
	every := p.every
	if every == 0 {
		every = PolicyRecheck
	}
	if until != 0 && !p.validUntil.CompareAndSwap(until, now+int64(every)) {
		return nil // another caller is re-checking a pass that just expired
	}
	if err := CheckNoEviction(ctx, rdb); err != nil {
		p.validUntil.Store(0)
		return err
	}
	p.validUntil.Store(now + int64(every))
	return nil
}

// suspect makes the next decision check again: a call failed, and the
// server that answers next may not be the one that was checked.
func (p *policyCheck) suspect() { p.validUntil.Store(0) }
