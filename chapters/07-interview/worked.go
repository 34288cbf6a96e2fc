package interview

import (
	"embed"
	"strings"
)

// A worked answer is what a staff-level candidate says to one mock prompt,
// phase by phase, written out as spoken prose in answers/<prompt>.md: one
// "## " heading per phase of Track, named exactly as the phase is, so the
// mock can show the part of the answer that belongs to the phase just
// played. Inside a phase, "### " subsections carry the capacity estimate,
// the data model, the final whiteboard and the questions for the
// interviewer. After the phases one more section, "## Lab footnotes",
// keeps the course's measured figures with their conditions: the spoken
// answer uses round numbers only.

//go:embed answers/*.md
var answers embed.FS

// FootnotesHeading is the section after the phases that holds the lab's
// figures, each with the conditions it was measured under.
const FootnotesHeading = "Lab footnotes"

// WorkedAnswer is the whole worked answer to the mock prompt of that name
// (see MockNames), as Markdown; false when no prompt has that name.
func WorkedAnswer(prompt string) (string, bool) {
	if _, ok := MockPrompt(prompt); !ok {
		return "", false
	}
	b, err := answers.ReadFile("answers/" + prompt + ".md")
	if err != nil {
		return "", false
	}
	return string(b), true
}

// WorkedPhase is the part of the worked answer under the heading of
// loaded.track[phase] (phase counts from 0, in Track order), without the heading
// itself and up to the next "## " heading; "" when the prompt, the phase or
// the heading does not exist.
func WorkedPhase(prompt string, phase int) string {
	if phase < 0 || phase >= len(loaded.track) {
		return ""
	}
	md, ok := WorkedAnswer(prompt)
	if !ok {
		return ""
	}
	return section(md, loaded.track[phase].Title)
}

// section is the text under the level-two heading "## title", up to the
// next level-two heading, trimmed; "" when there is no such heading. Lines
// inside fenced code blocks are never taken for headings.
func section(md, title string) string {
	var out []string
	in, fenced := false, false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "## ") {
			if in {
				break
			}
			in = strings.TrimSpace(line[3:]) == title
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// AnswerPath is where a prompt's worked answer lives in the repository,
// relative to this chapter's folder: for links from the README and the app.
func AnswerPath(prompt string) string { return "answers/" + prompt + ".md" }
