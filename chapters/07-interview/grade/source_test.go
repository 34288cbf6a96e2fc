package grade

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestParse reads a transcript the app saved and plain files with
// "## Phase N" sections.
func TestParse(t *testing.T) {
	b, err := os.ReadFile("testdata/transcript.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text     string
		prompt, form   string
		notes          []string
		wantErr        error
		wantErrContain string
	}{
		{name: "transcript", text: string(b), prompt: "per-user-api", form: ShortForm,
			notes: []string{"Count the account behind the verified API key.\nUploads cost 5 tokens, reads 1.", "", "Redis, shared."}},
		{name: "plain", text: "intro\n## Phase 1\nkey by account\n\n## Phase 2 algorithm\ntoken bucket\n",
			notes: []string{"key by account", "token bucket"}},
		{name: "gap", text: "## Phase 2\nonly two\n", notes: []string{"", "only two"}},
		{name: "none", text: "# My notes\nI would use Redis.\n", wantErr: ErrNoPhases},
		{name: "zero", text: "## Phase 0\nx\n", wantErrContain: "count from 1"},
		{name: "twice", text: "## Phase 1\nx\n## Phase 1\ny\n", wantErrContain: "phase 1 twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Parse(tc.text)
			switch {
			case tc.wantErr != nil || tc.wantErrContain != "":
				if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) || !strings.Contains(err.Error(), tc.wantErrContain) {
					t.Fatalf("error %v, want %v %q", err, tc.wantErr, tc.wantErrContain)
				}
			case err != nil:
				t.Fatal(err)
			case src.Prompt != tc.prompt || src.Form != tc.form || !slices.Equal(src.Notes, tc.notes):
				t.Errorf("got %q %q %q, want %q %q %q", src.Prompt, src.Form, src.Notes, tc.prompt, tc.form, tc.notes)
			}
		})
	}
}

// TestLongForm grades the 45-minute track: five phases titled as the
// track, the worked answer's own sections as notes.
func TestLongForm(t *testing.T) {
	for _, prompt := range []string{"per-user-api", "login", "llm-gateway", "partner-api"} {
		var notes []string
		for _, title := range trackTitles() {
			notes = append(notes, sectionOf(t, prompt, title))
		}
		r, err := Notes(prompt, false, notes)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Phases) != 5 || r.Form != LongForm || r.Phases[4].Title != trackTitles()[4] {
			t.Fatalf("%s: %d phases, form %q", prompt, len(r.Phases), r.Form)
		}
		if r.Score < 0.7 {
			t.Errorf("%s on the track: score %d %%, want at least 70 %%\n%s", prompt, percent(r.Score), strings.Join(r.Lines(), "\n"))
		}
		t.Logf("%s, 45-minute track: %d of %d points, score %d %%", prompt, r.Shown(), r.Points(), percent(r.Score))
	}
	if _, err := Notes("no-such", true, nil); err == nil || !strings.Contains(err.Error(), "no-such") {
		t.Errorf("unknown prompt: error %v", err)
	}
}
