package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// Chapter 07 offers one link per worked answer; its key opens the answer's
// Markdown in the reader at 80×24, ] walks its phases, n the next answer,
// and esc comes back to chapter 07. Reading an answer to its end marks no
// section of chapter 07 read.
func TestChapter07OpensTheWorkedAnswers(t *testing.T) {
	links := course.Infos()[course.Index(7)].Links
	first := -1
	for i, l := range links {
		if l.View == screen.Answer {
			if first < 0 {
				first = i
			}
			if want := "worked answer: " + interview.Mock()[l.Scenario].Name; l.Label != want || l.Scenario != i-first {
				t.Errorf("link %d: %q to answer %d, want %q to %d", i, l.Label, l.Scenario, want, i-first)
			}
		}
	}
	if first < 0 || len(links)-first != len(interview.Mock()) || len(links) > 9 {
		t.Fatalf("chapter 07 links %+v: want one per worked answer, all with a number key", links)
	}
	m := appPress(appNew(t, 80, 24), "7")
	m = appPress(m, fmt.Sprint(first+1))
	if m.scr() != "worked answer" || m.chapter().Answer() != 0 {
		t.Fatalf("key %d from chapter 07 opens %s, answer %d", first+1, m.scr(), m.chapter().Answer())
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "07 · Worked answer: per-user limits on a public API", "The prompt.")
	seen := map[string]bool{}
	for range course.AnswerHeadings(0) {
		m = appPress(m, "]")
		for _, ph := range interview.Track() {
			seen[ph.Title] = seen[ph.Title] || strings.Contains(m.View(), "## "+ph.Title)
		}
	}
	for _, ph := range interview.Track() {
		if !seen[ph.Title] {
			t.Errorf("] never brought the phase %q to the screen", ph.Title)
		}
	}
	m = appPress(m, "G")
	appWant(t, m.View(), "Lab footnotes")
	if n, read, end := m.chapter().ReadThrough(); n != 0 || read != nil || end {
		t.Errorf("an answer read to its end marks chapter %d sections %q (end %v)", n, read, end)
	}
	if got := m.store.P; len(got.Read) != len(progress.Empty().Read) {
		t.Errorf("reading an answer saved reading marks: %v", got.Read)
	}
	m = appPress(m, "n")
	appWant(t, m.View(), "07 · Worked answer: a login endpoint")
	m = appPress(m, "N", "N")
	appWant(t, m.View(), "07 · Worked answer: a partner API behind a gateway")
	for _, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a row of %d columns: %q", w, l)
		}
	}
	if m = appPress(m, "esc"); m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 7 || m.chapter().Answer() != -1 {
		t.Fatalf("esc from an answer lands on %s", m.scr())
	}
}

// The diagram of every worked answer fits the reader at 80 columns: no
// line runs past the edge.
func TestWorkedAnswersFitTheReaderAt80(t *testing.T) {
	for i, a := range course.Answers() {
		for _, l := range strings.Split(ansi.Strip(course.AnswerText(i, 80, true, true)), "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%s: a rendered line of %d columns: %q", a.Prompt, w, l)
			}
		}
	}
}
