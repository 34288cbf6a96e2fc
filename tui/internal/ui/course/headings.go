package course

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// A chapter is navigated by its headings: the reader jumps from one section
// to the next. The headings come from the markdown (goldmark finds them);
// their rows in the rendered text are where glamour drew them.

// Heading is one section heading of a chapter below its title.
type Heading struct {
	Level int    // 2 for ##, 3 for ###, …
	Text  string // without markup
}

// Headings are chapter idx's headings below its title, in order.
func Headings(idx int) []Heading { return headingsOf(chapterList[idx].README) }

// headingsOf are a markdown text's headings below its title, in order.
func headingsOf(md string) []Heading {
	src := []byte(md)
	doc := mdParser.Parse(text.NewReader(src))
	var out []Heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level >= 2 {
			out = append(out, Heading{h.Level, inlineText(h, src)})
		}
	}
	return out
}

// HeadingRows are the rows of rendered (a chapter's Text) on which its
// headings start, in order; a heading not found is left out.
func HeadingRows(rendered string, hs []Heading) []int {
	lines := strings.Split(rendered, "\n")
	var rows []int
	from := 0
	for _, h := range hs {
		want := squash(strings.Repeat("#", h.Level) + " " + h.Text)
		for i := from; i < len(lines); i++ {
			got := squash(ansi.Strip(lines[i]))
			if len(got) < min(len(want), 6) {
				continue // a blank row, or a stray "#" of code
			}
			if strings.HasPrefix(want, got) || strings.HasPrefix(got, want) {
				rows = append(rows, i)
				from = i + 1
				break
			}
		}
	}
	return rows
}

// squash is s without backticks and with its spaces collapsed: a heading's
// markdown text and its rendered row compare equal.
func squash(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "")), " ")
}
