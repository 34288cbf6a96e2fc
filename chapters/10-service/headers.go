package service

import (
	"math"
	"strconv"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// The response headers of `serve --response-headers`, named as the
// reference names them by default (its LIMIT_LIMIT_HEADER,
// LIMIT_REMAINING_HEADER and LIMIT_RESET_HEADER settings). Envoy adds them
// to the response it sends the client; MIGRATING.md says how they relate to
// the IETF draft's RateLimit and RateLimit-Policy fields.
const (
	HeaderLimit     = "RateLimit-Limit"
	HeaderRemaining = "RateLimit-Remaining"
	HeaderReset     = "RateLimit-Reset"
)

// addResponseHeaders sets resp.ResponseHeadersToAdd from a finished
// response, as envoyproxy/ratelimit does with LIMIT_RESPONSE_HEADERS_ENABLED
// (src/service/ratelimit.go, shouldRateLimitWorker): the headers describe a
// single descriptor, the one closest to its limit.
//
//   - In request order, a status with a current limit replaces the choice
//     when its limit_remaining is strictly below the smallest seen so far
//     (which starts at 2^32-1): on a tie the first one stays.
//   - An OVER_LIMIT status replaces the choice whatever it has left, and the
//     smallest becomes 0: with several refusals the last one is described.
//     A shadow or quota_mode rule's refusal is answered OK with 0
//     remaining, so only the first rule can choose it, as any status at 0
//     (the reference looks at a quota refusal before rewriting it, and its
//     0 remaining chooses it the same way, never forced).
//   - A status without a current limit is never chosen: unlimited, no rule,
//     an unknown domain, or a descriptor past MaxDescriptors (OVER_LIMIT with
//     no limit to describe, which the reference never answers).
//
// With no status chosen no header is added. RateLimit-Limit is the limit's
// requests_per_unit alone, with no policy after it; RateLimit-Remaining is
// the status's limit_remaining; RateLimit-Reset is its duration_until_reset
// in seconds. For a fixed window that is the reference's own formula
// (unit - now mod unit); for the other algorithms a refusal's reset is
// when the request could pass, which the unit's boundary is not. A status
// without duration_until_reset (a quota_mode refusal) gets the reference's
// formula at now.
func addResponseHeaders(resp *rls.RateLimitResponse, now time.Time) {
	minRemaining := uint32(math.MaxUint32)
	var chosen *rls.RateLimitResponse_DescriptorStatus
	for _, st := range resp.GetStatuses() {
		if st.GetCurrentLimit() == nil {
			continue
		}
		if st.GetLimitRemaining() < minRemaining {
			chosen, minRemaining = st, st.GetLimitRemaining()
		}
		if st.GetCode() == rls.RateLimitResponse_OVER_LIMIT {
			chosen, minRemaining = st, 0
		}
	}
	if chosen == nil {
		return
	}
	reset := chosen.GetDurationUntilReset().GetSeconds()
	if chosen.GetDurationUntilReset() == nil {
		sec := max(rules.Unit(chosen.GetCurrentLimit().GetUnit()).Seconds(), 1) // a unit outside the table counts as a second
		reset = sec - now.Unix()%sec
	}
	resp.ResponseHeadersToAdd = []*corev3.HeaderValue{
		{Key: HeaderLimit, Value: strconv.FormatUint(uint64(chosen.GetCurrentLimit().GetRequestsPerUnit()), 10)},
		{Key: HeaderRemaining, Value: strconv.FormatUint(uint64(chosen.GetLimitRemaining()), 10)},
		{Key: HeaderReset, Value: strconv.FormatInt(reset, 10)},
	}
}
