// Package testenv sorts the course's tests into two tiers. The short tier,
// `go test -short ./...` (make test-short), runs in memory: no Redis, no
// tmux, no Docker, no network, no `go build` or `go install` inside a test.
// The full tier, `go test ./...` (make test), runs everything, and the
// tests that start processes find what they need or skip with a hint.
//
// Every helper that starts a process (internal/redistest, the cluster
// tests of internal/redisproc, the tmux helper of tui, the envoyproxy/
// ratelimit peer of chapter 10) calls NeedsProcesses first, so a test that
// uses them needs no -short check of its own.
//
// -short wins over REQUIRE_REDIS=1: the short tier has no Redis by
// definition, so its Redis tests are skipped even where CI asks Redis
// tests to fail rather than skip; without -short REQUIRE_REDIS=1 still
// turns a missing Redis into a failure.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// ShortReason is the one line a process-starting test is skipped with
// under -short.
const ShortReason = "starts processes (Redis, tmux, a go build): skipped under -short; run make test"

// NeedsProcesses skips t under -short: the test starts processes (a
// redis-server, a cluster, tmux, a container, a build of a binary).
func NeedsProcesses(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip(ShortReason)
	}
}

// WriteFile writes text into a file of that name in a fresh temporary
// directory and returns its path.
func WriteFile(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
