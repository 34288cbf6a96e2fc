package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/timer"
	tea "github.com/charmbracelet/bubbletea"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/cli"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
)

// runClock delivers the running clock's ticks, one after another, until
// it has run for d or the phase changed.
func runClock(t *testing.T, m Model, d time.Duration) Model {
	t.Helper()
	phase := m.mock().Phase()
	for end := m.mock().Clock().Timeout - d; m.mock().State() == mock.OnClock && m.mock().Phase() == phase && m.mock().Clock().Timeout > end; {
		// Update alone: the next tick is this loop's, not the runtime's.
		nm, _ := m.Update(timer.TickMsg{ID: m.mock().Clock().ID()})
		m = nm.(Model)
		if m.mock().Clock().Timeout <= 0 && m.mock().Phase() == phase {
			nm, _ = m.Update(timer.TimeoutMsg{ID: m.mock().Clock().ID()})
			m = nm.(Model)
		}
	}
	return m
}

// The mock interview end to end, in its 15-minute short form (f): a
// prompt, a clock per phase that moves on by itself, the interviewer's
// questions and a checklist, a summary.
func TestMockInterviewRunsOnTheClock(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "f")
	f := m.View()
	for _, p := range interview.Mock {
		appWant(t, f, p.Title)
	}
	m = appPress(m, "down", "enter") // the login question
	p := interview.Mock[1]
	if m.mock().State() != mock.OnClock || m.mock().Prompt() != 1 {
		t.Fatalf("enter starts the interview on the chosen prompt: state %d prompt %d", m.mock().State(), m.mock().Prompt())
	}
	f = m.View()
	appWant(t, f, "Phase 1 of 4", interview.Skeleton[0].Title, "3:00 left", p.Phases[0].Questions[0][:30])
	for _, pt := range p.Phases[0].Checklist {
		appWant(t, f, pt.Text[:20])
	}

	// The clock counts down and pauses.
	m = runClock(t, m, 10*time.Second)
	appWant(t, m.View(), "2:50 left")
	m = appPress(m, "p")
	if m.mock().Clock().Running() {
		t.Fatal("p pauses the clock")
	}
	appWant(t, m.View(), "paused")
	m = appPress(m, "p")

	// Tick points 1 and 3, untick 3, tick 2 with space after moving up.
	m = appPress(m, "1", "3", "3", "up", "space")
	if got := m.mock().Ticked()[0]; !got[0] || !got[1] || got[2] {
		t.Fatalf("ticked %v, want points 1 and 2", got)
	}
	appWant(t, m.View(), "[✓] 1", "[✓] 2", "[ ] 3")

	// The phase ends by itself when its clock runs out.
	m = runClock(t, m, 4*time.Minute)
	if m.mock().Phase() != 1 {
		t.Fatalf("phase %d after the first clock ran out", m.mock().Phase()+1)
	}
	appWant(t, m.View(), "Phase 2 of 4", "5:00 left")
	// Move on early after a minute; tick everything in phase 3.
	m = runClock(t, m, time.Minute)
	m = appPress(m, "n")
	for k := range p.Phases[2].Checklist {
		m = appPress(m, fmt.Sprint(k+1))
	}
	m = appPress(m, "n", "n")
	if m.mock().State() != mock.Done {
		t.Fatalf("n after the last phase shows the summary: state %d", m.mock().State())
	}
	f = m.View()
	covered := 2 + len(p.Phases[2].Checklist)
	points := 0
	for _, ph := range p.Phases {
		points += len(ph.Checklist)
	}
	appWant(t, f, fmt.Sprintf("%d of %d points covered", covered, points))
	for _, c := range []struct{ row, used, planned, covered string }{
		{"1 " + interview.Skeleton[0].Title, "3:00", "3:00", fmt.Sprintf("2 of %d", len(p.Phases[0].Checklist))},
		{"2 " + interview.Skeleton[1].Title, "1:00", "5:00", fmt.Sprintf("0 of %d", len(p.Phases[1].Checklist))},
		{"3 " + interview.Skeleton[2].Title, "0:00", "4:00", fmt.Sprintf("%d of %d", len(p.Phases[2].Checklist), len(p.Phases[2].Checklist))},
	} {
		row := appRow(f, c.row)
		if !strings.Contains(row, c.used) || !strings.Contains(row, c.planned) || !strings.Contains(row, c.covered) {
			t.Errorf("summary row %q: want used %s, planned %s, covered %s", row, c.used, c.planned, c.covered)
		}
	}
	missed := p.Phases[1].Checklist[0]
	appWant(t, f, "Missed", "ch "+missed.Chapter+" · "+missed.Text[:20], "Review chapters")
	review := appRow(f, "Review chapters")
	for _, ch := range m.mock().Record().Review {
		if !strings.Contains(review, ch) {
			t.Errorf("review row %q lacks chapter %s", review, ch)
		}
	}
	if strings.Contains(review, p.Phases[2].Checklist[0].Chapter) && !strings.Contains(fmt.Sprint(progress.ChaptersToReview(p, func(j, k int) bool { return m.mock().Ticked()[j][k] })), p.Phases[2].Checklist[0].Chapter) {
		t.Errorf("a chapter only of covered points is not to review: %q", review)
	}

	// Saved: a restart shows how it went last time.
	store, note := progress.Load()
	if note != "" || len(store.P.Interviews) != 1 || store.P.Interviews[0].Covered != covered {
		t.Fatalf("the interview was not saved: note %q, %+v", note, store.P.Interviews)
	}
	m2 := appPress(appRestart(t, store, note, 80, 24), "M", "f")
	appWant(t, m2.View(), fmt.Sprintf("last time %d of %d points", covered, points))

	// r runs the same question again; esc ends it early into the summary.
	m = appPress(m, "r")
	if m.mock().State() != mock.OnClock || m.mock().Phase() != 0 || m.mock().Ticked()[0][0] {
		t.Fatal("r starts the same question afresh")
	}
	// One esc asks first (a stray esc must not end a timed interview);
	// any other key goes on (and does nothing else), a second esc ends it.
	m = appPress(m, "esc")
	if m.mock().State() != mock.OnClock {
		t.Fatal("one esc ends the interview without asking")
	}
	appWant(t, flatText(m.View()), "end the interview here? esc again ends it")
	if m = appPress(m, "2"); m.mock().State() != mock.OnClock || m.mock().Ticked()[0][1] {
		t.Fatal("a key other than esc does not just go on with the interview")
	}
	m = appPress(m, "esc", "esc")
	if m.mock().State() != mock.Done || m.scr() != scrMock {
		t.Fatal("esc esc while the clock runs ends the interview into its summary")
	}
	appWant(t, m.View(), "stopped early")
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatal("esc from the summary goes back")
	}
}

