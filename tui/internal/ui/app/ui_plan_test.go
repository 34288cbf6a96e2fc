package app

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	planscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/plan"
)

const scrPlan = "study plan"

func (m Model) planScreen() planscreen.Model {
	s, _ := m.find("plan")
	return s.(planscreen.Model)
}

// stepTo moves the plan's cursor to step id, from the first step.
func stepTo(t *testing.T, m Model, id string) Model {
	t.Helper()
	for i := 0; i < 100 && m.planScreen().Selected().ID != id; i++ {
		m = appPress(m, "down")
	}
	if got := m.planScreen().Selected().ID; got != id {
		t.Fatalf("no step %s in %s (at %s)", id, m.planScreen().Plan().ID, got)
	}
	return m
}

// G opens the evening plan; enter on a reading step opens its section in
// the reader, and reading it to its end marks the step done, which a
// restart keeps.
func TestPlanReadingStepIsMarkedWhenRead(t *testing.T) {
	m := appOpen(t, "G", scrPlan)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "Study plan · One evening · 73 min · 0 of 15 steps done", "▸ · e01   3 min  01 read",
		"where chapters/01-framing/README.md#the-idea")
	m = appPress(m, "enter")
	if rows := strings.Split(m.View(), "\n"); m.scr() != scrChapter || !strings.Contains(rows[2], "## The idea") {
		t.Fatalf("enter on e01 opens %q at:\n%s", m.scr(), m.View())
	}
	appWant(t, m.View(), "plan step e01: read this section to its end")
	// The section is not read until its end has been on screen.
	if m.store.P.Read[plan.Anchor(1, "The idea")] {
		t.Fatal("the section counts as read before its end was shown")
	}
	for range 6 { // page down until the next heading has been on screen
		if m.store.P.Read[plan.Anchor(1, "The idea")] {
			break
		}
		m = appPress(m, "space")
	}
	m = appPress(m, "esc")
	appWant(t, m.View(), "1 of 15 steps done", "✓ e01", "▸ · e02")

	store, note := progress.Load()
	m = appPress(appRestart(t, store, note, 80, 24), "G")
	appWant(t, m.View(), "1 of 15 steps done", "✓ e01", "· e02")
}

// Each kind of step opens its place: the drill on the step's cards, the
// lab on the step's worked example, the request path, the mock; each is
// marked once done.
func TestPlanStepsOpenTheirPlaces(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "G")

	m = appPress(stepTo(t, m, "e03"), "enter")
	if m.scr() != "question cards" || len(m.cards().Order()) != 2 {
		t.Fatalf("e03 opens %q with %d cards", m.scr(), len(m.cards().Order()))
	}
	if q, _ := m.cards().Card(); q.ID != "01/the four questions" {
		t.Fatalf("the first card is %q", q.ID)
	}
	m = appPress(m, "space", "y", "space", "m", "esc")
	appWant(t, m.View(), "✓ e03")

	m = appPress(stepTo(t, m, "e05"), "enter")
	if m.scr() != scrLab || !strings.HasPrefix(m.lab().ScenarioName(), "cross-boundary-spike") {
		t.Fatalf("e05 opens %q on %q", m.scr(), m.lab().ScenarioName())
	}
	m = appPress(m, "esc")
	appWant(t, m.View(), "✓ e05")

	m = appPress(stepTo(t, m, "e12"), "enter")
	if m.scr() != "request path" {
		t.Fatalf("e12 opens %q", m.scr())
	}
	m = appPress(m, "esc")
	appWant(t, m.View(), "✓ e12", "3 of 15 steps done")

	// Chapter 10 opens in the reader at the step's heading.
	m = appPress(stepTo(t, m, "e14"), "enter")
	if m.scr() != scrChapter {
		t.Fatalf("e14 opens %q", m.scr())
	}
	appWant(t, flatText(m.View()), "The interview answer")
	m = appPress(m, "esc")

	m = appPress(stepTo(t, m, "e17"), "enter")
	if m.scr() != scrMock || m.mock().Running() {
		t.Fatalf("e17 opens %q (running %v), want the mock's chooser", m.scr(), m.mock().Running())
	}
	appCheckFrame(t, m.View(), 80, 24)
}

// tab shows the week; x marks an exercise written and x again clears it;
// other steps refuse x with a word. The menu's reset forgets the marks.
func TestPlanWeekExerciseMarkedByHand(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "G", "tab")
	appWant(t, m.View(), "Study plan · One week · 786 min · 0 of 69 steps done")
	appCheckFrame(t, m.View(), 80, 24)
	m = appPress(m, "x")
	appWant(t, m.View(), "x marks exercises only")
	m = appPress(stepTo(t, m, "w09"), "x")
	appWant(t, m.View(), "chapter 02's exercise marked written", "▸ ✓ w09", "1 of 69 steps done")
	if st, _ := progress.Load(); !st.P.Exercises["02"] {
		t.Fatal("the mark is not saved")
	}
	m = appPress(m, "x")
	appWant(t, m.View(), "marked not written", "▸ · w09")
	m = appPress(m, "x", "enter")
	if m.scr() != scrChapter {
		t.Fatalf("enter on an exercise opens %q", m.scr())
	}
	appWant(t, flatText(m.View()), "## Run the exercise", "make exercise CH=02 in a shell")
	// The plan screen comes back on the week it showed.
	m = appPress(m, "esc", "esc", "ctrl+r", "ctrl+r", "G")
	appWant(t, m.View(), "One week", "0 of 69 steps done", "· w09")
}

// Y shows what is weak: with nothing saved every topic is zero; after a
// drill scored through the app and a finished mock, their topics show the
// hit rate and the points said, and the review starts with the missed card.
func TestReadyScreenAfterDrillAndMock(t *testing.T) {
	m := appOpen(t, "Y", "ready?")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "0 mock interviews finished", "01 Framing               0 of 7        0         -            -",
		"plan one evening: 0 of 15 steps done, 0 of 73 minutes", "1. chapter 01 (Framing): its cards",
		"tui D · chapters/01-framing/README.md#the-interview-answer")

	// The drill: the first card got, the second missed (both chapter 01).
	m = appPress(m, "esc", "D", "space", "y", "space", "m", "esc")
	second := interview.Drill()[1]
	// A 15-minute mock on the first question, the first point ticked.
	m = appPress(m, "M", "f", "enter", "1", "n", "enter", "n", "enter", "n", "enter", "n", "enter")
	if m.mock().Running() {
		t.Fatal("the mock did not finish")
	}
	m = appPress(m, "esc", "Y")
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "1 mock interview finished", "01 Framing               2 of 7        1       50%",
		"1. card "+second.ID)
	if r := appRow(f, "01 Framing"); !strings.HasSuffix(strings.TrimSpace(r), "1 of 4") {
		t.Errorf("topic 01's mock points: %q, want 1 of 4 said", r)
	}
	if st, _ := progress.Load(); len(st.P.Interviews) != 1 || st.P.Cards[second.ID].Last != "missed" {
		t.Fatalf("saved: %+v", st.P)
	}
}
