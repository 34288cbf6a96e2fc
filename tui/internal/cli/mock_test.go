package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// notesFixture is the grade package's answer in sentences, per phase.
var notesFixture = []string{
	"The user is the account behind the API key, after the gateway verifies it.\nI'd ask whether 100 a minute is a hard cap or a rate with a burst.",
	"A fixed window lets 200 through across the boundary, twice the limit.",
	"One shared counter per user lives in Redis, and one Lua script reads, decides, writes and sets the TTL.",
	"Over the limit, clients get 429 with Retry-After rounded up and quota headers.",
}

// A transcript the app writes is graded in its own prompt and form; a
// plain file with --prompt and --short; --json says the same as JSON.
func TestMockGrade(t *testing.T) {
	dir := t.TempDir()
	tr := transcript.Transcript{Prompt: "per-user-api", Title: "Per-user limits", Form: "15-minute", At: time.Now()}
	var plain strings.Builder
	for i, n := range notesFixture {
		// Feedback an earlier grading wrote is not notes: it would show more.
		tr.Phases = append(tr.Phases, transcript.Phase{Title: "phase", Notes: n,
			Feedback: "- shown: the time from Redis; reads fail open through a local bucket; shadow mode per rule",
			Missed:   []transcript.Point{{Text: "Size it: servers, active keys, peak QPS", Chapter: "07"}}})
		plain.WriteString("## Phase " + string(rune('1'+i)) + "\n\n" + n + "\n\n")
	}
	saved := filepath.Join(dir, "transcript.md")
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(saved, []byte(tr.Markdown()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notes, []byte(plain.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--grade", saved}, {"--grade", notes, "--prompt", "per-user-api", "--short"}} {
		out, errOut, code := runCmd(t, "mock", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		for _, want := range []string{
			"the 15-minute form",
			"Phase 3: Share the state atomically across machines: your notes show 1 of 4",
			`by: "lua", "reads"`,
			"missed Size it: servers, active keys, peak QPS (ch 07)",
			"In all: your notes show 5 of 14 points (score 36 %), no red flag.",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s", args, want, out)
			}
		}
	}
	out, _, code := runCmd(t, "mock", "--grade", saved, "--json")
	var r struct {
		Prompt string
		Form   string
		Score  float64
		Phases []struct{ Shown []struct{ Words []string } }
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if r.Prompt != "per-user-api" || r.Form != "15-minute" || len(r.Phases) != 4 || int(r.Score*100+0.5) != 36 ||
		len(r.Phases[1].Shown) != 1 || r.Phases[1].Shown[0].Words[0] != "fixed window" {
		t.Errorf("--json: %+v", r)
	}
}

// Bad input is exit 2 and one line naming the flag.
func TestMockGradeBadInput(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.md")
	five := filepath.Join(dir, "five.md")
	none := filepath.Join(dir, "none.md")
	for f, text := range map[string]string{plain: "## Phase 1\nkey by account\n", none: "# notes\nRedis\n",
		five: "## Phase 1\na\n## Phase 2\nb\n## Phase 3\nc\n## Phase 4\nd\n## Phase 5\ne\n"} {
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--grade", filepath.Join(dir, "missing.md"), "--prompt", "login"}, "--grade " + filepath.Join(dir, "missing.md") + ": cannot read it"},
		{[]string{"--grade", plain, "--prompt", "lgin"}, `invalid --prompt "lgin": accepted one of per-user-api, login`},
		{[]string{"--grade", none, "--prompt", "login"}, `no "## Phase N" section`},
		{[]string{"--grade", plain}, "is not a transcript: give --prompt"},
		{[]string{"--grade", five, "--prompt", "login", "--short"}, "5 phases of notes, but the 15-minute form has 4 (the 45-minute form has 5: drop --short?)"},
		{[]string{"--json"}, "--json goes with --grade FILE"},
		{[]string{"--grade", plain, "--last"}, "--grade reads a file: give it without --last or --list"},
		{[]string{"--grade", ""}, "--grade needs a file name"},
	} {
		out, errOut, code := runCmd(t, "mock", tc.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) ||
			!slices.ContainsFunc(strings.Fields(errOut), func(w string) bool { return strings.HasPrefix(w, "--") }) {
			t.Errorf("mock %v: exit %d, %q %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