// The clock moves on by itself: with a short skeleton minute, the timer's
// own ticks (delivered as the runtime would) carry the interview through
// every phase to its summary, each phase using its planned time.
func TestMockClockAdvancesByItself(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M")
	m = m.withTop(m.mock().WithMinute(60 * time.Millisecond)) // a tick per ms
	m = appPress(m, "enter")
	// Each tick is 1 ms away; a loaded machine may deliver one late, so
	// wait for it (failed under load with appSend's 100 ms).
	m = appSendWithin(m, timer.TickMsg{ID: m.mock().Clock().ID()}, 5*time.Second)
	if m.mock().State() != mock.Done {
		t.Fatalf("the clocks ran out but the interview is in phase %d, state %d", m.mock().Phase()+1, m.mock().State())
	}
	for j, used := range m.mock().Used() {
		if used != m.mock().Planned(j) {
			t.Errorf("phase %d used %v, planned %v", j+1, used, m.mock().Planned(j))
		}
	}
}

// appSendCmd runs cmd's messages through the app (not those that wait).
func appSendCmd(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				m = appSendCmd(m, c)
			}
			return m
		}
		if msg != nil {
			return appSend(m, msg)
		}
	case <-time.After(100 * time.Millisecond):
	}
	return m
}

// Every phase of every prompt fits 80×24 in the short form: the clock, the
// last question and the last point stay on screen.
func TestMockEveryPhaseFitsTheScreen(t *testing.T) {
	for i, p := range interview.Mock {
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
			m = appPress(m, "n")
		}
		appCheckFrame(t, m.View(), 80, 24)
		appWant(t, m.View(), "Review chapters")
	}
}

// The drill scores cards; missed ones come first after a restart.
func TestDrillScoresSurviveARestart(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	first, second := interview.Drill[0], interview.Drill[1]
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
	appWant(t, flatText(m.View()), "forget every drill score and mock interview? ctrl+r again forgets them")
	if m = appPress(m, "down"); len(m.store.P.Cards) == 0 {
		t.Fatal("ctrl+r then another key forgets the scores")
	}
	if st, _ := progress.Load(); len(st.P.Cards) == 0 {
		t.Fatal("ctrl+r then another key deletes the saved file")
	}
	appWant(t, m.View(), "the saved progress is kept")
	m = appPress(m, "ctrl+r", "ctrl+r")
	appWant(t, m.View(), "saved progress reset")
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
