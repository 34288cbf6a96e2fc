package app

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// The reader's tests: finding one's way through a long chapter, and what
// its status and footer offer.

// firstTextRow is the first row of the chapter's text under its title.
func firstTextRow(frame string) string {
	return strings.TrimSpace(strings.Split(frame, "\n")[1])
}

// ] and [ move from heading to heading: chapter 06 is 1,400 lines long.
func TestReaderJumpsFromSectionToSection(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "6")
	hs := course.Headings(course.Index(6))
	if len(hs) < 10 {
		t.Fatalf("chapter 06 has %d headings, want at least 10", len(hs))
	}
	for i, h := range hs[:4] {
		m = appPress(m, "]")
		if got, want := firstTextRow(m.View()), "## "+h.Text; !strings.HasPrefix(strings.ReplaceAll(got, "`", ""), want[:min(len(want), 30)]) {
			t.Fatalf("after %d × ], the text starts %q, want heading %q", i+1, got, want)
		}
	}
	m = appPress(m, "[")
	if got := firstTextRow(m.View()); !strings.HasPrefix(got, "## "+hs[2].Text[:min(len(hs[2].Text), 10)]) {
		t.Errorf("[ went to %q, want the previous heading %q", got, hs[2].Text)
	}
	sheet := flatText(appPress(m, "?").View())
	for _, want := range []string{"] next section", "[ previous section"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the ? sheet lacks %q:\n%s", want, sheet)
		}
	}
}

// tab opens the next chapter, and the ? sheet says so.
func TestReaderSheetAnnouncesTab(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "2")
	sheet := flatText(appPress(m, "?").View())
	for _, want := range []string{"n/tab next chapter", "N/shift+tab previous chapter"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the ? sheet lacks %q:\n%s", want, sheet)
		}
	}
	if got := course.Infos()[m.chapter().Chapter()].Title; !strings.HasPrefix(got, "02") {
		t.Fatalf("opened %q, want chapter 02", got)
	}
	if got := course.Infos()[appPress(m, "tab").chapter().Chapter()].Title; !strings.HasPrefix(got, "03") {
		t.Errorf("tab opened %q, want chapter 03", got)
	}
}

// At the end of the text there is no page down to offer.
func TestReaderAtEndOffersNoPageDown(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "2")
	appWant(t, m.View(), "space page down")
	m = appPress(m, "G")
	f := m.View()
	appWant(t, f, "100%")
	appLacks(t, f, "page down")
}

// A figure names its file from the repository root, and the file is there.
func TestReaderFigurePathExistsFromRoot(t *testing.T) {
	text := ansi.Strip(course.Text(course.Index(2), 80, true, true))
	svg := regexp.MustCompile(`[\w./-]+\.svg`).FindString(flatText(text))
	if svg == "" {
		t.Fatal("chapter 02 names no figure")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "..", "..", svg)); err != nil {
		t.Errorf("chapter 02's figure %q is not a path from the repository root: %v", svg, err)
	}
}

// A wide table keeps its columns at 80: one algorithm's cells sit on the
// rows of its name, beside the other algorithms', not stacked in records.
func TestReaderWideTablesStayComparable(t *testing.T) {
	rowWith := func(num int, a, b string) string {
		for _, l := range strings.Split(ansi.Strip(course.Text(course.Index(num), 80, true, true)), "\n") {
			if strings.Contains(l, a) && strings.Contains(l, b) {
				return l
			}
		}
		return ""
	}
	for _, c := range []struct {
		num  int
		a, b string
	}{
		{7, "Fixed", "~2L"},           // the selection table
		{7, "Leaky", "~R·W"},          // its last row
		{5, "sliding-counter", "3.2"}, // the worst-case search's timings
		{5, "80% of L", "0.92%"},      // the accuracy table
	} {
		l := rowWith(c.num, c.a, c.b)
		if l == "" {
			t.Errorf("chapter %02d at 80: no row holds both %q and %q", c.num, c.a, c.b)
		} else if ansi.StringWidth(strings.TrimRight(l, " ")) > 80 {
			t.Errorf("chapter %02d: %q runs past 80 columns", c.num, l)
		}
	}
}

