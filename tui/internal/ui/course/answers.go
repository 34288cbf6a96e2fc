package course

import (
	"strings"
	"sync"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// Chapter 07's worked answers, one per mock question, are documents the
// reader shows on their own: chapter 07 offers one link per answer, and the
// reader opens the answer's Markdown as it opens a chapter's README.

// AnswersChapter is the chapter whose links open the worked answers.
const AnswersChapter = 7

// Answer is one worked answer: the mock prompt it answers and its Markdown.
type Answer struct {
	Prompt, Title, Markdown string
}

// Answers are the worked answers, in the order of the mock's prompts.
var Answers = sync.OnceValue(func() []Answer {
	var out []Answer
	for _, p := range interview.Mock() {
		if md, ok := interview.WorkedAnswer(p.Name); ok {
			out = append(out, Answer{p.Name, p.Title, md})
		}
	}
	return out
})

// answerLinks are chapter 07's links to its worked answers.
func answerLinks() []screen.Link {
	var out []screen.Link
	for i, a := range Answers() {
		out = append(out, screen.Link{View: screen.Answer, Scenario: i, Label: "worked answer: " + a.Prompt})
	}
	return out
}

// AnswerTitle is what the reader's title bar says over answer i.
func AnswerTitle(i int) string {
	return "07 · Worked answer: " + strings.ToLower(Answers()[i].Title[:1]) + Answers()[i].Title[1:]
}

// AnswerText is answer i (an index into Answers) rendered for w; cached
// beside the chapters under a key no chapter uses.
func AnswerText(i, w int, plain, dark bool) string {
	k := mdKey{-1 - i, w, plain, dark}
	mdCache.Lock()
	defer mdCache.Unlock()
	if s, ok := mdCache.m[k]; ok {
		return s
	}
	s, err := renderMarkdown(Answers()[i].Markdown, w, plain, dark)
	if err != nil {
		s = "This answer could not be rendered: " + err.Error()
	}
	mdCache.m[k] = s
	return s
}

// AnswerHeadings are answer i's headings below its title, in order.
func AnswerHeadings(i int) []Heading { return headingsOf(Answers()[i].Markdown) }

// Markdown is any Markdown of the course rendered for w as the reader
// renders a chapter (a screen w columns wide): for text shown outside the
// reader, such as the mock's strong answer beside the candidate's notes.
// Not cached: the caller keeps what it draws often.
func Markdown(src string, w int, plain, dark bool) string {
	s, err := renderMarkdown(src, w, plain, dark)
	if err != nil {
		return src
	}
	return s
}
