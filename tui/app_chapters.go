package main

import (
	"regexp"
	"strings"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// The chapter text is embedded once, by package chapters; the app only
// parses it, so the course is written once.

// interactive names a view a chapter opens into.
type interactive int

const (
	ivNone interactive = iota
	ivLab
	ivWorst
	ivPrefetch
	ivDrill // the chapter 07 question cards
)

type chapterEntry struct {
	num    int
	readme string
	views  []interactive
}

// uiChapters is the course in order.
var uiChapters = []chapterEntry{
	{1, chapters.README(1), nil},
	{2, chapters.README(2), nil},
	{3, chapters.README(3), nil},
	{4, chapters.README(4), nil},
	{5, chapters.README(5), []interactive{ivLab, ivWorst}},
	{6, chapters.README(6), []interactive{ivPrefetch}},
	{7, chapters.README(7), []interactive{ivDrill}},
	{8, chapters.README(8), nil},
	{9, chapters.README(9), nil},
}

// chapterDoc is a README split into its parts.
type chapterDoc struct {
	Title    string // after "# ", e.g. "05 · The lab: …"
	Summary  string // the paragraph(s) before the first "##"
	Sections []docSection
}

type docSection struct {
	Heading string
	Body    string
}

// parseReadme splits a chapter README at its level-1 and level-2 headings.
// Headings inside fenced code blocks are text, not structure.
func parseReadme(s string) chapterDoc {
	var d chapterDoc
	var body []string
	cur := -1 // -1: summary
	flush := func() {
		text := strings.Trim(strings.Join(body, "\n"), "\n")
		if cur < 0 {
			if d.Summary == "" {
				d.Summary = text
			}
		} else {
			d.Sections[cur].Body = text
		}
		body = body[:0]
	}
	fence := false
	for _, ln := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(ln), "```") {
			fence = !fence
		}
		switch {
		case !fence && strings.HasPrefix(ln, "# ") && d.Title == "":
			d.Title = strings.TrimSpace(ln[2:])
		case !fence && strings.HasPrefix(ln, "## "):
			flush()
			d.Sections = append(d.Sections, docSection{Heading: strings.TrimSpace(ln[3:])})
			cur = len(d.Sections) - 1
		default:
			body = append(body, ln)
		}
	}
	flush()
	return d
}

// section returns the body of the first section whose heading starts with
// name (case-insensitive), or "".
func (d chapterDoc) section(name string) string {
	for _, s := range d.Sections {
		if strings.HasPrefix(strings.ToLower(s.Heading), strings.ToLower(name)) {
			return s.Body
		}
	}
	return ""
}

// chapterTitle is the menu entry for a chapter.
func chapterTitle(c chapterEntry) string {
	d := parseReadme(c.readme)
	if d.Title != "" {
		return d.Title
	}
	return "0" + string(rune('0'+c.num)) + " · (chapter not written yet)"
}

// firstSentence cuts a paragraph after its first sentence ('.', '!' or '?'
// followed by a space or the end).
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			return s[:i+1]
		}
	}
	return s
}

// suggestedPath finds the lab's suggested path in the chapter 05 README: a
// section whose heading mentions a path, else the first paragraph anywhere
// that mentions "suggested path" or "path:". It returns "" when there is none.
func suggestedPath(readme string) string {
	d := parseReadme(readme)
	for _, s := range d.Sections {
		if strings.Contains(strings.ToLower(s.Heading), "path") {
			var ps []string
			for _, p := range strings.Split(strings.TrimSpace(s.Body), "\n\n") {
				if t := strings.TrimSpace(p); t != "" {
					ps = append(ps, cleanInline(strings.Join(strings.Fields(t), " ")))
				}
			}
			if len(ps) > 0 {
				return strings.Join(ps, "\n\n")
			}
		}
	}
	for _, s := range append([]docSection{{Body: d.Summary}}, d.Sections...) {
		for _, p := range strings.Split(s.Body, "\n\n") {
			lp := strings.ToLower(p)
			if strings.Contains(lp, "suggested path") || strings.Contains(lp, "path:") {
				return cleanInline(strings.Join(strings.Fields(p), " "))
			}
		}
	}
	return ""
}

var (
	mdEmphasis = regexp.MustCompile(`(^|[^\w*])[*_]([^*_\s](?:[^*_]*[^*_\s])?)[*_]`)
	mdLink     = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
)

// cleanInline drops the markdown marks a terminal cannot show: bold,
// emphasis (not the * of R*W), code ticks, link targets.
func cleanInline(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "`", "")
	s = mdLink.ReplaceAllString(s, "$1")
	return mdEmphasis.ReplaceAllString(s, "$1$2")
}

