package app

import (
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// Chapter 10 is on the menu with the other nine, behind 0 and the filter.
func TestMenuHasChapterTen(t *testing.T) {
	m := appNew(t, 80, 24)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "01 · ", "10 · The limiter as a service", "10 chapters")
	if n := len(course.Chapters); n != 10 {
		t.Fatalf("the course has %d chapters, want 10", n)
	}

	m = appPress(m, "0")
	if m.scr() != scrChapter || course.Chapters[m.chapter().Chapter()].Num != 10 {
		t.Fatalf("0 opens chapter 10: screen %s", m.scr())
	}
	appCheckFrame(t, m.View(), 80, 24)
	appWant(t, m.View(), "The limiter as a service")

	m = appPress(m, "esc", "/")
	m = appType(m, "as a service")
	m = appPress(m, "enter")
	appWant(t, m.View(), "10 · The limiter as a service")
	appLacks(t, m.View(), "02 · Fixed window")
	m = appPress(m, "enter")
	if m.scr() != scrChapter || course.Chapters[m.chapter().Chapter()].Num != 10 {
		t.Fatalf("enter on the filtered entry opens chapter 10: screen %s", m.scr())
	}
}
