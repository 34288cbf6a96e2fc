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
