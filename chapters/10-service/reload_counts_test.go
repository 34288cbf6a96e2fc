package service

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// A reload that changes a rule's limit keeps the counts, in memory as on
// Redis (whose key does not move; TestReloadKeepsCountsWhenTheLimitChangesRedis
// in redis_test.go): a key over its limit stays over when the limit is
// lowered, and a key part-used keeps what it used.
// In memory the service runs on a clock that stands still in the middle of
// an hour, so no window ends during the test.
func TestReloadKeepsCountsWhenTheLimitChanges(t *testing.T) {
	still := time.Date(2026, 3, 1, 12, 30, 0, 0, time.UTC)
	runReloadKeepsCounts(t, onClock(t, Options{}, func() time.Time { return still }), "hour")
}

// runReloadKeepsCounts runs the test on o's store, counting per unit.
func runReloadKeepsCounts(t *testing.T, o Options, unit string) {
	domain := uniqueDomain(t)
	rules := func(limit int) string {
		return fmt.Sprintf("domain: %s\ndescriptors:\n  - key: k\n    rate_limit: {unit: %s, requests_per_unit: %d}\n", domain, unit, limit)
	}
	path := writeRules(t, rules(5))
	o.Config, o.ReloadEvery = path, -1
	s := start(t, o)
	askKey := func(v string) string {
		resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: domain,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", v)}})
		if err != nil {
			t.Fatal(err)
		}
		return summary(resp)
	}
	for range 6 {
		askKey("over") // 5 admitted, 1 refused
	}
	for range 3 {
		askKey("part")
	}
	if err := os.WriteFile(path, []byte(rules(4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]string{
		"over":  "OVER_LIMIT OVER_LIMIT:0", // before: OK with 3 left, in memory
		"part":  "OK OK:0",
		"fresh": "OK OK:3",
	} {
		if got := askKey(v); got != want {
			t.Errorf("key %s after the limit went from 5 to 4: %s, want %s", v, got, want)
		}
	}
}
