package app

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
)

// readStep opens plan step id (on the plan shown) and pages down until it
// is marked done, at most 60 pages; ok is false when it never is.
func readStep(t *testing.T, m Model, id string) (Model, bool) {
	t.Helper()
	m = appPress(stepTo(t, m, id), "enter")
	if m.scr() != scrChapter {
		t.Fatalf("enter on %s opens %q", id, m.scr())
	}
	// The step's heading is on screen (on the first row of the text, or
	// lower when the chapter's end is on screen too).
	s := m.planScreen().Selected()
	if !slices.ContainsFunc(strings.Split(m.View(), "\n"), func(row string) bool {
		h, ok := strings.CutPrefix(strings.TrimSpace(ansi.Strip(row)), "## ")
		return ok && plan.IsHeading(h, s.Section)
	}) {
		t.Errorf("%s opens the reader at\n%s\nnot at %q", id, m.View(), s.Section)
	}
	for range 60 {
		if m.planScreen().Selected().Done(m.store.P) {
			return m, true
		}
		m = appPress(m, "pgdown")
	}
	return m, false
}

// Every reading step of both plans can be marked by keys: enter opens its
// section at its heading, and paging to the section's end marks it. A
// heading with a code span ("(`fixed-window`)") is shown without its
// backticks; the mark still finds it.
func TestPlanEveryReadingStepCanBeMarked(t *testing.T) {
	for _, p := range plan.Plans() {
		t.Run(p.ID, func(t *testing.T) {
			// In colour, as a learner sees it: glamour's dark style shows
			// a code span without its backticks (the plain style keeps them).
			m := appNew(t, 100, 30)
			m.plain = false
			m = appPress(m, "G")
			if p.ID == "week" {
				m = appPress(m, "tab")
			}
			for _, s := range p.Steps {
				if s.Kind != plan.Read {
					continue
				}
				var ok bool
				m, ok = readStep(t, m, s.ID)
				if !ok {
					t.Errorf("%s: paging through %q never marks it", s.ID, s.Section)
				}
				m = appPress(m, "esc")
			}
		})
	}
}

// Opening a step's section at its heading marks nothing above it: a
// section is read when its last line was on screen, not when it was
// skipped past.
func TestPlanJumpMarksNothingAbove(t *testing.T) {
	m := appPress(appNew(t, 100, 30), "G")
	m = appPress(stepTo(t, m, "e13"), "enter") // chapter 07's API and rules, far down
	if got := slices.Collect(maps.Keys(m.store.P.Read)); len(got) > 0 {
		t.Errorf("opening e13 at its heading marked %v read", got)
	}
	m = appPress(m, "esc", "tab")
	for _, s := range m.planScreen().Plan().Steps {
		if s.Done(m.store.P) {
			t.Errorf("after opening e13 the week shows %s (%q) done", s.ID, s.Section)
		}
	}
}

// Once a step is done the reader's note says so and names the next step;
// back on the plan, the cursor is on it.
func TestPlanStepDoneMovesOn(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "G")
	m, ok := readStep(t, m, "e04")
	if !ok {
		t.Fatal("e04 is never marked")
	}
	appWant(t, flatText(m.View()), "plan step e04 done; next e05")
	m = appPress(m, "esc")
	appWant(t, m.View(), "▸ · e05", "✓ e04", "plan step e04 done")

	// A screen step: done once opened.
	m = appPress(stepTo(t, m, "e12"), "enter", "esc")
	appWant(t, m.View(), "✓ e12", "▸ · e13")
}

// enter on the evening's last step opens the mock on the 15-minute form it
// names, whichever form the mock showed last; the week's last step opens
// the 45-minute track.
func TestPlanMockStepOpensItsForm(t *testing.T) {
	m := appPress(appNew(t, 100, 30), "G")
	m = appPress(stepTo(t, m, "e17"), "enter")
	if m.scr() != scrMock || m.mock().Running() {
		t.Fatalf("e17 opens %q (running %v), want the mock's chooser", m.scr(), m.mock().Running())
	}
	appWant(t, m.View(), "15-minute short form: ")
	m = appPress(m, "esc", "enter") // again: still the short form
	appWant(t, m.View(), "15-minute short form: ")
	m = appPress(m, "esc", "tab")
	last := m.planScreen().Plan().Steps[len(m.planScreen().Plan().Steps)-1]
	m = appPress(stepTo(t, m, last.ID), "enter")
	appWant(t, m.View(), "45-minute track: ")
}

// At 100 columns every step's row is whole, in both plans; at 80×24 the
// week's list, longer than the screen, says how many steps are below.
func TestPlanRowsWholeAndMoreMarked(t *testing.T) {
	m := appPress(appNew(t, 100, 30), "G")
	for _, p := range plan.Plans() {
		for range p.Steps {
			if r := appRow(m.View(), string('▸')); strings.Contains(r, "…") {
				t.Errorf("%s: the row is cut at 100 columns: %q", p.ID, r)
			}
			m = appPress(m, "down")
		}
		m = appPress(m, "tab")
	}
	m = appPress(appNew(t, 80, 24), "G", "tab")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "more below")
	for range 80 {
		m = appPress(m, "down")
	}
	appWant(t, m.View(), "▸ · w64", "steps 54–69 of 69 · 53 above")
}
