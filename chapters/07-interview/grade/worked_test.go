package grade

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The worked answers (answers/*.md) follow the 45-minute track; the short
// form asks the same things in four phases. shortNotes turns a worked
// answer into the notes a candidate would have written in each phase of
// the short form, by the parts of the answer that answer each phase's
// questions: "Section" is a whole "## " section with its subsections,
// "Section/Sub" one "### " subsection, and "Section@Start" the paragraph
// of that section (or subsection) that starts so.
var shortMap = map[string][4][]string{
	"per-user-api": {
		{"Introduction and the question", "Requirements and scoping"},
		{"Deep dives chosen by the interviewer@The algorithm.", "Capacity from the prompt's numbers@Memory:"},
		{"API and the high-level design", "Deep dives chosen by the interviewer@The race.", "Capacity from the prompt's numbers@Each request is one decision"},
		{"Deep dives chosen by the interviewer@Failure.", "API and the high-level design@The limiter is a decision service", "Wrap-up and your questions"},
	},
	"login": {
		{"Introduction and the question", "Requirements and scoping"},
		{"Deep dives chosen by the interviewer@Why a sliding log", "Requirements and scoping@What does the user see?", "Capacity from the prompt's numbers@Memory:"},
		{"API and the high-level design", "Deep dives chosen by the interviewer@The race.", "Capacity from the prompt's numbers@The attacker you described"},
		{"Deep dives chosen by the interviewer@Redis down during a wave.", "Deep dives chosen by the interviewer@What does the user see?", "Wrap-up and your questions"},
	},
	"llm-gateway": {
		{"Introduction and the question", "Requirements and scoping"},
		{"Deep dives chosen by the interviewer@Reserve and refund.", "Deep dives chosen by the interviewer@Five requests at once.", "API and the high-level design@The gateway does this", "Requirements and scoping@Fourth, what else limits"},
		{"API and the high-level design@Where does each piece run?", "Deep dives chosen by the interviewer@The race.", "Deep dives chosen by the interviewer@The hot key."},
		{"Deep dives chosen by the interviewer@The backend slows", "Capacity from the prompt's numbers@The number that matters", "Wrap-up and your questions"},
	},
	"partner-api": {
		{"Introduction and the question", "Requirements and scoping"},
		{"API and the high-level design@WAF, at the edge", "API and the high-level design@API Gateway holds the contract.", "API and the high-level design@Our service holds"},
		{"Capacity from the prompt's numbers@A partner granted", "Deep dives chosen by the interviewer@Will they get 20,000?", "API and the high-level design@The order is the point"},
		{"Deep dives chosen by the interviewer@What the partner sees.", "Deep dives chosen by the interviewer@How should the partner", "Wrap-up and your questions"},
	},
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
