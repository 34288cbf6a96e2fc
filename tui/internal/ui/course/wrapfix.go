package course

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// One more thing prepared in the markdown before glamour renders it, a
// glamour v1.0.0 behaviour a learner read wrong (wide tables: grid.go):
//
//   - Without colour, an inline code span is its text between backticks,
//     written as literal text: glamour's paragraph wrapper measures a line
//     with a code span a column or two short, and the document's second
//     wrap then cuts the last word of the line in two ("3 × 0." / "7",
//     "give 1." / "50").

// mdPunct is what a backslash escapes in literal text: the characters that
// could start markup there (glamour prints the backslash before others).
const mdPunct = "\\`*_[]<!#|"

// mdLiteral is s as markdown text that renders as s.
func mdLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '-':
			b.WriteString(mdHyphen) // as in running text: no break at a hyphen
		case r < 128 && strings.ContainsRune(mdPunct, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpanText is the edit that writes code span n as literal text between
// backticks.
func codeSpanText(n ast.Node, src []byte) (mdEdit, bool) {
	var parts []string
	start, end := -1, -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			return mdEdit{}, false
		}
		if start < 0 {
			start = t.Segment.Start
		}
		end = t.Segment.Stop
		parts = append(parts, string(t.Segment.Value(src)))
	}
	if start < 0 {
		return mdEdit{}, false
	}
	// Out to the backticks that open and close the span (and the one space
	// CommonMark strips inside them).
	for start > 0 && (src[start-1] == '`' || src[start-1] == ' ' && start > 1 && src[start-2] == '`') {
		start--
	}
	for end < len(src) && (src[end] == '`' || src[end] == ' ' && end+1 < len(src) && src[end+1] == '`') {
		end++
	}
	text := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	return mdEdit{start, end, "\\`" + mdLiteral(text) + "\\`"}, true
}

// tableWidth is the width glamour's table takes with every cell on one
// line: the widest cell of each column, three columns between them.
func tableWidth(rows [][]string) int {
	var cols []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(cols) {
				cols = append(cols, 0)
			}
			cols[i] = max(cols[i], ansi.StringWidth(c))
		}
	}
	w := 3 * max(len(cols)-1, 0)
	for _, c := range cols {
		w += c
	}
	return w + 2
}

// tableSpan is where table n's lines are in src: from the start of its
// header row's line to the end of its last row's line.
func tableSpan(n ast.Node, src []byte) (int, int) {
	first, last := -1, -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			if first < 0 {
				first = t.Segment.Start
			}
			last = t.Segment.Stop
		}
		return ast.WalkContinue, nil
	})
	if first < 0 {
		return -1, -1
	}
	start := bytes.LastIndexByte(src[:first], '\n') + 1
	end := len(src)
	if i := bytes.IndexByte(src[last:], '\n'); i >= 0 {
		end = last + i + 1
	}
	return start, end
}

// flattenLists writes every top-level tight list whose items are one line of
// text each (prepareMarkdown has joined their lines) as one paragraph, an
// item a line: "• text" (or "3. text"), hard line breaks between them.
// glamour wraps a list item's text a column or two too wide, and its
// document wrap then cuts the last word in two ("12," / "100)"); a
// paragraph it wraps right.
func flattenLists(src []byte) string {
	doc := mdParser.Parse(text.NewReader(src))
	var edits []mdEdit
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		l, ok := n.(*ast.List)
		if !ok || !l.IsTight {
			continue
		}
		type item struct{ start, text, end int }
		var items []item
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			c := it.FirstChild()
			if c == nil || c.NextSibling() != nil || c.Kind() != ast.KindTextBlock || c.Lines().Len() != 1 {
				items = nil
				break
			}
			seg := c.Lines().At(0)
			start := bytes.LastIndexByte(src[:seg.Start], '\n') + 1
			items = append(items, item{start, seg.Start, seg.Stop})
		}
		if len(items) == 0 {
			continue
		}
		for i, it := range items {
			mark := "• "
			if l.IsOrdered() {
				mark = fmt.Sprintf("%d\\. ", l.Start+i)
			}
			if i == 0 {
				mark = "\n" + mark // a paragraph of its own
			}
			edits = append(edits, mdEdit{it.start, it.text, mark})
			if i < len(items)-1 {
				end := bytes.TrimRight(src[it.text:it.end], " \r\n")
				edits = append(edits, mdEdit{it.text + len(end), it.text + len(end), "\\"})
			}
		}
	}
	slices.SortFunc(edits, func(a, b mdEdit) int { return b.start - a.start })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.repl), out[e.end:])
	}
	return string(out)
}

// itemRow is a rendered row that starts a list's item: the margin (and a
// nested list's indent), then "• " or "3. ".
var itemRow = regexp.MustCompile(`^( +)(•|[0-9]+\.) `)

// hangItems indents the rows an item of a list wraps onto under the item's
// text, not under its mark: glamour wraps a flattened list's paragraph at
// the margin, and a nested list's items at their mark. Each item's rows
// are joined and wrapped again, w columns wide with a margin of one
// column each side.
func hangItems(out string, w int) string {
	rows := strings.Split(out, "\n")
	var b []string
	for i := 0; i < len(rows); i++ {
		found := itemRow.FindStringSubmatch(ansi.Strip(rows[i]))
		if found == nil {
			b = append(b, rows[i])
			continue
		}
		mark, indent := found[0], len(found[1])
		item := trimRightCells(rows[i])
		j := i + 1
		for ; j < len(rows); j++ {
			plain := ansi.Strip(rows[j])
			if strings.TrimSpace(plain) == "" || itemRow.MatchString(plain) || !strings.HasPrefix(plain, found[1]) ||
				strings.HasPrefix(plain, found[1]+" ") || strings.Contains(plain, "RATELIMITCODEBLOCK") {
				break
			}
			item += " " + trimRightCells(ansi.TruncateLeft(rows[j], indent, ""))
		}
		if j == i+1 {
			b = append(b, rows[i])
			continue
		}
		m := ansi.StringWidth(mark)
		text := ansi.Wordwrap(ansi.TruncateLeft(item, m, ""), max(w-1-m, 10), "")
		for k, l := range strings.Split(text, "\n") {
			lead := strings.Repeat(" ", m)
			if k == 0 {
				lead = mark
			}
			b = append(b, lead+strings.TrimLeft(l, " "))
		}
		i = j - 1
	}
	return strings.Join(b, "\n")
}

// trimRightCells is row without the spaces it ends with, styled or not
// (glamour pads a row to the width inside its styles' sequences).
func trimRightCells(row string) string {
	return ansi.Truncate(row, ansi.StringWidth(strings.TrimRight(ansi.Strip(row), " ")), "")
}
