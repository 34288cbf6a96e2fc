package overload

import (
	"math/rand/v2"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// WaitRule turns the server's Retry-After and the client's random jitter
// into how long the client waits before retrying.
type WaitRule func(retryAfter, jitter time.Duration) time.Duration

// MaxRule is max(Retry-After, jitter). It honours the floor, but every draw
// below Retry-After lands on Retry-After itself: the jitter is thrown away.
func MaxRule(retryAfter, jitter time.Duration) time.Duration { return max(retryAfter, jitter) }

// OnTopRule is Retry-After + jitter: the floor first, the spread above it.
func OnTopRule(retryAfter, jitter time.Duration) time.Duration { return retryAfter + jitter }

// Herd is n clients rejected in the same instant and told retryAfter: each
// draws its jitter uniformly from [0, spread] and waits rule(retryAfter,
// jitter). It returns the waits, in client order.
func Herd(n int, retryAfter, spread time.Duration, rule WaitRule, rnd *rand.Rand) ([]time.Duration, error) {
	if err := core.CheckCount("clients", n); err != nil {
		return nil, err
	}
	if retryAfter < 0 || spread < 0 || spread > core.MaxWindow || retryAfter > core.MaxWindow {
		return nil, core.BadParam("retry after and spread", []time.Duration{retryAfter, spread}, "durations from 0 to 1e18ns")
	}
	waits := make([]time.Duration, n)
	for i := range waits {
		waits[i] = rule(retryAfter, time.Duration(rnd.Int64N(int64(spread)+1)))
	}
	return waits, nil
}

// PerSecond counts the waits by the whole second they end in: out[s] is how
// many clients come back in [s, s+1) seconds after the rejection.
func PerSecond(waits []time.Duration) []int {
	var out []int
	for _, w := range waits {
		s := int(w / time.Second)
		for len(out) <= s {
			out = append(out, 0)
		}
		out[s]++
	}
	return out
}
