package course

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	gansi "github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/ratelimit-course/ratelimit/chapters"
	wrap "github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Chapter text is the chapter's README rendered by glamour. Three things are
// prepared in the markdown first, each one a known glamour v1.0.0 behaviour
// that would cost a learner the text:
//
//   - A code block is rendered on its own, without word wrap: glamour wraps
//     every line of a document to the width, commands included, and a
//     wrapped command copied from the screen is a different command
//     (issue 13, friction 9). Long lines stay long; the viewport scrolls
//     sideways.
//   - Hyphens in running text become non-breaking (U+2011) while glamour
//     wraps, and plain hyphens again after: its paragraph wrapper breaks at
//     a hyphen and miscounts the line, which the document's second wrap
//     then splits again, leaving one-word lines.
//   - A list item's source lines are joined: glamour keeps the newlines of
//     a tight list item and only wraps what is too long, so every source
//     line ending near the width leaves its last word alone on a line.
//
// The markdown's structure comes from goldmark (the parser glamour uses);
// nothing here renders markdown.

// mdStyle picks glamour's style: plain (no colour, no escapes: NO_COLOR or
// no colour terminal) or the dark or light one, for 80 columns and up.
func mdStyle(plain, dark bool) gansi.StyleConfig {
	one := ptr(uint(1)) // the viewport scrolls sideways over the margin too
	if plain {
		s := styles.ASCIIStyleConfig
		s.Document.Margin = one
		s.CodeBlock.Margin = ptr(uint(2))
		// Bold and italic cannot show without escapes; their marks would
		// only clutter the text. Code keeps its backticks: it is what to type.
		s.Strong.BlockPrefix, s.Strong.BlockSuffix = "", ""
		s.Emph.BlockPrefix, s.Emph.BlockSuffix = "", ""
		s.Code.Prefix, s.Code.Suffix = "`", "`"
		return s
	}
	s := styles.DarkStyleConfig
	if !dark {
		s = styles.LightStyleConfig
	}
	s.Document.Margin = one
	// The code style's padding spaces are not counted by glamour's wrapper:
	// a line holding code ran a column or two past the width and its last
	// word was cut in two. The colour marks code well enough without them.
	s.Code.Prefix, s.Code.Suffix = "", ""
	s.List.LevelIndent = styles.ASCIIStyleConfig.List.LevelIndent // as without colour: nested items wrap right
	return s
}

func ptr[T any](v T) *T { return &v }

var mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()

// mdEdit replaces src[start:end] with repl.
type mdEdit struct {
	start, end int
	repl       string
}

const mdHyphen = "\u2011"

// mdGlue stands for a space that must not become a line break.
const mdGlue = "\u2423"

// prepareMarkdown returns the README with its top-level code blocks replaced
// by placeholder paragraphs (and the blocks themselves, in order), hyphens
// in running text made non-breaking, and the lines of paragraphs and list
// items joined.
func prepareMarkdown(src []byte, w int, plain bool) (prose string, blocks []string) {
	doc := mdParser.Parse(text.NewReader(src))
	edits, blocks := codeBlocks(doc, src)
	for _, t := range wideTables(doc, src, w) {
		edits = append(edits, mdEdit{t.start, t.end, "\n" + mdPlaceholder(len(blocks)) + "\n\n"})
		blocks = append(blocks, "```\n"+grid(t.rows, w)+"```\n")
	}
	edits = proseEdits(doc, src, plain, edits)
	// The spaces that must not break (a number and its unit, the groups of
	// a number) are written as mdGlue while glamour wraps.
	return glueProse(flattenLists(applyEdits(src, edits))), blocks
}

// mdLineStart returns the offset in src of the start of the line holding i.
func mdLineStart(src []byte, i int) int { return bytes.LastIndexByte(src[:i], '\n') + 1 }

