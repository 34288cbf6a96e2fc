package app

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/chapters"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// The menu is a list of every chapter and lab; / filters it.
func TestMenuListsEveryChapterAndFilters(t *testing.T) {
	m := appNew(t, 80, 24)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	for i, c := range course.Chapters() {
		appWant(t, f, fmt.Sprintf("%02d · ", c.Num), course.Infos()[i].Title)
	}
	appWant(t, f, "Mock interview", "Question cards", "/ filter")

	m = appPress(m, "/")
	if !m.typing() {
		t.Fatal("/ starts the list's filter, which takes typed text")
	}
	m = appType(m, "buckets")
	m = appPress(m, "enter") // accept the filter
	f = m.View()
	appWant(t, f, "04 · Buckets")
	appLacks(t, f, "02 · Fixed window")
	m = appPress(m, "enter")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 4 {
		t.Fatalf("enter on the filtered entry opens chapter 04: screen %s", m.scr())
	}
	m = appPress(m, "esc")
	if m.scr() != scrMenu {
		t.Fatal("esc goes back to the menu")
	}
	m = appPress(m, "esc")
	appWant(t, m.View(), "02 · Fixed window") // esc clears the filter

	m = appPress(m, "3")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 3 {
		t.Fatal("a digit opens that chapter")
	}
}

// Chapter text is the README as glamour renders it: the words are there,
// the markdown marks are not, and no line of a code block is wrapped.
func TestChapterTextRenderedWithCodeWhole(t *testing.T) {
	fence := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	for i, c := range course.Chapters() {
		if c.README == "" {
			continue
		}
		text := ansi.Strip(course.Text(i, 80, true, true))
		if strings.Contains(text, "**") {
			t.Errorf("chapter %d shows bold marks (**)", c.Num)
		}
		if !strings.Contains(flatText(strings.ReplaceAll(text, "`", "")), flatText(course.Infos()[i].Summary)) {
			t.Errorf("chapter %d lacks its first sentence %q", c.Num, course.Infos()[i].Summary)
		}
		for _, block := range fence.FindAllStringSubmatch(c.README, -1) {
			for _, line := range strings.Split(strings.TrimRight(block[1], "\n"), "\n") {
				if l := strings.TrimSpace(strings.ReplaceAll(line, "\t", "    ")); l != "" && !strings.Contains(text, l) {
					t.Errorf("chapter %d: code line not on one screen line: %q", c.Num, l)
				}
			}
		}
	}
}

// No rendered line of prose is a lone short word that would have fitted on
// the line above, with text after it (the double wrap glamour does at
// hyphens and in tight lists).
func TestChapterProseWrapsWithoutOrphans(t *testing.T) {
	for i, c := range course.Chapters() {
		lines := strings.Split(ansi.Strip(course.Text(i, 80, true, true)), "\n")
		for j := 1; j+1 < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			prev, next := strings.TrimSpace(lines[j-1]), strings.TrimSpace(lines[j+1])
			if l != "" && !strings.ContainsAny(l, " {}()|`#") && len(l) < 10 && prev != "" && next != "" &&
				len(prev) > 60 && !strings.HasPrefix(lines[j], "  ") &&
				ansi.StringWidth(strings.TrimRight(lines[j-1], " "))+1+len(l) <= 79 { // it fitted above: a second wrap moved it
				t.Errorf("chapter %d line %d: %q stands alone between %q and %q", c.Num, j, l, prev, next)
			}
		}
	}
}

// A code line wider than the screen scrolls sideways instead of wrapping.
func TestChapterScrollsSidewaysForWideCode(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "1")
	wide := ""
	for _, l := range strings.Split(chapters.README(1), "\n") {
		if strings.HasPrefix(l, "go test ") && len(l) > 79 {
			wide = l
		}
	}
	if wide == "" {
		t.Fatal("chapter 01 has no `go test` line wider than 79 columns: this test needs one")
	}
	if m.chapter().Wide() == 0 {
		t.Fatal("the status row counts no wide code line")
	}
	appWant(t, m.View(), "past the edge: ← → scroll sideways")
	tail := wide[len(wide)-12:]
	m = appPress(m, "G") // the commands are near the end
	for i := 0; i < 60 && !strings.Contains(m.View(), wide[:40]); i++ {
		m = appPress(m, "up")
	}
	appWant(t, m.View(), wide[:40])
	appLacks(t, m.View(), tail)
	m = appPress(m, "right", "right")
	appWant(t, m.View(), tail)
}

