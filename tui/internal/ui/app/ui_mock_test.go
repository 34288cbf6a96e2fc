package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/cli"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// The mock from the menu, by what the learner sees (its own tests are in
// package mock): one esc asks, a key answers it and does nothing else,
// esc esc ends the interview into its summary, and esc from the summary
// goes back to the menu.
func TestMockEscAsksThenEndsThenGoesBack(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "esc")
	appWant(t, flatText(m.View()), "end the interview here? esc again ends it", "Phase 1 of 5")
	m = appPress(m, "2")
	appWant(t, m.View(), "Phase 1 of 5", "[ ] 2 ")
	m = appPress(m, "esc", "esc")
	if m.scr() != scrMock {
		t.Fatalf("esc esc left the mock for %s", m.scr())
	}
	appWant(t, m.View(), "Summary (45-minute)", "stopped early")
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatal("esc from the summary goes back")
	}
}

// Every phase of every prompt fits 80×24 in the short form: the clock, the
// last question and the last point stay on screen.
func TestMockEveryPhaseFitsTheScreen(t *testing.T) {
	for i, p := range interview.Mock() {
		m := appPress(appNew(t, 80, 24), "M", "f")
		for range i {
			m = appPress(m, "down")
		}
		m = appPress(m, "enter")
		for j, ph := range p.Phases {
			f := m.View()
			appCheckFrame(t, f, 80, 24)
			flat := flatText(f)
			appWant(t, f, fmt.Sprintf("Phase %d of 4", j+1), "left")
			last := ph.Checklist[len(ph.Checklist)-1]
			words := strings.Fields(last.Text)
			if end := strings.Join(words[len(words)-2:], " "); !strings.Contains(flat, end) {
				t.Errorf("%s phase %d: the last point's end %q is off the screen:\n%s", p.Name, j+1, end, f)
			}
			q := strings.Fields(ph.Questions[len(ph.Questions)-1])
			if end := strings.Join(q[len(q)-2:], " "); !strings.Contains(flat, end) {
				t.Errorf("%s phase %d: the last question's end %q is off the screen", p.Name, j+1, end)
			}
			m = appPress(m, "n", "enter") // the phase, then its review
		}
		appCheckFrame(t, m.View(), 80, 24)
		appWant(t, m.View(), "Review chapters")
	}
}

// The drill scores cards; missed ones come first after a restart.
func TestDrillScoresSurviveARestart(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	first, second := interview.Drill()[0], interview.Drill()[1]
	m = appPress(m, "m")
	appWant(t, m.View(), "show what to say first")
	m = appPress(m, "space", "y") // card 1: got it
	appWant(t, m.View(), "card 1: got it")
	m = appPress(m, "space", "m") // card 2: missed
	appWant(t, m.View(), "card 2: missed")

	store, note := progress.Load()
	if note != "" || store.P.Cards[second.ID].Last != "missed" || store.P.Cards[first.ID].Last != "got" {
		t.Fatalf("scores not saved: %q %+v", note, store.P.Cards)
	}
	m = appPress(appRestart(t, store, note, 80, 24), "D")
	f := m.View()
	appWant(t, f, "1 card you missed last time comes first", flatText(second.Q)[:40], "got 0, missed 1, last missed")
	if q, _ := m.cards().Card(); q.Topic != second.Topic {
		t.Fatalf("the first card is %q, want the missed %q", q.Topic, second.Topic)
	}
	// The card got last time goes to the end.
	m = m.withTop(m.cards().At(len(m.cards().Order())-1, false))
	if q, _ := m.cards().Card(); q.Topic != first.Topic {
		t.Fatalf("the last card is %q, want the one got (%q)", q.Topic, first.Topic)
	}
	// The menu resets it (ctrl+r), as does tui --reset-progress.
	// ctrl+r asks first; any other key keeps the scores.
	m = appPress(m, "esc", "ctrl+r")
	appWant(t, flatText(m.View()), "forget every drill score, mock interview and plan step done? ctrl+r again forgets them")
	if m = appPress(m, "down"); len(m.store.P.Cards) == 0 {
		t.Fatal("ctrl+r then another key forgets the scores")
	}
	if st, _ := progress.Load(); len(st.P.Cards) == 0 {
		t.Fatal("ctrl+r then another key deletes the saved file")
	}
	appWant(t, m.View(), "the saved progress is kept")
	m = appPress(m, "ctrl+r", "ctrl+r")
	appWant(t, flatText(m.View()), "saved progress reset", "mock transcripts are kept")
	appCheckFrame(t, m.View(), 80, 24)
	if st, _ := progress.Load(); len(st.P.Cards) != 0 {
		t.Fatal("ctrl+r on the menu deletes the saved scores")
	}
}

// A corrupt or unreadable progress file starts fresh with a note; a
// missing one starts fresh silently; the reset flag removes it.
func TestProgressFileCorruptMissingReset(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if st, note := progress.Load(); note != "" || len(st.P.Cards) != 0 {
		t.Fatalf("missing file: note %q", note)
	}
	path, _ := progress.Path()
	for _, bad := range []string{"{not json", `{"version": 99, "cards": {}}`, ""} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(bad), 0o644)
		st, note := progress.Load()
		if !strings.Contains(note, "starting fresh") || len(st.P.Cards) != 0 {
			t.Errorf("file %q: note %q", bad, note)
		}
		m := appRestart(t, st, note, 80, 24)
		appWant(t, m.View(), "starting fresh")
		// Scoring then overwrites the bad file with a good one.
		st.Score("01/placement", false)
		if err := st.Save(); err != nil {
			t.Fatal(err)
		}
		if again, note := progress.Load(); note != "" || again.P.Cards["01/placement"].Last != "missed" {
			t.Errorf("after saving over %q: note %q", bad, note)
		}
	}
	os.Remove(path)
	os.MkdirAll(path, 0o755) // a directory where the file should be
	if _, note := progress.Load(); !strings.Contains(note, "starting fresh") {
		t.Errorf("unreadable file: note %q", note)
	}
	os.Remove(path)
	os.WriteFile(path, []byte(`{"version":1,"cards":{"a/b":{"got":1,"last":"got"}}}`), 0o644)
	var out, errOut strings.Builder
	if code := cli.Run([]string{"--reset-progress"}, &out, &errOut, nil); code != 0 || !strings.Contains(out.String(), "reset") {
		t.Fatalf("--reset-progress: exit %d, %q %q", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("--reset-progress leaves the file")
	}
}
