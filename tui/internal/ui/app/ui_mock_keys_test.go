package app

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// The mock interview's keys while its clock runs: nothing a learner ticked
// is lost to one key, and a key that answers a question does only that.

// q asks first, as esc does; q again saves the interview, then quits.
func TestMockQAsksBeforeQuittingAndSaves(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "1")
	nm, cmd := m.Update(appKey("q"))
	m = nm.(Model)
	if appIsQuit(cmd) {
		t.Fatal("q quit a running interview at once")
	}
	appWant(t, flatText(m.View()), "quit the course? q again saves what you ticked and quits")
	nm, cmd = m.Update(appKey("q"))
	if !appIsQuit(cmd) {
		t.Fatal("q, q did not quit")
	}
	store, _ := progress.Load()
	if len(store.P.Interviews) != 1 || store.P.Interviews[0].Covered != 1 {
		t.Fatalf("the interview was not saved with its one tick: %+v", store.P.Interviews)
	}
	_ = nm
}

// The key that answers "end the interview here?" is not also acted on:
// esc then x goes on without ticking point 1.
func TestMockKeyAnsweringEscDoesNothingElse(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "esc", "x")
	f := m.View()
	if row := appRow(f, "[ ] 1 "); row == "" {
		t.Errorf("esc then x ticked point 1:\n%s", f)
	}
	appLacks(t, f, "end the interview here?")
	// And q then 2 neither quits nor ticks point 2.
	m = appPress(m, "q", "2")
	if f := m.View(); appRow(f, "[ ] 2 ") == "" {
		t.Errorf("q then 2 ticked point 2:\n%s", f)
	}
}

// Each phase of the track shows what to say first and what to draw, as
// tui interview prints them.
func TestMockPhasesShowSayFirstAndDraw(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter")
	for j, tp := range interview.Track()[:2] {
		f := flatText(m.View())
		for _, want := range []string{"Say first " + tp.SayFirst, "Draw " + tp.Draw} {
			if !strings.Contains(f, want) {
				t.Errorf("phase %d lacks %q:\n%s", j+1, want, m.View())
			}
		}
		m = appPress(m, "n", "enter")
	}
}

// The esc question is read whole at 80 columns, not cut at "…".
func TestMockEscQuestionWholeAt80(t *testing.T) {
	f := appPress(appNew(t, 80, 24), "M", "enter", "esc").View()
	appWant(t, flatText(f), "end the interview here? esc again ends it and saves what you ticked; any other key goes on")
}

// The summary lists every point missed, each whole, and ↓ scrolls to the
// last of them ("… and 11 more" did not scroll).
func TestMockSummaryScrollsToEveryMissedPoint(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "esc", "esc")
	appLacks(t, m.View(), "more")
	seen := flatText(m.View())
	// Down until the view stops moving: how long the summary is depends on
	// the dives the mock drew. 200 presses bound the walk.
	for range 200 {
		before := m.View()
		m = appPress(m, "down")
		if m.View() == before {
			break
		}
		seen += " " + flatText(m.View())
	}
	p := interview.Mock()[0]
	long := interview.LongFormWith(p, m.mock().Dives())
	for j, ph := range long {
		for _, pt := range ph.Checklist {
			if !strings.Contains(seen, "ch "+pt.Chapter+" · "+flatText(pt.Text)) {
				t.Errorf("phase %d: the missed point %q never shows whole", j+1, pt.Text)
			}
		}
	}
	// At the end, the last point missed is on screen.
	last := long[len(long)-1].Checklist
	appWant(t, flatText(m.View()), flatText(last[len(last)-1].Text))
}

// The chooser shows the selected prompt's question whole; the list's rows
// cut every question at the edge ("…").
func TestMockChooserShowsTheQuestionWhole(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M")
	for i, p := range interview.Mock() {
		f := m.View()
		appLacks(t, f, "…")
		if !strings.Contains(flatText(f), flatText("“"+p.Ask+"”")) {
			t.Errorf("prompt %d: the question is not whole:\n%s", i+1, f)
		}
		m = appPress(m, "down")
	}
}