// Each chapter offers its worked examples in the lab, and esc from the lab
// goes back to where the learner came from (issue 13, friction 1).
func TestChapterOpensItsWorkedExamplesAndEscReturns(t *testing.T) {
	for _, c := range []struct {
		chapter int
		keys    []string
		example string
	}{
		{2, []string{"enter"}, "E1"},
		{3, []string{"enter"}, "E1"},
		{3, []string{"2"}, "E4"},
		{3, []string{"3"}, "E3"},
		{4, []string{"enter"}, "E6"},
		{5, []string{"enter"}, "E1"},
	} {
		m := appPress(appNew(t, 80, 24), fmt.Sprint(c.chapter))
		appWant(t, m.View(), c.example+" in the lab")
		m = appPress(m, c.keys...)
		if m.scr() != scrLab || lab.Scenarios[m.lab().Scenario()].Example != c.example {
			t.Fatalf("chapter %d %v: screen %s scenario %q, want the lab on %s", c.chapter, c.keys, m.scr(), m.lab().ScenarioName(), c.example)
		}
		appWant(t, m.View(), "("+c.example+")")
		m = appPress(m, "esc")
		if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != c.chapter {
			t.Fatalf("esc from the lab opened from chapter %d lands on screen %s chapter %d", c.chapter, m.scr(), course.Chapters()[m.chapter().Chapter()].Num)
		}
	}
	// From the menu, L opens the lab and esc goes back to the menu.
	m := appPress(appNew(t, 80, 24), "L")
	if m.scr() != scrLab {
		t.Fatal("L opens the lab")
	}
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatalf("esc from a lab opened on the menu lands on screen %s", m.scr())
	}
	// Chapter 06 opens E13 in the prefetch lab; chapter 07 its cards and
	// the mock interview.
	m = appPress(appNew(t, 80, 24), "6")
	appWant(t, m.View(), "E13 in the prefetch lab")
	for i, l := range course.Infos()[course.Index(6)].Links {
		if l.View == "prefetch" {
			m = appPress(m, m.chapter().LinkKeys()[i].Keys()[len(m.chapter().LinkKeys()[i].Keys())-1])
		}
	}
	if m.scr() != scrPrefetch {
		t.Fatal("chapter 06 opens E13 in the prefetch lab")
	}
	m = appPress(appNew(t, 80, 24), "7")
	appWant(t, m.View(), "question cards", "mock interview")
	if m = appPress(m, "2"); m.scr() != scrMock {
		t.Fatal("chapter 07: 2 opens the mock interview")
	}
	if m = appPress(m, "esc"); m.scr() != scrChapter {
		t.Fatal("esc from the mock interview's chooser goes back to chapter 07")
	}
}

// The footer is help.Model's short help of the screen's key map, and ? is
// its full sheet: every binding of the screen, by its help text.
func TestHelpComesFromTheKeyMaps(t *testing.T) {
	m := appNew(t, 80, 24)
	screens := []struct {
		keys []string
		name string
	}{
		{nil, "menu"}, {[]string{"5"}, "chapter"}, {[]string{"L"}, "lab"},
		{[]string{"P"}, "prefetch lab"}, {[]string{"D"}, "question cards"}, {[]string{"M"}, "mock interview"},
	}
	for _, s := range screens {
		m := appPress(m, s.keys...)
		if m.scr() != s.name {
			t.Fatalf("%v opens %q, want %q", s.keys, m.scr(), s.name)
		}
		s := struct {
			keys []string
			km   help.KeyMap
		}{s.keys, m.top().Keys()}
		foot := strings.Split(m.View(), "\n")[23]
		first := s.km.ShortHelp()[0].Help()
		if !strings.Contains(foot, first.Key+" "+first.Desc) {
			t.Errorf("%v: footer %q lacks the short help's first key %q", s.keys, foot, first.Key+" "+first.Desc)
		}
		sheet := appPress(m, "?").View()
		for _, col := range s.km.FullHelp() {
			for _, b := range col {
				if h := b.Help(); b.Enabled() && !strings.Contains(sheet, h.Desc) {
					t.Errorf("%v: the ? sheet lacks %q (%s)", s.keys, h.Desc, h.Key)
				}
			}
		}
		if appPress(m, "?", "x").showAll {
			t.Errorf("%v: any key closes the sheet", s.keys)
		}
	}
}

