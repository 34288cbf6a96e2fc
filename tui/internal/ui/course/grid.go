package course

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	wrap "github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// A table too wide for the screen is drawn as a grid of aligned text rows:
// its columns keep their places, so one row can be read against another,
// and a cell too long for its column wraps within the column (text.Wrap,
// which keeps a number with its unit). glamour would
// squeeze the columns until headers read "Algorit…" and words split in two;
// one record per row keeps the words whole but cannot be compared. The grid
// is shown as code is, unwrapped: where even the longest word of every
// column does not fit, the rows run past the edge and scroll sideways.

// gridIndent is the columns a code block is indented by: the document's
// margin and the code block's (mdStyle), and one at the right edge.
const gridIndent = 1 + 2 + 1

// gridGap is the space between two columns.
const gridGap = "  "

// table is one top-level table of the markdown: its cells as plain text
// and the bytes of src it spans.
type table struct {
	rows       [][]string
	start, end int
}

// wideTables returns every top-level table of doc wider than w columns.
func wideTables(doc ast.Node, src []byte, w int) []table {
	var out []table
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() != east.KindTable {
			continue
		}
		var rows [][]string
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []string
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, inlineText(c, src))
			}
			rows = append(rows, cells)
		}
		if len(rows) < 2 || tableWidth(rows) <= w-2 {
			continue
		}
		if start, end := tableSpan(n, src); start >= 0 {
			out = append(out, table{rows, start, end})
		}
	}
	return out
}

// grid draws rows (the first is the header) in at most w columns where the
// longest word of each column allows it: each column as wide as its widest
// cell, then the widest columns narrowed in turn until the grid fits, none
// below its longest word.
func grid(rows [][]string, w int) string {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	widths := columnWidths(rows, n, w)
	var lines []string
	wrapped := false
	for k, r := range rows {
		row := gridRow(r, widths)
		if len(row) > 1 {
			wrapped = true
		}
		lines = append(lines, row...)
		if k == 0 {
			rule := make([]string, n)
			for i := range n {
				rule[i] = strings.Repeat("─", widths[i])
			}
			lines = append(lines, strings.Join(rule, gridGap))
		} else if k < len(rows)-1 {
			lines = append(lines, "") // a row's end, once any row takes two lines
		}
	}
	if !wrapped {
		lines = slices.DeleteFunc(lines, func(l string) bool { return l == "" })
	}
	return strings.Join(lines, "\n") + "\n"
}

// columnWidths returns the width of each of the n columns of rows: the
// widest cell, narrowed widest-first until the grid fits w columns, none
// below its longest word (the grid then runs past w).
func columnWidths(rows [][]string, n, w int) []int {
	widths, floor := make([]int, n), make([]int, n)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
			for _, word := range strings.Fields(wrap.Glue(c, "\u2423")) { // words Wrap keeps together
				floor[i] = max(floor[i], ansi.StringWidth(word))
			}
		}
	}
	avail := w - gridIndent - len(gridGap)*(n-1)
	for sum(widths) > avail {
		i := -1
		for j := range widths {
			if widths[j] > floor[j] && (i < 0 || widths[j]-floor[j] > widths[i]-floor[i]) {
				i = j
			}
		}
		if i < 0 {
			break // every column at its longest word: the rows run past the edge
		}
		widths[i]--
	}
	return widths
}

// gridRow returns the text lines of one row, each cell wrapped within its
// column and padded to it, a missing cell left blank.
func gridRow(r []string, widths []int) []string {
	n := len(widths)
	cells := make([][]string, n)
	height := 1
	for i := range n {
		if i < len(r) {
			cells[i] = wrap.Wrap(r[i], widths[i])
		}
		height = max(height, len(cells[i]))
	}
	lines := make([]string, 0, height)
	for y := range height {
		var b strings.Builder
		for i := range n {
			var s string
			if y < len(cells[i]) {
				s = cells[i][y]
			}
			if i < n-1 {
				s += strings.Repeat(" ", widths[i]-ansi.StringWidth(s)) + gridGap
			}
			b.WriteString(s)
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
