package text

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeepsNumbersWhole: a line breaks at a space, never inside a
// number or an identifier, and no line is wider than asked (in columns, not
// bytes: "×" and "≤" are one column each).
func TestWrapKeepsNumbersWhole(t *testing.T) {
	s := "so the estimate is 3 × 0.7 = 2.1 (the bound is 12,100) and give 1.50 / 2.47 ≤ L, sliding-counter"
	words := strings.Fields(s)
	for w := 15; w <= 40; w++ { // from the longest word up
		lines := Wrap(s, w)
		var got []string
		for _, l := range lines {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("width %d: line %q is %d columns", w, l, n)
			}
			got = append(got, strings.Fields(l)...)
		}
		if strings.Join(got, " ") != strings.Join(words, " ") {
			t.Errorf("width %d: words changed: %q", w, lines)
		}
	}
	if got := Wrap("abcdefghij", 4); len(got) != 3 || got[0] != "abcd" {
		t.Errorf("a word wider than the line is cut: %q", got)
	}
	if got := WrapHanging("one two three four", 10, "- ", "  "); strings.Join(got, "|") != "- one two|  three|  four" {
		t.Errorf("hanging: %q", got)
	}
}

// A number keeps its unit and its digit groups, and "ch" its number, on
// one line at every width: "116" / "000 001." and "0.6" / "s" were split.
func TestWrapKeepsUnitsAndGroupsWithTheirNumber(t *testing.T) {
	s := "an error of 116 000 001. Retry-After is 0.6 s, on 2 shared cores, L = 3 · ch 07 and 50 % of it"
	for _, keep := range []string{"116 000 001.", "0.6 s,", "2 shared", "L = 3", "ch 07", "50 %"} {
		for w := 14; w <= 60; w++ {
			if lines := Wrap(s, w); !strings.Contains(strings.Join(lines, "\n"), keep) {
				t.Errorf("width %d splits %q: %q", w, keep, lines)
				break
			}
		}
	}
	formula := "any window W can see about C + R·W: the burst you configured, 100 + 10 × 200 s in all"
	for _, keep := range []string{"C + R·W:", "100 + 10 × 200 s"} {
		for w := 20; w <= 60; w++ {
			if lines := Wrap(formula, w); !strings.Contains(strings.Join(lines, "\n"), keep) {
				t.Errorf("width %d splits %q: %q", w, keep, lines)
				break
			}
		}
	}
	if got := Glue("at 0, 333 333 333, then 1 000 ns; at 3 ms", "_"); got != "at 0, 333_333_333, then 1_000_ns; at 3_ms" {
		t.Errorf("Glue = %q", got)
	}
}