// Every screen fits 80×24 and 200×50 exactly, whatever keys come.
func TestEveryScreenFitsWhateverTheKeys(t *testing.T) {
	keys := []string{"up", "down", "left", "right", "enter", "esc", "tab", "home", "end", "space", "+", "-", "0",
		"s", "a", "b", "x", "w", "i", "e", "1", "2", "5", "7", "L", "P", "D", "M", "W", "y", "m", "n", "p", "/", "9", "backspace", "?"}
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		rng := rand.New(rand.NewPCG(uint64(sz[0]), 7))
		m := appNew(t, sz[0], sz[1])
		for i := 0; i < 600; i++ {
			k := keys[rng.IntN(len(keys))]
			m = appPress(m, k)
			if m.scr() == scrMock && m.top().CapturesEsc() && rng.IntN(3) == 0 { // an interview on the clock
				m = appPress(m, "esc")
			}
			appCheckFrame(t, m.View(), sz[0], sz[1])
		}
	}
}

// Below 80×24 the course asks for a bigger terminal; only q works.
func TestTooSmallTerminal(t *testing.T) {
	m := appNew(t, 79, 24)
	appWant(t, m.View(), "79×24", "at least 80×24")
	m = appPress(m, "L")
	if m.scr() != scrMenu {
		t.Fatal("keys other than q do nothing on a too-small terminal")
	}
	_, cmd := m.Update(appKey("q"))
	if !appIsQuit(cmd) {
		t.Fatal("q quits on a too-small terminal")
	}
}

func TestQuitKeys(t *testing.T) {
	m := appNew(t, 80, 24)
	for _, k := range []string{"q", "ctrl+c"} {
		if _, cmd := m.Update(appKey(k)); !appIsQuit(cmd) {
			t.Errorf("%s does not quit the menu", k)
		}
	}
	m = appPress(m, "L", "t")
	if _, cmd := m.Update(appKey("q")); appIsQuit(cmd) {
		t.Error("q is text while a field is edited")
	}
	if _, cmd := m.Update(appKey("ctrl+c")); !appIsQuit(cmd) {
		t.Error("ctrl+c quits even while editing")
	}
}

// Keys typed faster than the terminal is read arrive as one message.
func TestBurstOfRunesIsKeys(t *testing.T) {
	m := appNew(t, 80, 24)
	m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Ls")})
	if m.scr() != scrLab || m.lab().Scenario() != 1 {
		t.Fatalf("\"Ls\" in one message is L then s: screen %s scenario %d", m.scr(), m.lab().Scenario())
	}
	m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s"), Alt: true})
	if m.scr() != scrMenu {
		t.Fatal("alt+s (esc then s typed fast) goes back first")
	}
	m = appPress(m, "L", "C")
	m = appSend(m, tea.KeyMsg{Type: tea.KeyEsc, Alt: true})
	if m.scr() != scrMenu || m.lab().Editing {
		t.Fatal("esc esc typed fast cancels the edit, then goes back")
	}
}

// The drill cards: reveal, score, and the model answer fits the screen.
func TestDrillCardsFitTheScreen(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	for i := range interview.Drill() {
		m = m.withTop(m.cards().At(i, true))
		q, _ := m.cards().Card()
		f := flatText(m.View())
		words := strings.Fields(q.A)
		if last := strings.Join(words[len(words)-3:], " "); !strings.Contains(f, last) {
			t.Errorf("card %d (%s): the answer's end %q is not on the 80x24 screen", i+1, q.Topic, last)
		}
		appWant(t, m.View(), "y got it", "m missed it")
	}
}
