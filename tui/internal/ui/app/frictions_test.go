package app

import (
	"fmt"
	"strings"
	"testing"

	"regexp"

	"github.com/charmbracelet/x/ansi"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// What a learner tripped on, trying the course by keys at 80×24: one test
// each, through the app as the keys reach it.

// The worst case found from the menu's W loads into the lab, which is then
// on screen (it used to land on the menu, the lab still on E1).
func TestWorstFromTheMenuLoadsIntoTheLab(t *testing.T) {
	m := appOpen(t, "W", scrWorst)
	if _, _, ok := m.worst().Current(); !ok {
		m = appSend(m, m.worst().Search())
	}
	res, _, _ := m.worst().Current()
	m = appPress(m, "enter")
	if m.scr() != scrLab || !m.lab().Custom() || fmt.Sprint(m.lab().Arrivals()) != fmt.Sprint(res.Arrivals) {
		t.Fatalf("enter on the worst case opened from the menu: screen %s, lab arrivals %v, want %v",
			m.scr(), m.lab().Arrivals(), res.Arrivals)
	}
	appWant(t, m.View(), "loaded the worst case found for "+string(res.Algorithm))
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatalf("esc from that lab lands on %s, want the menu", m.scr())
	}
	if m = appPress(m, "L"); fmt.Sprint(m.lab().Arrivals()) == fmt.Sprint(res.Arrivals) {
		t.Log("L from the menu opens the lab on E1, as its entry says")
	}
}

// esc goes back through the chapters in the order they were opened: 02,
// then its lab, then the suggested path (chapter 05), back to the lab and
// back to 02 (one shared chapter screen came back on 05).
func TestEscReturnsToTheChapterItCameFrom(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "2")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 2 {
		t.Fatalf("2 opens %s", m.scr())
	}
	if m = appPress(m, "enter"); m.scr() != scrLab {
		t.Fatalf("chapter 02's first link opens %s, want the lab", m.scr())
	}
	if m = appPress(m, "i"); m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 5 {
		t.Fatalf("i opens %s", m.scr())
	}
	if m = appPress(m, "esc"); m.scr() != scrLab {
		t.Fatalf("esc from chapter 05 lands on %s, want the lab", m.scr())
	}
	m = appPress(m, "esc")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 2 {
		t.Fatalf("esc from the lab lands on %s chapter %d, want chapter 02", m.scr(), course.Chapters()[m.chapter().Chapter()].Num)
	}
	appWant(t, m.View(), "02 · Fixed window")
}

// The mock's clock line keeps "paused: p resumes" whole at 80 columns.
func TestMockPausedLineFits80Columns(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter")
	m = appPress(m, "p")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "paused: p resumes")
}

// Typing into a field just entered replaces its value (it appended: W 1000
// then 2000 gave 10002000).
func TestTypingIntoAFieldReplacesIt(t *testing.T) {
	m := appType(appPress(labOn(t, 80, 24, "E1"), "W"), "2000")
	if m = appPress(m, "enter"); m.lab().Params().WindowMS != 2000 {
		t.Fatalf("W then 2000: W is %d", m.lab().Params().WindowMS)
	}
	// An arrow first edits the value in place.
	m = appType(appPress(m, "L", "left"), "0")
	if m = appPress(m, "enter"); m.lab().Params().Limit != 3 {
		t.Fatalf("L, ←, 0 on L=3: L is %d, want 03 = 3", m.lab().Params().Limit)
	}
}

// A prefetch field takes numbers as long as the simulation accepts, and
// says so when a key does not fit (it stopped at 12 characters silently).
func TestPrefetchFieldSaysWhenFull(t *testing.T) {
	m := appType(appPress(appNew(t, 80, 24), "P", "L"), "1000000000")
	if m = appPress(m, "enter"); m.pf().Config().Limit != 1_000_000_000 {
		t.Fatalf("limit 1e9 typed: %d", m.pf().Config().Limit)
	}
	m = appType(appPress(m, "L"), strings.Repeat("9", 21))
	appWant(t, m.View(), "limit takes at most 20 characters")
}

// The lab's hint follows the lab: once a side or the budget changes, the
// scenario's lesson is no longer shown as if it held.
func TestLabHintFollowsTheChanges(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	lesson := flatText(m.View())
	if !strings.Contains(lesson, "hint: ") {
		t.Fatalf("no hint on E1:\n%s", m.View())
	}
	for _, keys := range [][]string{{"a"}, {"b"}} {
		f := flatText(appPress(m, keys...).View())
		appWant(t, f, "you changed cross-boundary-spike's budget or sides")
	}
	m = labEdit(m, "L", "4")
	appWant(t, flatText(m.View()), "you changed cross-boundary-spike's budget or sides")
}

