package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// TestMakeTUIShowsProgress: make tui on a cold cache builds for minutes;
// it prints a line every few seconds until the app starts, not a blank
// screen. A stand-in go takes 12 s to build and a stand-in app says it
// started.
func TestMakeTUIShowsProgress(t *testing.T) {
	testenv.NeedsProcesses(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	fakeGo := filepath.Join(dir, "go")
	script := `#!/bin/sh
# build -v -o BIN ./tui: name a package now and then, then write BIN
while [ "$1" != "-o" ]; do shift; done
sleep 6; echo example.com/a >&2; sleep 6
printf '#!/bin/sh\necho the app started\n' > "$2"; chmod +x "$2"
`
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "tui", "GO="+fakeGo, "TUI_BIN="+filepath.Join(dir, "tui"))
	cmd.Dir = ".."
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make tui: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var progress []string
	for _, l := range lines {
		if strings.HasPrefix(l, "tui: still building") {
			progress = append(progress, l)
		}
	}
	if len(progress) < 2 || lines[len(lines)-1] != "the app started" {
		t.Fatalf("a 12 s build printed %d progress lines in %v, want 2 or more, then the app:\n%s", len(progress), time.Since(start), out)
	}
	if !strings.Contains(progress[len(progress)-1], "packages compiled: 1") {
		t.Errorf("the last progress line does not count the package built: %q", progress[len(progress)-1])
	}
}
