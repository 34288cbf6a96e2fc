package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// Helpers of tests in memory and on Redis alike; the files that need Redis
// carry //go:build !exercise10, since the exercise runs in memory.

// uniqueDomain is a domain no other test, run or binary uses: the shared
// Redis is never flushed and the rules count per day.
func uniqueDomain(t testing.TB) string {
	return strings.NewReplacer("/", "-", "{", "", "}", "").Replace(redistest.ID(t)) + fmt.Sprint(time.Now().UnixNano())
}

// rulesFor is a rules text with its domain replaced.
func rulesFor(text, from, domain string) string {
	return strings.Replace(text, "domain: "+from, "domain: "+domain, 1)
}

func writeFile(t testing.TB, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// awayFromHourEnd waits out the last minute of an hour, so that a test
// counting against an hourly limit does not see its window reset.
func awayFromHourEnd(t *testing.T) {
	t.Helper()
	if left := time.Until(time.Now().Truncate(time.Hour).Add(time.Hour)); left < time.Minute {
		t.Logf("waiting %v for the next hour", left)
		time.Sleep(left + time.Second)
	}
}

// storeMetric reads a counter without labels from the service's own metrics
// (what /metrics exports): 0 when the series is not there.
func storeMetric(t testing.TB, s *Service, name string) int64 {
	t.Helper()
	families, err := s.m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return int64(f.GetMetric()[0].GetCounter().GetValue())
		}
	}
	return 0
}

// pipelineStats reads the Batcher's pipelines, the script calls they
// carried and the calls sent alone, from the service's metrics.
func pipelineStats(t testing.TB, s *Service) (pipelines, batched, direct int64) {
	return storeMetric(t, s, "ratelimit_redis_pipelines_total"), storeMetric(t, s, "ratelimit_redis_pipelined_calls_total"),
		storeMetric(t, s, "ratelimit_redis_direct_calls_total")
}
