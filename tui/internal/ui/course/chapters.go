// Package course is the course's text as the app shows it: the chapters in
// order, what the menu says of each, and each README rendered by glamour.
package course

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The chapter text is embedded once, by package chapters; the app renders it
// with glamour (markdown.go), so the course is written once.

// Entry is one chapter: its number and its README. The screens it opens
// are the app's registry's (Offers).
type Entry struct {
	Num    int
	README string
}

// PrefetchExample is the worked example the prefetch screen opens on.
const PrefetchExample = "E13"

// Info is what the menu and the chapter screen say about a chapter.
type Info struct {
	Title   string // "05 · The lab: …"
	Summary string // the first sentence of its first paragraph
	Links   []screen.Link
}

var Infos = sync.OnceValue(func() []Info {
	out := make([]Info, len(chapterList))
	for i, c := range chapterList {
		out[i] = describeChapter(c)
	}
	return out
})

// describeChapter reads a README's title and first paragraph (goldmark
// finds them), and offers every worked example the chapter mentions that
// the lab or the prefetch screen reproduces.
func describeChapter(c Entry) Info {
	info := Info{Title: fmt.Sprintf("%02d · (chapter not written yet)", c.Num)}
	src := []byte(c.README)
	doc := mdParser.Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch {
		case n.Kind() == ast.KindHeading && n.(*ast.Heading).Level == 1 && info.Summary == "":
			info.Title = inlineText(n, src)
		case n.Kind() == ast.KindParagraph && info.Summary == "":
			info.Summary = firstSentence(inlineText(n, src))
		}
	}
	// A mention is the example's name as a word of its own: "E3" in a test
	// filter such as `E3[01]` (E30 and E31) is not example E3.
	mentions := func(ex string) bool {
		return ex != "" && regexp.MustCompile(`\b`+regexp.QuoteMeta(ex)+`(?:[^\w\[]|$)`).MatchString(c.README)
	}
	// The chapter's own views first (the lab as its worked examples, the
	// prefetch lab as E13), then the other examples it mentions.
	var examples, prefetch []screen.Link
	for i, s := range lab.Scenarios {
		if mentions(s.Example) {
			examples = append(examples, screen.Link{View: labView, Scenario: i, Label: s.Example + " in the lab"})
		}
	}
	if mentions(PrefetchExample) {
		prefetch = []screen.Link{{View: prefetchView, Scenario: -1, Label: PrefetchExample + " in the prefetch lab"}}
	}
	var offers []screen.Link
	if Offers != nil {
		offers = Offers(c.Num)
	}
	for _, l := range offers {
		switch {
		case l.View == labView && len(examples) > 0:
			info.Links, examples = append(info.Links, examples...), nil
		case l.View == prefetchView && len(prefetch) > 0:
			info.Links, prefetch = append(info.Links, prefetch...), nil
		default:
			info.Links = append(info.Links, l)
		}
	}
	info.Links = append(append(info.Links, prefetch...), examples...)
	if c.Num == AnswersChapter {
		info.Links = append(info.Links, answerLinks()...)
	}
	return info
}

// Offers are the screens chapter num offers, in order, each with its
// link's label: the app's registry of screens (app/screens.go) sets it
// before the first Infos.
var Offers func(num int) []screen.Link

// The two screens that reproduce the worked examples a chapter mentions.
const labView, prefetchView screen.Kind = "lab", "prefetch"

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

// Index is the index into Chapters of chapter num, or -1.
func Index(num int) int {
	for i, c := range chapterList {
		if c.Num == num {
			return i
		}
	}
	return -1
}