// mdLineEnd returns the offset in src just after the '\n' of the line
// holding i, or len(src) on the last line.
func mdLineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// codeBlocks returns an edit replacing each top-level code block of doc
// (fences included) by a placeholder paragraph, and the blocks' text in
// the same order.
func codeBlocks(doc ast.Node, src []byte) (edits []mdEdit, blocks []string) {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		lines := n.Lines()
		if n.Kind() != ast.KindFencedCodeBlock && n.Kind() != ast.KindCodeBlock || lines.Len() == 0 {
			continue
		}
		start := mdLineStart(src, lines.At(0).Start)
		end := mdLineEnd(src, lines.At(lines.Len()-1).Stop-1)
		if n.Kind() == ast.KindFencedCodeBlock {
			if start > 0 {
				start = mdLineStart(src, start-1) // the opening fence
			}
			if end < len(src) {
				if f := bytes.TrimSpace(src[end:mdLineEnd(src, end)]); bytes.HasPrefix(f, []byte("```")) || bytes.HasPrefix(f, []byte("~~~")) {
					end = mdLineEnd(src, end) // the closing fence
				}
			}
		}
		edits = append(edits, mdEdit{start, end, "\n" + mdPlaceholder(len(blocks)) + "\n\n"})
		// A tab is one character but several columns, which no width
		// measure agrees on: code is shown with four spaces per tab.
		blocks = append(blocks, strings.ReplaceAll(string(src[start:end]), "\t", "    "))
	}
	return edits, blocks
}

// proseEdits appends to edits those of the running text outside code
// blocks, HTML and tables: hyphens made non-breaking, the lines of a
// paragraph joined, and (plain) code spans written as text. A code span's
// edit replaces any already made inside it.
func proseEdits(doc ast.Node, src []byte, plain bool, edits []mdEdit) []mdEdit {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock, east.KindTable:
			return ast.WalkSkipChildren, nil
		case ast.KindCodeSpan:
			if e, ok := codeSpanText(n, src); ok && plain {
				edits = append(slices.DeleteFunc(edits, func(d mdEdit) bool { return d.start >= e.start && d.end <= e.end }), e)
				return ast.WalkSkipChildren, nil
			}
			// In colour a code span stays code; its hyphens, like those of
			// running text, must not be where glamour breaks and miscounts.
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					edits = hyphenEdits(edits, src, t.Segment.Start, t.Segment.Stop)
				}
			}
			return ast.WalkSkipChildren, nil
		case ast.KindParagraph, ast.KindTextBlock:
			edits = joinEdits(edits, src, n.Lines())
		case ast.KindText:
			seg := n.(*ast.Text).Segment
			edits = hyphenEdits(edits, src, seg.Start, seg.Stop)
		}
		return ast.WalkContinue, nil
	})
	return edits
}

// hyphenEdits appends an edit making each hyphen of src[start:stop]
// non-breaking.
func hyphenEdits(edits []mdEdit, src []byte, start, stop int) []mdEdit {
	for p := start; p < stop; p++ {
		if src[p] == '-' {
			edits = append(edits, mdEdit{p, p + 1, mdHyphen})
		}
	}
	return edits
}

// joinEdits appends an edit turning each line break between lines into a
// space, except a hard line break (two spaces or a backslash at the end).
func joinEdits(edits []mdEdit, src []byte, lines *text.Segments) []mdEdit {
	for i := 0; i+1 < lines.Len(); i++ {
		a, b := lines.At(i), lines.At(i+1)
		content := bytes.TrimRight(src[a.Start:a.Stop], "\r\n")
		if bytes.HasSuffix(content, []byte("  ")) || bytes.HasSuffix(content, []byte("\\")) {
			continue // a hard line break stays
		}
		if cut := a.Start + len(content); cut < b.Start {
			edits = append(edits, mdEdit{cut, b.Start, " "})
		}
	}
	return edits
}

// applyEdits returns a copy of src with edits made, the last in src first;
// an edit inside the span of one already made is dropped.
func applyEdits(src []byte, edits []mdEdit) []byte {
	slices.SortFunc(edits, func(a, b mdEdit) int { return b.start - a.start })
	out := slices.Clone(src)
	last := len(src) + 1
	for _, e := range edits {
		if e.end > last {
			continue // inside a block already replaced
		}
		out = slices.Concat(out[:e.start], []byte(e.repl), out[e.end:])
		last = e.start
	}
	return out
}

