package service

import (
	"math"
	"regexp"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// refMetrics are envoyproxy/ratelimit's per-rule statistics under the names
// its Prometheus sink gives them (src/stats/prom/default_mapper.yaml), so a
// dashboard built on the reference reads this service unchanged:
//
//	ratelimit.service.rate_limit.<domain>.<key1>.<key2>….total_hits
//	→ ratelimit_service_rate_limit_total_hits{domain, key1, key2}
//
// and the same for over_limit, near_limit, within_limit, shadow_mode and
// over_limit_with_local_cache (the deny cache here). They count HITS, a
// descriptor's hits_addend, not requests, as the reference does
// (src/limiter/base_limiter.go: GenerateCacheKeys adds hitsAddends[i] to
// TotalHits; GetResponseDescriptorStatus, checkOverLimitThreshold,
// checkNearLimitThreshold and increaseShadowModeStats split them).
type refMetrics struct {
	totalHits, overLimit, nearLimit, withinLimit, shadowMode, overLocal *prometheus.CounterVec
}

// refNearRatio is the reference's NEAR_LIMIT_RATIO default, in float32 as it
// computes the near-limit threshold.
const refNearRatio float32 = 0.8

// newRefMetrics registers the reference's series on reg.
func newRefMetrics(reg prometheus.Registerer) *refMetrics {
	vec := func(stat, help string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_service_rate_limit_" + stat,
			Help: help + " (hits, as envoyproxy/ratelimit's " + stat + ")."}, []string{"domain", "key1", "key2"})
		reg.MustRegister(c)
		return c
	}
	return &refMetrics{
		totalHits:   vec("total_hits", "Hits counted against a rule"),
		overLimit:   vec("over_limit", "Hits past the rule's limit"),
		nearLimit:   vec("near_limit", "Admitted hits past 80 % of the limit"),
		withinLimit: vec("within_limit", "Hits admitted within the limit"),
		shadowMode:  vec("shadow_mode", "Hits over a shadow_mode rule's limit, answered OK"),
		overLocal:   vec("over_limit_with_local_cache", "Hits refused by the deny cache without the store"),
	}
}

// count adds one descriptor's hits, as the reference splits them:
//
//   - total_hits: every hit of a descriptor with a limit (not unlimited, not
//     unmatched), whatever the answer, also when the store fails and the
//     domain fails open. When it fails closed, the request is an error and
//     nothing is counted (the reference counts its hits before the store
//     call, then fails the request too).
//   - admitted: within_limit gets all hits; near_limit the part past
//     floor(limit*0.8): all of them if the count before was already past it.
//   - refused: over_limit gets all hits (and over_limit_with_local_cache
//     when the deny cache answered); shadow_mode the same on a shadow rule.
//     A quota_mode rule's refusal, answered OK, is counted here all the
//     same: the reference rewrites only the answer.
//
// The labels are the rule's (its Path), not the request's values: a
// wildcard rule, share_threshold or not, has one series named by its
// pattern (key1 "file_f/*"), as the reference names the stats it makes at
// load.
//
// A refusal counts all its hits over the limit. The reference counts only
// the part past the limit of a request that crosses it, and the part below
// as near_limit; the store does not say what the count was before, so a
// crossing request with hits_addend > 1 is the one case where the two
// differ (with hits_addend 1 a crossing request starts at the limit, and
// the reference counts its hit over too). The other algorithms than the
// fixed window count "used" as limit - remaining.
func (m *refMetrics) count(rule *rules.Rule, v verdict, hits int) {
	if hits <= 0 {
		return // a check adds 0 to every series
	}
	l := refLabels(rule.Path)
	n := float64(hits)
	m.totalHits.With(l).Add(n)
	switch {
	case v.by == byFailOpen || v.by == byStoreFull:
		return // the store did not decide: the reference fails the request
	case v.over:
		m.overLimit.With(l).Add(n)
		if v.by == byDenyCache {
			m.overLocal.With(l).Add(n)
		}
		if rule.Shadow {
			m.shadowMode.With(l).Add(n)
		}
	default:
		m.withinLimit.With(l).Add(n)
		limit := int(rule.RequestsPerUnit)
		near := int(math.Floor(float64(float32(limit) * refNearRatio)))
		after := limit - v.dec.Remaining
		if after > near {
			m.nearLimit.With(l).Add(float64(min(hits, after-near)))
		}
	}
}

// refIPv4 is what the reference's SanitizeStatName finds to write an
// address's dots as underscores (src/utils/utilities.go).
var refIPv4 = regexp.MustCompile(`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}`)

// refLabels are the default mapper's labels for a rule's stat key
// ("domain.key_value.key…", the rule's Path, sanitized as the reference
// does): the first three dot-separated parts, key2 empty for a one-level
// rule (an empty label is the same as none in PromQL).
func refLabels(path string) prometheus.Labels {
	s := strings.NewReplacer(":", "_", "|", "_").Replace(path)
	s = refIPv4.ReplaceAllStringFunc(s, func(ip string) string { return strings.ReplaceAll(ip, ".", "_") })
	parts := strings.SplitN(s, ".", 4)
	l := prometheus.Labels{"domain": parts[0], "key1": "", "key2": ""}
	if len(parts) > 1 {
		l["key1"] = parts[1]
	}
	if len(parts) > 2 {
		l["key2"] = parts[2]
	}
	return l
}
