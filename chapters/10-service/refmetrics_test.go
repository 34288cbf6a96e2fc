package service

import (
	"cmp"
	"context"
	"reflect"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

const refRules = `
domain: ref
descriptors:
  - key: k
    rate_limit: {unit: hour, requests_per_unit: 10}
  - key: s
    shadow_mode: true
    rate_limit: {unit: hour, requests_per_unit: 3}
  - key: c
    rate_limit: {unit: hour, requests_per_unit: 10}
  - key: u
    rate_limit: {unlimited: true}
  - key: q
    quota_mode: true
    rate_limit: {unit: hour, requests_per_unit: 2}
  - key: f
    value: f/*
    share_threshold: true
    rate_limit: {unit: hour, requests_per_unit: 5}
`

// TestRefMetrics follows the reference's split of hits
// (src/limiter/base_limiter.go at 3fb702589d36): GenerateCacheKeys adds
// hitsAddends[i] to total_hits for every descriptor with a limit;
// GetResponseDescriptorStatus adds hits to within_limit when after <= limit
// and calls checkNearLimitThreshold (near_limit += hits if before >= near,
// else after - near, near = floor(limit*0.8)); over the limit
// checkOverLimitThreshold adds hits to over_limit when before >= limit;
// the local cache adds hits to over_limit and over_limit_with_local_cache;
// increaseShadowModeStats adds the same to shadow_mode. A quota_mode rule's
// refusal is counted there as any other (shouldRateLimitWorker rewrites
// only the answer, to OK). A share_threshold rule's stats are the rule's
// own, named by its wildcard (config_impl.go: NewStats(newParentKey) at
// load; GetLimit keeps them, the value_to_metric key being the pattern
// too), so every value it takes adds to one series, key1 "f_f/*". Each
// step's values below are the reference's, worked out from those lines.
func TestRefMetrics(t *testing.T) {
	now := time.Unix(1_800_000_000, 0) // 08:00 UTC: far from the hour's end
	s, err := Start(context.Background(), onClock(t, Options{Config: writeRules(t, refRules)}, func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	steps := []struct {
		key  string
		hits uint64
		val  string // "v" when empty
	}{
		{"k", 5, ""}, // after 5: within 5
		{"k", 4, ""}, // after 9 > near 8, before 5: near 1, within 4
		{"k", 1, ""}, // after 10, before 9 >= 8: near 1, within 1
		{"k", 1, ""}, // after 11 > 10, before 10 >= 10: over 1
		{"k", 3, ""}, // the deny cache (the reference's local cache): over 3, with local cache 3
		{"k", 0, ""}, // a check: 0 everywhere
		{"s", 2, ""}, // after 2, not past near 2: within 2
		{"s", 1, ""}, // after 3, before 2 >= 2: near 1, within 1
		{"s", 1, ""}, // over, shadow: over 1, shadow 1, answered OK
		{"s", 2, ""}, // deny cache: over 2, local 2, shadow 2
		{"c", 8, ""}, // after 8, not past near 8: within 8
		// The one case that differs: the reference counts a crossing
		// request's 2 hits past 10 as over_limit and 2 as near_limit;
		// the store does not say the count before, so all 4 are over here.
		{"c", 4, ""},
		{"u", 7, ""}, // unlimited: no series (the reference's limit is nil)
		{"x", 7, ""}, // no rule: no series
		{"q", 2, ""}, // after 2 > near 1, before 0: near 1, within 2
		{"q", 1, ""}, // after 3, before 2 >= 2: over 1 (answered OK)
		{"q", 1, ""}, // the deny cache: over 1, local 1 (answered OK)
		{"q", 0, ""},
		// share_threshold: f/a, f/b, f/* and f/c count on one counter.
		{"f", 2, "f/a"}, // after 2: within 2
		{"f", 2, "f/b"}, // after 4, not past near 4: within 2
		{"f", 1, "f/*"}, // after 5, before 4 >= 4: near 1, within 1
		{"f", 1, "f/c"}, // after 6, before 5 >= 5: over 1
	}
	for _, st := range steps {
		val := cmp.Or(st.val, "v")
		d := &rlcommon.RateLimitDescriptor{Entries: []*rlcommon.RateLimitDescriptor_Entry{{Key: st.key, Value: val}}}
		d = withHits(d, st.hits)
		if _, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "ref", Descriptors: []*rlcommon.RateLimitDescriptor{d}}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][6]float64{ // total, within, near, over, local, shadow
		"k":     {14, 10, 2, 4, 3, 0},
		"s":     {6, 3, 1, 3, 2, 3},
		"c":     {12, 8, 0, 4, 0, 0},
		"q":     {4, 2, 1, 2, 1, 0},
		"f_f/*": {6, 5, 1, 1, 0, 0},
	}
	m := s.m.ref
	// One total_hits series a rule with a limit that was hit: none for the
	// unlimited rule or the unmatched key, one for all of f's values.
	if n := testutil.CollectAndCount(m.totalHits); n != len(want) {
		t.Errorf("%d total_hits series, want %d", n, len(want))
	}
	want["u"], want["x"], want["f_f/a"] = [6]float64{}, [6]float64{}, [6]float64{}
	for key, w := range want {
		l := prometheus.Labels{"domain": "ref", "key1": key, "key2": ""}
		var got [6]float64
		for i, v := range []*prometheus.CounterVec{m.totalHits, m.withinLimit, m.nearLimit, m.overLimit, m.overLocal, m.shadowMode} {
			got[i] = testutil.ToFloat64(v.With(l))
		}
		if got != w {
			t.Errorf("%s: total, within, near, over, local, shadow = %v, want %v", key, got, w)
		}
	}
}

// TestRefLabels checks the stat key's labels as the reference's default
// mapper makes them, after its SanitizeStatName (':' and '|' to '_', an
// IPv4 address's dots to '_').
func TestRefLabels(t *testing.T) {
	cases := []struct{ path, domain, key1, key2 string }{
		{"ref.k", "ref", "k", ""},
		{"ref.remote_address_10.0.0.1.path", "ref", "remote_address_10_0_0_1", "path"},
		{"api.path_/a:b|c.user.plan", "api", "path_/a_b_c", "user"},
	}
	for _, c := range cases {
		want := prometheus.Labels{"domain": c.domain, "key1": c.key1, "key2": c.key2}
		if got := refLabels(c.path); !reflect.DeepEqual(got, want) {
			t.Errorf("refLabels(%q) = %v, want %v", c.path, got, want)
		}
	}
}
