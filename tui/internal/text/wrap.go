package text

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// glue stands for a space Glue keeps while Wrap splits s into words.
const glue = "\u2423"

// Wrap breaks s into lines of at most width display columns, at spaces
// only: a number ("0.7", "12,100") or an identifier stays on one line, and
// so do the words Glue keeps together ("0.6 s", "116 000 001"). Runs of
// spaces collapse to one. A word wider than a line is cut, the one break a
// line's width forces. Escape sequences (colour) take no columns.
func Wrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	cur, curW := "", 0
	for _, word := range strings.Fields(Glue(s, glue)) {
		word = strings.ReplaceAll(word, glue, " ")
		ww := ansi.StringWidth(word)
		switch {
		case curW > 0 && curW+1+ww <= width:
			cur, curW = cur+" "+word, curW+1+ww
			continue
		case curW > 0:
			lines = append(lines, cur)
		}
		for ww > width { // the one break a line's width forces
			lines = append(lines, ansi.Cut(word, 0, width))
			word = ansi.Cut(word, width, ww)
			ww = ansi.StringWidth(word)
		}
		cur, curW = word, ww
	}
	return append(lines, cur)
}

// WrapHanging is Wrap with a lead on each line: first on the first, rest on
// the others, all within width.
func WrapHanging(s string, width int, first, rest string) []string {
	room := width - max(ansi.StringWidth(first), ansi.StringWidth(rest))
	lines := Wrap(s, room)
	for i := range lines {
		lead := rest
		if i == 0 {
			lead = first
		}
		lines[i] = lead + lines[i]
	}
	return lines
}