// Chapter 05's suggested path, opened from the lab, says which keys do what
// its command-line flags do.
func TestSuggestedPathNamesTheLabKeys(t *testing.T) {
	m := appPress(labOn(t, 80, 24, "E1"), "i")
	f := flatText(m.View())
	appWant(t, f, "in the lab: s next scenario, a the left algorithm (--left)", "The suggested path")
	appCheckFrame(t, m.View(), 80, 24)
	if m = appPress(m, "n"); strings.Contains(m.View(), "in the lab:") {
		t.Error("the note stays on the next chapter")
	}
}

// The drill keeps a score for the session and ends the deck with it (it
// went round again without a word).
func TestDrillSessionScoreAndEndOfDeck(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	n := len(m.cards().Order())
	m = appPress(m, "space", "y", "space", "m")
	appWant(t, m.View(), "this session: 1 got, 1 missed")
	m = m.withTop(m.cards().At(n-1, false))
	m = appPress(m, "space", "y")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, fmt.Sprintf("End of the deck: %d cards, this session 2 got, 1 missed", n), "r deal the deck again")
	if m = appPress(m, "r"); m.cards().Index() != 0 || strings.Contains(m.View(), "End of the deck") {
		t.Error("r deals the deck again from its first card")
	}
}

// No number is split over two lines of a chapter ("3 × 0." / "7 = 2.1",
// "give 1." / "50 / 2.47"), at any width, in colour or not.
func TestChapterTextNeverSplitsANumber(t *testing.T) {
	split := regexp.MustCompile(`\d[.,]$`)
	for i, c := range course.Chapters() {
		for _, w := range []int{78, 80, 100, 120} {
			for _, plain := range []bool{true, false} {
				lines := strings.Split(ansi.Strip(course.Text(i, w, plain, true)), "\n")
				for j := 0; j+1 < len(lines); j++ {
					l, next := strings.TrimRight(lines[j], " "), strings.TrimSpace(lines[j+1])
					if split.MatchString(l) && next != "" && next[0] >= '0' && next[0] <= '9' &&
						strings.Contains(c.README, lastWord(l)+strings.Fields(next)[0]) {
						t.Errorf("chapter %d at %d (plain %v): a number split: %q / %q", c.Num, w, plain, l, next)
					}
				}
			}
		}
	}
}

// Prose keeps to about 80 columns on a wide terminal (it took 118 at 120).
func TestChapterProseKeepsNear80Columns(t *testing.T) {
	m := appPress(appNew(t, 120, 40), "3")
	for _, l := range strings.Split(m.View(), "\n")[1:38] {
		if n := ansi.StringWidth(strings.TrimRight(l, " ")); n > 81 && !strings.Contains(l, "func ") && !strings.HasPrefix(l, "   ") {
			t.Errorf("a prose line of %d columns at 120: %q", n, l)
		}
	}
}

// Tables fit 80 columns: chapter 07's selection table and chapter 05's
// accuracy table kept their headers and words whole only at 120.
func TestChapterTablesFit80Columns(t *testing.T) {
	for _, num := range []int{5, 7} {
		text := ansi.Strip(course.Text(course.Index(num), 80, true, true))
		if strings.Contains(text, "…") {
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "…") && strings.Contains(l, "│") {
					t.Errorf("chapter %02d: a table cell is cut: %q", num, l)
				}
			}
		}
		for _, l := range strings.Split(text, "\n") {
			if ansi.StringWidth(l) > 80 && strings.Contains(l, "│") {
				t.Errorf("chapter %02d: a table row of %d columns", num, ansi.StringWidth(l))
			}
		}
	}
	// That they stay comparable: TestReaderWideTablesStayComparable.
}

func lastWord(s string) string {
	f := strings.Fields(s)
	return f[len(f)-1]
}

// At 80×24 the lab shows each prepared scenario's hint whole, and an
// arrivals error whole (both were cut with "…").
func TestLabHintAndArrivalsErrorWholeAt80(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	for range lab.Scenarios {
		f := m.View()
		appCheckFrame(t, f, 80, 24)
		s := lab.Scenarios[m.lab().Scenario()]
		if !strings.Contains(flatText(f), flatText("hint: "+s.Lesson)) {
			t.Errorf("%s: the hint is not whole:\n%s", s.Name, f)
		}
		m = appPress(m, "s")
	}
	m = appType(appPress(labOn(t, 80, 24, "E1"), "t", "end"), ",x")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	msg := flatText(f[strings.Index(f, "arrivals = "):])
	if !strings.Contains(msg, "is not accepted: use") || strings.Contains(msg, "…") {
		t.Errorf("the arrivals error is cut:\n%s", f)
	}
}
