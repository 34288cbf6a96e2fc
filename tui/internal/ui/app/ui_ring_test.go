package app

import (
	"testing"
)

// Chapter 11 is on the menu behind the filter, and enter opens its ring
// screen at 80×24, drawn from chapter 11's ring.
func TestRingScreenFromChapterEleven(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "/")
	m = appType(m, "hash ring")
	m = appPress(m, "enter", "enter")
	appWant(t, m.View(), "enter the ring screen")
	m = appPress(m, "enter")
	if m.scr() != "the ring" {
		t.Fatalf("enter in chapter 11 opens %s, want the ring screen", m.scr())
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "11 · The ring", "join: ", "of keys moved")
	m = appPress(m, "l")
	appWant(t, m.View(), "leave: ")
}
