package service

import (
	"context"
	"fmt"
	"os"
	"testing"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// A reload that changes a rule's limit keeps the counts, in memory as on
// Redis (whose key does not move; TestReloadKeepsCountsWhenTheLimitChangesRedis
// in redis_test.go): a key over its limit stays over when the limit is
// lowered, and a key part-used keeps what it used.
func TestReloadKeepsCountsWhenTheLimitChanges(t *testing.T) { runReloadKeepsCounts(t, Options{}) }

func runReloadKeepsCounts(t *testing.T, o Options) {
	domain := uniqueDomain(t)
	rules := func(limit int) string {
		return fmt.Sprintf("domain: %s\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: %d}\n", domain, limit)
	}
	path := writeRules(t, rules(5))
	o.Config, o.ReloadEvery = path, -1
	s := start(t, o)
	awayFromHourEnd(t)
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
