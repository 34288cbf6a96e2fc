package main

import (
	"strings"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	cloud "github.com/ratelimit-course/ratelimit/chapters/08-cloud"
)

// The chapter text lives in each chapter package (README.md, embedded); the
// app only parses it, so the course is written once.

// interactive names a view a chapter opens into.
type interactive int

const (
	ivNone interactive = iota
	ivLab
	ivWorst
	ivPrefetch
	ivTable // the chapter 07 selection table
)

type chapterEntry struct {
	num    int
	readme string
	views  []interactive
}

// uiChapters is the course in order.
var uiChapters = []chapterEntry{
	{1, framing.README, nil},
	{2, fixedwindow.README, nil},
	{3, "", nil},
	{4, buckets.README, nil},
	{5, lab.README, []interactive{ivLab, ivWorst}},
	{6, "", []interactive{ivPrefetch}},
	{7, "", nil},
	{8, cloud.README, nil},
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
			if p := firstParagraph(s.Body); p != "" {
				return p
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

func firstParagraph(body string) string {
	for _, p := range strings.Split(strings.TrimSpace(body), "\n\n") {
		if t := strings.TrimSpace(p); t != "" {
			return cleanInline(strings.Join(strings.Fields(t), " "))
		}
	}
	return ""
}

// cleanInline drops the markdown emphasis and code marks the terminal cannot show.
func cleanInline(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "`", "")
	return s
}

// markdownLines renders a README body for a terminal of width w: paragraphs
// and list items are wrapped, fenced code and tables are kept as written.
func markdownLines(body string, w int) []line {
	var out []line
	var para []string
	bullet := ""
	flushPara := func() {
		if len(para) == 0 {
			return
		}
		text := cleanInline(strings.Join(para, " "))
		if bullet != "" {
			ind := strings.Repeat(" ", uiWidth(bullet))
			for i, l := range uiWrap(text, w-uiWidth(bullet)) {
				if i == 0 {
					out = append(out, txt(bullet+l))
				} else {
					out = append(out, txt(ind+l))
				}
			}
		} else {
			for _, l := range uiWrap(text, w) {
				out = append(out, txt(l))
			}
		}
		para, bullet = para[:0], ""
	}
	fence := false
	for _, ln := range strings.Split(body, "\n") {
		t := strings.TrimSpace(ln)
		switch {
		case strings.HasPrefix(t, "```"):
			flushPara()
			fence = !fence
		case fence:
			out = append(out, sty(stCode, "  "+ln))
		case t == "":
			flushPara()
			if len(out) > 0 && len(out[len(out)-1]) > 0 && out[len(out)-1].plainText() != "" {
				out = append(out, txt(""))
			}
		case strings.HasPrefix(t, "|"):
			flushPara()
			out = append(out, sty(stCode, ln))
		case strings.HasPrefix(t, "### "), strings.HasPrefix(t, "#### "):
			flushPara()
			out = append(out, sty(stLabel, cleanInline(strings.TrimLeft(t, "# "))))
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			flushPara()
			bullet = "• "
			para = append(para, t[2:])
		case len(t) > 2 && t[0] >= '0' && t[0] <= '9' && strings.Contains(t[:min(4, len(t))], ". "):
			flushPara()
			i := strings.Index(t, ". ")
			bullet = t[:i+2]
			para = append(para, t[i+2:])
		default:
			para = append(para, t)
		}
	}
	flushPara()
	for len(out) > 0 && out[len(out)-1].plainText() == "" {
		out = out[:len(out)-1]
	}
	return out
}