// The status row counts wide lines in good English ("1 code lines" was not).
func TestReaderCountsWideLinesInWords(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "1")
	n := m.chapter().Wide()
	want := fmt.Sprintf("%d lines run past the edge", n)
	if n == 1 {
		want = "1 line runs past the edge"
	}
	appWant(t, m.View(), want)
}

// Chapter 09 offers no worked example of the lab: its "E3" is part of the
// test filter `E3[01]` (E30 and E31), not example E3.
func TestReaderChapter09OffersNoUnrelatedExample(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "9")
	appLacks(t, m.View(), "in the lab")
	if m = appPress(m, "enter"); m.scr() != scrChapter {
		t.Errorf("enter on chapter 09 opened %s", m.scr())
	}
}

// No line of a chapter ends in a number whose unit or next digit group
// starts the line below: chapter 04 read "116" / "000 001.", chapter 01
// "0.6" / "s", chapter 05 "2" / "shared cores".
func TestReaderKeepsNumbersWithTheirUnits(t *testing.T) {
	end := regexp.MustCompile(`[0-9]$`)
	start := regexp.MustCompile(`^([0-9]{3}\b|(s|ms|µs|ns|min|%|shared|cores|KB|MB|GB)([ ,.;:)]|$))`)
	for i, c := range course.Chapters() {
		for _, w := range []int{80, 100} {
			for _, plain := range []bool{true, false} {
				lines := strings.Split(ansi.Strip(course.Text(i, w, plain, true)), "\n")
				for j := 0; j+1 < len(lines); j++ {
					a, b := strings.TrimRight(lines[j], " "), strings.TrimSpace(lines[j+1])
					if strings.ContainsAny(a+b, "│|") || strings.HasPrefix(lines[j+1], "   ") {
						continue // a table's cells, or a grid's, wrap in their columns
					}
					if end.MatchString(a) && start.MatchString(b) {
						t.Errorf("chapter %02d at %d (plain %v): %q / %q", c.Num, w, plain, a[max(0, len(a)-25):], b[:min(len(b), 25)])
					}
				}
			}
		}
	}
}

// A list item's wrapped rows hang under its text, not under its bullet;
// a formula ("C + R·W") is not cut at its operator; a figure says which
// key draws its run in the terminal.
func TestReaderListsFormulasAndFigures(t *testing.T) {
	item := regexp.MustCompile(`^( +)(•|[0-9]+\.) `)
	for i, c := range course.Chapters() {
		for _, w := range []int{80, 100} {
			for _, plain := range []bool{true, false} {
				lines := strings.Split(ansi.Strip(course.Text(i, w, plain, true)), "\n")
				for j := 1; j < len(lines); j++ {
					a, b := lines[j-1], lines[j]
					if m := item.FindStringSubmatch(a); m != nil && strings.TrimSpace(b) != "" && !item.MatchString(b) &&
						len(b)-len(strings.TrimLeft(b, " ")) <= len(m[1]) {
						t.Errorf("chapter %02d at %d (plain %v): an item's second row is under its bullet: %q / %q", c.Num, w, plain, a, b)
					}
					if m := item.FindStringSubmatch(a); m != nil && !plain && strings.Contains(strings.TrimSpace(a[len(m[0]):]), "  ") {
						t.Errorf("chapter %02d at %d: an item's row holds a double space where rows were joined: %q", c.Num, w, a)
					}
					if strings.HasPrefix(strings.TrimSpace(b), "+ R·") {
						t.Errorf("chapter %02d at %d (plain %v): a formula cut at its operator: %q / %q", c.Num, w, plain, a, b)
					}
				}
			}
		}
	}
	text := flatText(ansi.Strip(course.Text(course.Index(2), 80, false, true)))
	appWant(t, text, "Figure: E1 through both fixed windows. Key 1 (E1 in the lab) draws this run in the terminal")
	appLacks(t, text, "open it in a browser")
	m := appPress(appNew(t, 80, 24), "2", "1")
	if m.scr() != scrLab || !strings.HasPrefix(m.lab().ScenarioName(), "cross-boundary-spike") {
		t.Errorf("key 1 in chapter 02 opens %q on %q, not E1 in the lab", m.scr(), m.lab().ScenarioName())
	}
}
