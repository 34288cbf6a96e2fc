package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

// With no transcript, --last and --list say where they looked and exit 1;
// after two interviews --list shows both oldest first and --last prints the
// second whole.
func TestMockLastAndList(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := filepath.Join(data, "ratelimit-course", "transcripts")
	for _, flag := range []string{"--last", "--list"} {
		out, errOut, code := runCmd(t, "mock", flag)
		if code != 1 || out != "" || !strings.Contains(errOut, "no transcript yet in "+dir) {
			t.Errorf("%s on nothing: exit %d, %q %q", flag, code, out, errOut)
		}
	}
	for i, name := range []string{"login", "per-user-api"} {
		tr := transcript.Transcript{Prompt: name, Title: name, Form: "45-minute",
			At:     time.Date(2026, 12, 4, 6, 30+i, 0, 0, time.UTC),
			Phases: []transcript.Phase{{Title: "Requirements", Notes: "notes of " + name}}}
		if _, err := transcript.Save(tr); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := runCmd(t, "mock", "--list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 ||
		lines[0] != "2026-12-04 06:30:00 UTC  login         "+filepath.Join(dir, "20261204T063000Z-login.md") ||
		!strings.HasPrefix(lines[1], "2026-12-04 06:31:00 UTC  per-user-api") {
		t.Fatalf("--list: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, "mock", "--last")
	want, _ := os.ReadFile(filepath.Join(dir, "20261204T063100Z-per-user-api.md"))
	if code != 0 || out != string(want) || !strings.Contains(out, "> notes of per-user-api") {
		t.Fatalf("--last: exit %d\n%s", code, out)
	}
}

// Neither flag, or both, is bad input: exit 2, one line on stderr.
func TestMockNeedsOneFlag(t *testing.T) {
	for _, args := range [][]string{nil, {"--last", "--list"}, {"--lats"}} {
		out, errOut, code := runCmd(t, "mock", args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "mock: ") {
			t.Errorf("mock %v: exit %d, %q %q", args, code, out, errOut)
		}
	}
}

// --reset-progress keeps the transcripts, and says where they are.
func TestResetProgressKeepsTranscripts(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	path, err := transcript.Save(transcript.Transcript{Prompt: "login", At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if code := run([]string{"--reset-progress"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the transcript went: %v", err)
	}
	if !strings.Contains(out.String(), "your mock transcripts are kept ("+filepath.Join(data, "ratelimit-course", "transcripts")+")") {
		t.Errorf("the reset does not say the transcripts are kept: %q", out.String())
	}
}
