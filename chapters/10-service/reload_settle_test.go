package service

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// manualClock is a clock a test moves by hand.
type manualClock struct{ ns atomic.Int64 }

func newManualClock() *manualClock {
	c := &manualClock{}
	c.ns.Store(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *manualClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *manualClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// startDriven starts a service on path with no watcher of its own: the test
// polls the rules itself, on a clock it moves by hand.
func startDriven(t *testing.T, path string, log *syncBuffer) (*Service, *manualClock) {
	t.Helper()
	clock := newManualClock()
	o := Options{Config: path, ReloadEvery: -1}
	if log != nil {
		o.Log = log
	}
	return start(t, o), clock
}

// pollTicks runs n of the watcher's polls, DefaultReloadEvery apart on the
// clock, and reports after which one the rules were last (re)loaded or
// refused (0: none).
func pollTicks(t *testing.T, s *Service, clock *manualClock, n int) (tried int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		ok, _ := s.reloadIfChanged(clock.Now())
		if ok {
			tried = i
		}
		clock.Advance(DefaultReloadEvery)
	}
	return tried
}

// hasRule reports whether the rules in force hold a rule at path.
func hasRule(s *Service, path string) bool {
	for _, r := range s.Rules().Rules() {
		if r.Path == path {
			return true
		}
	}
	return false
}

// TestReloadWaitsOutAHalfWrittenFile replays issue 35's incident at a
// tenth of its size: a rules file caught with half its lines written, the
// rest 0.6 s later (there, 15,000 of 30,002 lines). The half file is valid
// YAML (it ends between two descriptors), so only waiting tells it apart:
// it was loaded, and the last rule answered OK without a limit until the
// rest arrived. The polls are driven by hand on a clock moved by hand.
func TestReloadWaitsOutAHalfWrittenFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("domain: big\ndescriptors:\n")
	for i := range 1_000 {
		fmt.Fprintf(&b, "  - key: v%d\n    rate_limit:\n      {unit: day, requests_per_unit: 5}\n", i)
	}
	full := b.String()
	lines := strings.SplitAfter(full, "\n")
	if n := len(lines) - 1; n != 3_002 {
		t.Fatalf("the file has %d lines, want 3,002", n)
	}
	half := strings.Join(lines[:1_500], "")
	if _, err := rules.LoadRules(writeRules(t, half)); err != nil {
		t.Fatalf("the half file must load on its own (that is the trap): %v", err)
	}

	path := writeRules(t, "domain: big\ndescriptors:\n  - key: v0\n    rate_limit: {unit: day, requests_per_unit: 5}\n")
	s, clock := startDriven(t, path, nil)
	if err := os.WriteFile(path, []byte(half), 0o644); err != nil {
		t.Fatal(err)
	}
	if tried := pollTicks(t, s, clock, 6); tried != 0 { // 0.6 s of polls on the half file
		t.Fatalf("poll %d loaded the half-written file: %d rules in force, v498 %v", tried,
			len(s.Rules().Rules()), hasRule(s, "big.v498"))
	}
	if hasRule(s, "big.v498") || !hasRule(s, "big.v0") {
		t.Fatal("the half file is in force; the old rules should be")
	}
	if err := os.WriteFile(path, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	tried := pollTicks(t, s, clock, 20)
	if want := int(settle/DefaultReloadEvery) + 1; tried != want {
		t.Errorf("the whole file loaded at poll %d, want %d (once it held still for %v)", tried, want, settle)
	}
	if !hasRule(s, "big.v999") {
		t.Errorf("v999 is not in force after the whole file held still")
	}
}
