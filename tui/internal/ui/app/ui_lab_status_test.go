package app

import (
	"strings"
	"testing"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The lab's status line tells of what just happened in this lab: it does
// not follow the learner into the next one.
func TestLabStatusDoesNotFollowIntoTheNextLab(t *testing.T) {
	m := appPress(labOn(t, 80, 24, "E1"), "w")
	if _, _, ok := m.worst().Current(); !ok { // still searching: deliver it here
		m = appSend(m, m.worst().Search())
	}
	m = appPress(m, "enter")
	appWant(t, m.View(), "loaded the worst case found for fixed-window")
	// Back to the menu, then the lab again from the menu…
	m = appPress(m, "esc", "L")
	if m.scr() != scrLab {
		t.Fatalf("L opened %s", m.scr())
	}
	appLacks(t, m.View(), "loaded the worst case")
	// …and from a chapter's worked example.
	m = appPress(m, "w", "enter", "esc", "esc", "2", "enter")
	if m.scr() != scrLab {
		t.Fatalf("chapter 02's enter opened %s", m.scr())
	}
	appLacks(t, m.View(), "loaded the worst case")
}

// The worst-case table shows every textbook bound whole, at 80 columns as
// at 120 (it cut "2L = 6 (the estimate is not a…" even at 120).
func TestWorstTableBoundsWhole(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := appPress(appNew(t, w, 24), "W")
		for range lab.Algorithms {
			if _, _, ok := m.worst().Current(); !ok {
				m = appSend(m, m.worst().Search())
			}
			m = appPress(m, "down")
		}
		f := m.View()
		appCheckFrame(t, f, w, 24)
		appWant(t, f, "2L = 6 (the estimate is not a bound)", "(departures are T apart)")
	}
}

// The lab's and the prefetch lab's footers end with esc and ? whole at 80
// columns (they were cut at "…" before "? all keys"), and the lab's hint is
// whole even after a note.
func TestLabAndPrefetchFootersWholeAt80(t *testing.T) {
	for _, keys := range [][]string{{"L"}, {"P"}, {"L", "e", "0", "enter"}} {
		f := appPress(appNew(t, 80, 24), keys...).View()
		rows := strings.Split(f, "\n")
		last := rows[len(rows)-1]
		if strings.Contains(last, "…") || !strings.HasSuffix(strings.TrimRight(last, " "), "esc back  ? all keys") {
			t.Errorf("%v: the footer is cut: %q", keys, last)
		}
	}
	m := appPress(appNew(t, 80, 24), "L", "e", "0", "enter")
	appWant(t, flatText(m.View()), "kept W 1000")
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.HasPrefix(l, "hint:") && strings.Contains(l, "…") {
			t.Errorf("the hint is cut beside the note: %q", l)
		}
	}
}
