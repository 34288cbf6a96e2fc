package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

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
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("mock %v: exit %d, %q %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
