package interview

import (
	"fmt"
	"slices"
	"strings"
)

// Push is one pushback the mock interviewer throws at the candidate, in the
// phase of the track where it belongs, with what a strong answer contains
// and where the course proves it.
type Push struct {
	ID      string   `yaml:"id"`      // stable, for the command line and saved progress
	Prompt  string   `yaml:"prompt"`  // what the interviewer says
	Strong  []string `yaml:"strong"`  // what a strong answer contains, in order
	Chapter string   `yaml:"chapter"` // "01" … "09": the chapter that proves it
	Cue     string   `yaml:"cue"`     // a phrase of that chapter's README or drill cards
	Proof   string   `yaml:"proof"`   // the test, table or source that proves it
	Card    string   `yaml:"card"`    // the drill card to practise it (a Question.ID)
	Phase   int      `yaml:"phase"`   // the track's phase it is thrown in (1 requirements … 4 wrap-up)
}

// Pushback is the mock's pushback bank, from data/pushback.yaml: a deep
// copy. Each prompt of Mock names the ones it throws (Prompt.Pushback);
// PushbackFor returns them.
func Pushback() []Push {
	out := make([]Push, len(loaded.pushback))
	for i, p := range loaded.pushback {
		p.Strong = slices.Clone(p.Strong)
		out[i] = p
	}
	return out
}

// PushbackByID finds a pushback by its id.
func PushbackByID(id string) (Push, bool) {
	for _, p := range loaded.pushback {
		if p.ID == id {
			p.Strong = slices.Clone(p.Strong)
			return p, true
		}
	}
	return Push{}, false
}

// PushbackFor lists the pushbacks a prompt throws, in its order.
func PushbackFor(p Prompt) []Push {
	var out []Push
	for _, id := range p.Pushback {
		if q, ok := PushbackByID(id); ok {
			out = append(out, q)
		}
	}
	return out
}

// PushbackMarkdown renders the pushback bank as Markdown: each prompt a
// paragraph, then what a strong answer contains as a list of its own (not
// nested: the terminal app's renderer wraps a nested item a few columns too
// wide and then breaks it at a comma, "1," / "700").
func PushbackMarkdown() string {
	var b strings.Builder
	for i, p := range loaded.pushback {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "**%d. \"%s\"** (ch %s; proof: %s; card `%s`)\n\n", i+1, p.Prompt, p.Chapter, p.Proof, p.Card)
		for _, s := range p.Strong {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	return b.String()
}
