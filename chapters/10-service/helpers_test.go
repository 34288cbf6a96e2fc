package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/redistest"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
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

// windowUnit is the shortest unit, hour to year, whose current window (the
// reference's, aligned to the Unix epoch) outlasts the test binary's
// -timeout from now: a test counting against it on Redis, whose clock is
// real, never sees its window reset however slowly it runs, and never waits
// for one to. Without a -timeout a day is enough. Only if every window ended
// within that (week, month and year end together every 42 years) would it
// take the one with the most time left, and say so.
func windowUnit(t *testing.T, now time.Time) string {
	t.Helper()
	need := 24 * time.Hour
	if d, ok := t.Deadline(); ok {
		need = min(need, d.Sub(now))
	}
	best, bestLeft := "", time.Duration(0)
	for _, name := range []string{"hour", "day", "week", "month", "year"} {
		u, _ := rules.ParseUnit(name)
		w := u.Window()
		left := w - time.Duration(now.UnixNano()%int64(w))
		if left > need {
			return name
		}
		if left > bestLeft {
			best, bestLeft = name, left
		}
	}
	t.Logf("every window ends within %v: counting per %s, which has %v left", need, best, bestLeft)
	return best
}

// await is what ch sends within d; past d the test fails, saying what did
// not happen.
func await[T any](t testing.TB, ch <-chan T, d time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		t.Fatal(what)
	}
	panic("unreachable: t.Fatal ends the test")
}

// onClock is o counting in memory on now, holding o.MaxKeys keys and
// logging to o.Log as the store the service opens would: the
// service's clock is its store's.
func onClock(t testing.TB, o Options, now func() time.Time) Options {
	t.Helper()
	mem, err := store.NewMemory(store.MemoryOptions{Now: now, MaxKeys: o.MaxKeys, Log: o.Log})
	if err != nil {
		t.Fatal(err)
	}
	o.Store = mem
	return o
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

// transportValue is a listener's series for one transport (grpc, http,
// admin), a gauge or a counter, read from the registry: over /metrics the
// read would open a connection of its own.
func transportValue(t testing.TB, s *Service, name, transport string) float64 {
	t.Helper()
	families, err := s.m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if f.GetName() == name && len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == transport {
				return m.GetGauge().GetValue() + m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no series %s{transport=%q}", name, transport)
	return 0
}

// pipelineStats reads the Batcher's pipelines, the script calls they
// carried and the calls sent alone, from the service's metrics.
func pipelineStats(t testing.TB, s *Service) (pipelines, batched, direct int64) {
	return storeMetric(t, s, "ratelimit_redis_pipelines_total"), storeMetric(t, s, "ratelimit_redis_pipelined_calls_total"),
		storeMetric(t, s, "ratelimit_redis_direct_calls_total")
}
