package app

import "testing"

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