// nestedItem is a list item inside another: glamour wraps those a few
// columns too wide and its second wrap cuts the line where it overflows,
// so a glued number there would be cut in two rather than moved whole.
var nestedItem = regexp.MustCompile(`^\s+([-*+]|[0-9]+[.)]) `)

// glueProse writes the spaces of prose that must not break as mdGlue,
// except in nested list items.
func glueProse(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !nestedItem.MatchString(l) {
			lines[i] = wrap.Glue(l, mdGlue)
		}
	}
	return strings.Join(lines, "\n")
}

func mdPlaceholder(i int) string { return fmt.Sprintf("RATELIMITCODEBLOCK%dX", i) }

// renderMarkdown renders src for a screen w columns wide (the text is w-2,
// within a margin of one column each side).
func renderMarkdown(src string, w int, plain, dark bool) (string, error) {
	prose, blocks := prepareMarkdown([]byte(src), w, plain)
	profile := termenv.Ascii
	if !plain {
		profile = lipgloss.ColorProfile()
	}
	style := mdStyle(plain, dark)
	// The newlines left in the prose are hard line breaks (prepareMarkdown
	// joined the others): the rows of a list, the lines of a table's record.
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(w), glamour.WithColorProfile(profile), glamour.WithPreservedNewLines())
	if err != nil {
		return "", err
	}
	out, err := r.Render(prose)
	if err != nil {
		return "", err
	}
	out = strings.ReplaceAll(strings.ReplaceAll(hangItems(out, w), mdHyphen, "-"), mdGlue, " ")
	if len(blocks) == 0 {
		return out, nil
	}
	// Code: a width of 0 is glamour's "do not wrap".
	cr, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(0), glamour.WithColorProfile(profile))
	if err != nil {
		return "", err
	}
	lines := strings.Split(out, "\n")
	var b strings.Builder
	for _, l := range lines {
		i := strings.Index(l, "RATELIMITCODEBLOCK")
		if i < 0 {
			b.WriteString(l + "\n")
			continue
		}
		var k int
		if _, err := fmt.Sscanf(l[i:], "RATELIMITCODEBLOCK%dX", &k); err != nil || k < 0 || k >= len(blocks) {
			b.WriteString(l + "\n")
			continue
		}
		code, err := cr.Render(blocks[k])
		if err != nil {
			return "", err
		}
		rows := strings.Split(code, "\n")
		blank := func(r string) bool { return strings.TrimSpace(ansi.Strip(r)) == "" }
		for len(rows) > 0 && blank(rows[0]) {
			rows = rows[1:]
		}
		for len(rows) > 0 && blank(rows[len(rows)-1]) {
			rows = rows[:len(rows)-1]
		}
		b.WriteString(strings.Join(rows, "\n") + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// mdCache keeps each chapter's rendering per width and style: the text never
// changes while the program runs, and a render takes milliseconds.
var mdCache = struct {
	sync.Mutex
	m map[mdKey]string
}{m: map[mdKey]string{}}

type mdKey struct {
	chapter, w  int
	plain, dark bool
}

// Text is chapter idx (an index into Chapters) rendered for w.
func Text(idx, w int, plain, dark bool) string {
	k := mdKey{idx, w, plain, dark}
	mdCache.Lock()
	defer mdCache.Unlock()
	if s, ok := mdCache.m[k]; ok {
		return s
	}
	s, err := renderMarkdown(figuresFromRoot(chapterList[idx].README, chapters.Dir(chapterList[idx].Num), Infos()[idx].Links), w, plain, dark)
	if err != nil {
		s = "This chapter's text could not be rendered: " + err.Error()
	}
	if strings.TrimSpace(chapterList[idx].README) == "" {
		s = "This chapter's text is not written yet."
	}
	mdCache.m[k] = s
	return s
}