// markdownLines renders a README body for a terminal of width w: paragraphs
// and list items are wrapped, code (fenced, or indented four spaces after a
// blank line) is kept as written unless it is wider than w (codeLines),
// HTML comments are dropped, and tables are laid out by tableLines.
func markdownLines(body string, w int) []line {
	var out []line
	var para []string
	var table []string
	bullet, indent := "", ""
	flushPara := func() {
		if len(para) == 0 {
			return
		}
		text := cleanInline(strings.Join(para, " "))
		lead := indent + bullet
		for i, l := range uiWrap(text, w-uiWidth(lead)) {
			if i == 0 {
				out = append(out, txt(lead+l))
			} else {
				out = append(out, txt(strings.Repeat(" ", uiWidth(lead))+l))
			}
		}
		para, bullet, indent = para[:0], "", ""
	}
	flushTable := func() {
		if len(table) > 0 {
			out = append(out, tableLines(table, w)...)
			table = table[:0]
		}
	}
	fence, indented := false, false
	for _, ln := range strings.Split(body, "\n") {
		t := strings.TrimSpace(ln)
		if !fence && !strings.HasPrefix(t, "|") {
			flushTable()
		}
		spaces := len(ln) - len(strings.TrimLeft(ln, " "))
		// An indented code block starts after a blank line (no paragraph
		// open) and runs until a line indented less.
		indented = !fence && t != "" && spaces >= 4 && (indented || len(para) == 0)
		lead := strings.Repeat(" ", min(4, spaces))
		switch {
		case strings.HasPrefix(t, "```"):
			flushPara()
			fence = !fence
		case fence:
			out = append(out, codeLines(ln, w)...)
		case indented:
			out = append(out, codeLines(ln[4:], w)...)
		case strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->"):
			// generated-section markers
		case t == "":
			flushPara()
			if len(out) > 0 && out[len(out)-1].plainText() != "" {
				out = append(out, txt(""))
			}
		case strings.HasPrefix(t, "|"):
			flushPara()
			table = append(table, t)
		case strings.HasPrefix(t, "### "), strings.HasPrefix(t, "#### "):
			flushPara()
			out = append(out, sty(stLabel, cleanInline(strings.TrimLeft(t, "# "))))
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			flushPara()
			bullet, indent = "• ", lead
			para = append(para, t[2:])
		case len(t) > 2 && t[0] >= '0' && t[0] <= '9' && strings.Contains(t[:min(4, len(t))], ". "):
			flushPara()
			i := strings.Index(t, ". ")
			bullet, indent = t[:i+2], lead
			para = append(para, t[i+2:])
		default:
			para = append(para, t)
		}
	}
	flushPara()
	flushTable()
	for len(out) > 0 && out[len(out)-1].plainText() == "" {
		out = out[:len(out)-1]
	}
	return out
}

// codeLines shows one line of code indented by two. A line too wide for w is
// never cut: its trailing "# comment" moves to a line of its own above it,
// and what is still too wide continues on the next lines, indented further,
// so every command stays whole on screen.
func codeLines(ln string, w int) []line {
	ln = strings.TrimRight(ln, " ")
	if uiWidth(ln)+2 <= w {
		return []line{sty(stCode, "  "+ln)}
	}
	var out []line
	indent := ln[:len(ln)-len(strings.TrimLeft(ln, " "))]
	if i := strings.Index(ln, "  #"); i > 0 && strings.TrimSpace(ln[:i]) != "" {
		for _, l := range uiWrap(strings.TrimSpace(ln[i:]), w-2-len(indent)) {
			out = append(out, sty(stCode, "  "+indent+l))
		}
		ln = strings.TrimRight(ln[:i], " ")
	}
	for i, l := range wrapHanging(strings.TrimSpace(ln), w-2-len(indent), w-6-len(indent)) {
		lead := "  " + indent
		if i > 0 {
			lead += "    "
		}
		out = append(out, sty(stCode, lead+l))
	}
	return out
}

// wrapHanging wraps s to w0 columns on its first line and w1 on the rest.
func wrapHanging(s string, w0, w1 int) []string {
	s = strings.Join(strings.Fields(s), " ") // uiWrap's first line is then a prefix of s
	first := uiWrap(s, w0)
	if len(first) <= 1 {
		return first
	}
	return append(first[:1:1], uiWrap(strings.TrimSpace(s[len(first[0]):]), w1)...)
}

// tableLines renders markdown table rows without their markup. A table whose
// columns fit in w is laid out as aligned columns under its header; a wider
// one becomes a block per row: the first cell as a title, then
// "Header: cell" lines wrapped under it.
func tableLines(rows []string, w int) []line {
	var cells [][]string
	for _, r := range rows {
		r = strings.TrimSpace(r)
		r = strings.TrimSuffix(strings.TrimPrefix(r, "|"), "|")
		var cs []string
		sep := true
		for _, c := range strings.Split(r, "|") {
			c = strings.TrimSpace(c)
			if strings.Trim(c, "-: ") != "" {
				sep = false
			}
			cs = append(cs, cleanInline(c))
		}
		if !sep {
			cells = append(cells, cs)
		}
	}
	if len(cells) == 0 {
		return nil
	}
	head := cells[0]
	var widths []int
	for _, r := range cells {
		for j, c := range r {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], uiWidth(c))
		}
	}
	total := 2 * (len(widths) - 1)
	for _, cw := range widths {
		total += cw
	}
	if total <= w || len(cells) < 2 {
		var out []line
		for i, r := range cells {
			var b strings.Builder
			for j, c := range r {
				if j > 0 {
					b.WriteString("  ")
				}
				if j < len(r)-1 {
					c = uiFit(c, widths[j])
				}
				b.WriteString(c)
			}
			st := stNone
			if i == 0 && len(cells) > 1 {
				st = stLabel
			}
			out = append(out, sty(st, strings.TrimRight(b.String(), " ")))
			if i == 0 && len(cells) > 1 {
				out = append(out, sty(stDim, strings.Repeat("─", min(total, w))))
			}
		}
		return out
	}
	var out []line
	for _, r := range cells[1:] {
		title := line{{r[0], stLabel}}
		if head[0] != "" {
			title = line{{head[0] + ": ", stDim}, {r[0], stLabel}}
		}
		out = append(out, title)
		for j := 1; j < len(r) && j < len(head); j++ {
			lead := "  " + head[j] + ": "
			hang := strings.Repeat(" ", 4)
			for i, l := range wrapHanging(r[j], w-uiWidth(lead), w-len(hang)) {
				if i == 0 {
					out = append(out, line{{lead, stDim}, {l, stNone}})
				} else {
					out = append(out, txt(hang+l))
				}
			}
		}
	}
	return out
}
