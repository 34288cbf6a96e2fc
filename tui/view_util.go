package main

import (
	"strings"
	"unicode/utf8"
)

// A view is built as lines of styled segments and only painted at the very
// end, so every line is cut or padded to the terminal width on plain text,
// where widths are known, never on escape sequences.

// seg is a run of text in one style.
type seg struct {
	text string
	st   styleID
}

// line is one screen row.
type line []seg

func txt(s string) line                      { return line{{s, stNone}} }
func sty(st styleID, s string) line          { return line{{s, st}} }
func (l line) add(st styleID, s string) line { return append(l, seg{s, st}) }

// uiRuneWidth is the terminal width of r: 0 for combining marks, 2 for East
// Asian wide and emoji ranges, 1 otherwise (every glyph the course draws).
func uiRuneWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r <= 0x36F:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1FAFF, r >= 0x20000:
		return 2
	}
	return 1
}

// uiWidth is the display width of plain text.
func uiWidth(s string) int {
	n := 0
	for _, r := range s {
		n += uiRuneWidth(r)
	}
	return n
}

// uiCut returns the longest prefix of s that fits in w columns.
func uiCut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := 0
	for i, r := range s {
		rw := uiRuneWidth(r)
		if n+rw > w {
			return s[:i]
		}
		n += rw
	}
	return s
}

// uiFit cuts or pads s to exactly w columns.
func uiFit(s string, w int) string {
	s = uiCut(s, w)
	if n := uiWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// uiEllipsis cuts s to w columns, ending in "…" when something was cut.
func uiEllipsis(s string, w int) string {
	if uiWidth(s) <= w {
		return s
	}
	if w <= 1 {
		return uiCut(s, w)
	}
	return uiCut(s, w-1) + "…"
}

// render paints a line cut and padded to exactly w columns.
func (l line) render(w int, th theme) string {
	var b strings.Builder
	left := w
	for _, sg := range l {
		if left <= 0 {
			break
		}
		t := uiCut(sg.text, left)
		left -= uiWidth(t)
		b.WriteString(th.paint(sg.st, t))
	}
	if left > 0 {
		b.WriteString(strings.Repeat(" ", left))
	}
	return b.String()
}

// titleBar is a screen's first row: l, cut to leave room, then "? help"
// at the right edge.
func titleBar(l line, w int) line {
	l = cutLine(l, w-8)
	return append(l, seg{strings.Repeat(" ", max(1, w-6-uiWidth(l.plainText()))), stNone}, seg{"? help", stDim})
}

// cutLine trims a line's segments to w columns.
func cutLine(l line, w int) line {
	var out line
	for _, s := range l {
		if w <= 0 {
			break
		}
		t := uiCut(s.text, w)
		w -= uiWidth(t)
		out = append(out, seg{t, s.st})
	}
	return out
}

// plainText is the line's text without styles.
func (l line) plainText() string {
	var b strings.Builder
	for _, sg := range l {
		b.WriteString(sg.text)
	}
	return b.String()
}

// compose renders exactly h rows of exactly w columns: the lines that fit,
// then blank rows. The bottom rows (footer) stay pinned to the last lines.
func compose(body []line, footer []line, w, h int, th theme) string {
	rows := make([]string, 0, h)
	room := h - len(footer)
	if room < 0 {
		room = 0
	}
	for i := 0; i < room; i++ {
		if i < len(body) {
			rows = append(rows, body[i].render(w, th))
		} else {
			rows = append(rows, strings.Repeat(" ", w))
		}
	}
	for i := 0; i < len(footer) && len(rows) < h; i++ {
		rows = append(rows, footer[i].render(w, th))
	}
	return strings.Join(rows, "\n")
}

// uiWrap wraps plain text into lines of at most w columns, breaking at spaces
// (a word longer than w is cut).
func uiWrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	words := strings.Fields(s)
	var out []string
	cur := ""
	for _, word := range words {
		for uiWidth(word) > w {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			head := uiCut(word, w)
			out = append(out, head)
			word = word[len(head):]
		}
		switch {
		case cur == "":
			cur = word
		case uiWidth(cur)+1+uiWidth(word) <= w:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = word
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// canvas is a grid of styled cells, used for the timelines and bars.
type canvas struct {
	w     int
	runes [][]rune
	sts   [][]styleID
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, runes: make([][]rune, h), sts: make([][]styleID, h)}
	for y := range c.runes {
		c.runes[y] = []rune(strings.Repeat(" ", w))
		c.sts[y] = make([]styleID, w)
	}
	return c
}

func (c *canvas) set(x, y int, r rune, st styleID) {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return
	}
	c.runes[y][x] = r
	c.sts[y][x] = st
}

func (c *canvas) get(x, y int) rune {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return 0
	}
	return c.runes[y][x]
}

// text writes s from column x, cell by cell.
func (c *canvas) text(x, y int, s string, st styleID) {
	for _, r := range s {
		c.set(x, y, r, st)
		x++
	}
}

// row converts one canvas row into a line, one segment per run of a style.
func (c *canvas) row(y int) line {
	var l line
	rs, ss := c.runes[y], c.sts[y]
	start := 0
	for x := 1; x <= len(rs); x++ {
		if x == len(rs) || ss[x] != ss[start] {
			l = append(l, seg{string(rs[start:x]), ss[start]})
			start = x
		}
	}
	return l
}

// uiRuneLen is the number of runes in s.
func uiRuneLen(s string) int { return utf8.RuneCountInString(s) }
