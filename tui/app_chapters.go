package main

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ratelimit-course/ratelimit/chapters"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The chapter text is embedded once, by package chapters; the app renders it
// with glamour (markdown.go), so the course is written once.

// interactive names a screen a chapter opens into.
type interactive int

const (
	ivNone interactive = iota
	ivLab
	ivWorst
	ivPrefetch
	ivCluster // chapter 06 part 3 on a real Redis Cluster
	ivDrill   // the chapter 07 question cards
	ivMock    // the chapter 07 timed mock interview
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
	{6, chapters.README(6), []interactive{ivPrefetch, ivCluster}},
	{7, chapters.README(7), []interactive{ivDrill, ivMock}},
	{8, chapters.README(8), nil},
	{9, chapters.README(9), nil},
}

// pfExample is the worked example the prefetch screen opens on.
const pfExample = "E13"

// chapterLink is one screen a chapter offers: a worked example in the lab
// (scenario >= 0), or one of its views.
type chapterLink struct {
	view     interactive
	scenario int // index into lab.Scenarios, or -1
	label    string
}

// chapterInfo is what the menu and the chapter screen say about a chapter.
type chapterInfo struct {
	title   string // "05 · The lab: …"
	summary string // the first sentence of its first paragraph
	links   []chapterLink
}

var chapterInfos = sync.OnceValue(func() []chapterInfo {
	out := make([]chapterInfo, len(uiChapters))
	for i, c := range uiChapters {
		out[i] = describeChapter(c)
	}
	return out
})

// describeChapter reads a README's title and first paragraph (goldmark
// finds them), and offers every worked example the chapter mentions that
// the lab or the prefetch screen reproduces.
func describeChapter(c chapterEntry) chapterInfo {
	info := chapterInfo{title: fmt.Sprintf("%02d · (chapter not written yet)", c.num)}
	src := []byte(c.readme)
	doc := mdParser.Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch {
		case n.Kind() == ast.KindHeading && n.(*ast.Heading).Level == 1 && info.summary == "":
			info.title = inlineText(n, src)
		case n.Kind() == ast.KindParagraph && info.summary == "":
			info.summary = firstSentence(inlineText(n, src))
		}
	}
	mentions := func(ex string) bool {
		return ex != "" && regexp.MustCompile(`\b`+regexp.QuoteMeta(ex)+`\b`).MatchString(c.readme)
	}
	// The chapter's own views first (the lab as its worked examples, the
	// prefetch lab as E13), then the other examples it mentions.
	var examples, prefetch []chapterLink
	for i, s := range lab.Scenarios {
		if mentions(s.Example) {
			examples = append(examples, chapterLink{ivLab, i, s.Example + " in the lab"})
		}
	}
	if mentions(pfExample) {
		prefetch = []chapterLink{{ivPrefetch, -1, pfExample + " in the prefetch lab"}}
	}
	for _, v := range c.views {
		switch {
		case v == ivLab && len(examples) > 0:
			info.links, examples = append(info.links, examples...), nil
		case v == ivPrefetch && len(prefetch) > 0:
			info.links, prefetch = append(info.links, prefetch...), nil
		default:
			info.links = append(info.links, chapterLink{v, -1, viewName[v]})
		}
	}
	info.links = append(append(info.links, prefetch...), examples...)
	return info
}

var viewName = map[interactive]string{
	ivLab: "the lab", ivWorst: "worst-case search", ivPrefetch: "the prefetch lab", ivCluster: "the cluster (E21–E23)",
	ivDrill: "question cards", ivMock: "mock interview",
}

// inlineText is a block's text without markup.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
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

// chapterIndex is the index into uiChapters of chapter num, or -1.
func chapterIndex(num int) int {
	for i, c := range uiChapters {
		if c.num == num {
			return i
		}
	}
	return -1
}
