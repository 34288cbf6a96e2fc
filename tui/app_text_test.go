package main

import (
	"fmt"
	"strings"
	"testing"
)

// Every word of every chapter README reaches the screen: the layout may
// rewrap, drop markdown marks and turn wide tables into blocks, but it must
// not lose text. Words are compared without markdown marks and table pipes.
func TestChapterTextNotLost(t *testing.T) {
	for _, w := range []int{78, 118} {
		for i, c := range uiChapters {
			var b strings.Builder
			for _, l := range chapterLines(i, w) {
				b.WriteString(l.plainText())
				b.WriteString(" ")
				if uiWidth(l.plainText()) > w {
					t.Errorf("chapter %d at %d: line wider than the text column: %q", c.num, w, l.plainText())
				}
			}
			screen := strings.Join(strings.Fields(b.String()), " ")
			got := map[string]int{}
			for _, f := range strings.Fields(screen) {
				got[f]++
			}
			d := parseReadme(c.readme)
			src := d.Summary
			for _, s := range d.Sections {
				src += "\n" + s.Body
			}
			want := map[string]int{}
			for _, ln := range strings.Split(src, "\n") {
				tl := strings.TrimSpace(ln)
				if strings.HasPrefix(tl, "<!--") || strings.HasPrefix(tl, "```") {
					continue
				}
				if strings.HasPrefix(tl, "|") && strings.Trim(tl, "|-: ") == "" {
					continue // table separator row
				}
				for _, f := range strings.Fields(cleanInline(strings.ReplaceAll(tl, "|", " "))) {
					if f == "-" || f == "*" {
						continue
					}
					want[f]++
				}
			}
			var lost []string
			for f, n := range want {
				if got[f] < n && !strings.Contains(screen, f) {
					lost = append(lost, fmt.Sprintf("%q", f))
				}
			}
			if len(lost) > 0 {
				t.Errorf("chapter %d at width %d lost words: %s", c.num, w, strings.Join(lost, " "))
			}
		}
	}
}

func plainLines(ls []line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.plainText()
	}
	return out
}

// Tables lose their markup; code wider than the screen is wrapped, never cut;
// a block indented four spaces is code, not a paragraph.
func TestMarkdownTablesAndCode(t *testing.T) {
	got := plainLines(markdownLines("| E13 | allowed |\n|---|---|\n| `central` | **8** |\n| prefetch | 6 |", 40))
	want := []string{"E13       allowed", "─────────────────", "central   8", "prefetch  6"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fitting table:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = plainLines(markdownLines("| algo | found | why |\n|---|---|---|\n| fixed | 6 | two aligned windows each admit L |", 30))
	want = []string{"algo: fixed", "  found: 6", "  why: two aligned windows", "    each admit L"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wide table:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = plainLines(markdownLines("Run:\n\n    go test ./chapters/06-distributed/ -run 'E9|E10'   # the worked examples\n    make bench\n\nAfter.", 40))
	want = []string{"Run:", "", "  # the worked examples", "  go test ./chapters/06-distributed/", "      -run 'E9|E10'", "  make bench", "", "After."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("indented code:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
