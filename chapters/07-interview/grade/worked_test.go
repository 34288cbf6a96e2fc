package grade

import (
	"os"
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// The worked answers (answers/*.md) follow the 45-minute track; the short
// form asks the same things in four phases. shortNotes turns a worked
// answer into the notes a candidate would have written in each phase of
// the short form, by the parts of the answer that answer each phase's
// questions (testdata/shortmap.yaml): "Title" is a whole "## " section
// or "### " subsection, "Title@Start" its paragraph that starts so.
var shortMap = loadShortMap()

// loadShortMap reads testdata/shortmap.yaml.
func loadShortMap() map[string][][]string {
	b, err := os.ReadFile("testdata/shortmap.yaml")
	if err != nil {
		panic(err)
	}
	var m map[string][][]string
	if err := strictyaml.Decode(b, &m); err != nil {
		panic(err)
	}
	return m
}

// block is one paragraph of a worked answer with the headings above it.
type block struct{ h2, h3, text string }

// blocks cuts a worked answer into paragraphs (a fenced block is one).
func blocks(md string) []block {
	var out []block
	var cur block
	var para []string
	fenced := false
	flush := func() {
		if len(para) > 0 {
			cur.text = strings.Join(para, "\n")
			out = append(out, cur)
			para = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			para = append(para, line)
			if fenced {
				flush()
			}
			fenced = !fenced
		case fenced:
			para = append(para, line)
		case strings.HasPrefix(line, "## "):
			flush()
			cur.h2, cur.h3 = strings.TrimSpace(line[3:]), ""
		case strings.HasPrefix(line, "### "):
			flush()
			cur.h3 = strings.TrimSpace(line[4:])
		case strings.TrimSpace(line) == "":
			flush()
		default:
			para = append(para, line)
		}
	}
	flush()
	return out
}

// shortNotes is the worked answer to prompt as short-form notes.
func shortNotes(t *testing.T, prompt string) []string {
	t.Helper()
	md, ok := interview.WorkedAnswer(prompt)
	if !ok {
		t.Fatalf("no worked answer for %q", prompt)
	}
	bs := blocks(md)
	if len(shortMap[prompt]) != 4 {
		t.Fatalf("testdata/shortmap.yaml: %d phases for %q, want 4", len(shortMap[prompt]), prompt)
	}
	var notes []string
	for ph, sels := range shortMap[prompt] {
		var parts []string
		for _, sel := range sels {
			n := 0
			head, start, _ := strings.Cut(sel, "@")
			for _, b := range bs {
				in := b.h2 == head || b.h3 == head
				if in && (start == "" || strings.HasPrefix(b.text, start)) {
					parts = append(parts, b.text)
					n++
				}
			}
			if n == 0 {
				t.Fatalf("%s phase %d: %q selects nothing in the worked answer", prompt, ph+1, sel)
			}
		}
		notes = append(notes, strings.Join(parts, "\n\n"))
	}
	return notes
}

// trackTitles are the 45-minute track's phase titles.
func trackTitles() []string { return phaseTitles(LongForm, 5) }

// sectionOf is the worked answer's "## title" section, subsections and all.
func sectionOf(t *testing.T, prompt, title string) string {
	t.Helper()
	var parts []string
	for _, b := range blocks(mustAnswer(t, prompt)) {
		if b.h2 == title {
			parts = append(parts, b.text)
		}
	}
	return strings.Join(parts, "\n\n")
}

func mustAnswer(t *testing.T, prompt string) string {
	t.Helper()
	md, ok := interview.WorkedAnswer(prompt)
	if !ok {
		t.Fatalf("no worked answer for %q", prompt)
	}
	return md
}
