package interview

import "strings"

// The worked answers are written at strong hire, and read alone they teach
// coverage: every phase as deep as the next. What an interviewer grades is
// judgment, so each answer file also sets a lean-hire and a strong-hire
// version of every phase side by side, under "## " + LeanStrongHeading,
// before the lab footnotes:
//
//	- **<first risk>**: why it is one of the two that matter here
//	- **<second risk>**: …
//	### <a Track phase's title>        (one per phase, in Track order)
//	**Lean hire.** what a correct but unprioritised answer says
//	**Strong hire.** the shorter answer: the two risks, a number, a checkpoint
//	### The interviewer changes a requirement
//	**The change.** what the interviewer says
//	**Lean hire.** … **Strong hire.** … (the visible redesign)
//
// The Markdown is the only copy: LeanStrong reads it, and `tui interview
// --json` and the app show what it returns.

// The headings of the two sections after the phases.
const (
	// AlternativesHeading: the designs weighed with numbers (a trim of
	// PRODUCTION.md's table) and the error budget in an SLO's words.
	AlternativesHeading = "Alternatives and the error budget"
	// LeanStrongHeading: the lean and strong versions, phase by phase.
	LeanStrongHeading = "Lean and strong, phase by phase"
	// ChangeHeading is the subsection of the requirement-change turn.
	ChangeHeading = "The interviewer changes a requirement"
)

// Risk is one of the two risks a prompt turns on.
type Risk struct{ Name, Why string }

// Versions is what a lean hire and a strong hire say in one phase (Phase,
// a Track title) or in the requirement-change turn (Phase is the change).
type Versions struct{ Phase, Lean, Strong string }

// LeanStrongAnswer is one prompt's section of lean and strong versions.
type LeanStrongAnswer struct {
	Risks  []Risk     // the two risks, in the answer's order
	Phases []Versions // one per Track phase that has a subsection, in Track order
	Change Versions   // the requirement-change turn
}

// LeanStrong is the lean and strong versions of the prompt of that name,
// read from its answer file; false when no prompt has that name. A phase
// with no subsection is left out, so a caller can tell a gap from a text.
func LeanStrong(prompt string) (LeanStrongAnswer, bool) {
	md, ok := WorkedAnswer(prompt)
	if !ok {
		return LeanStrongAnswer{}, false
	}
	subs := subsections(section(md, LeanStrongHeading))
	var out LeanStrongAnswer
	for _, line := range strings.Split(subs[""], "\n") {
		name, why, ok := strings.Cut(strings.TrimPrefix(line, "- **"), "**:")
		if strings.HasPrefix(line, "- **") && ok {
			out.Risks = append(out.Risks, Risk{name, strings.TrimSpace(why)})
		}
	}
	for _, ph := range loaded.track {
		if body, ok := subs[ph.Title]; ok {
			out.Phases = append(out.Phases, Versions{ph.Title, labelled(body, "Lean hire."), labelled(body, "Strong hire.")})
		}
	}
	if body, ok := subs[ChangeHeading]; ok {
		out.Change = Versions{labelled(body, "The change."), labelled(body, "Lean hire."), labelled(body, "Strong hire.")}
	}
	return out, true
}

// subsections splits a section at its "### " headings: the text before
// the first one under "", each other under its title.
func subsections(sec string) map[string]string {
	out := map[string]string{}
	title := ""
	for _, line := range strings.Split(sec, "\n") {
		if t, ok := strings.CutPrefix(line, "### "); ok {
			title = strings.TrimSpace(t)
			out[title] = ""
			continue
		}
		out[title] += line + "\n"
	}
	return out
}

// labelled is the paragraph that starts "**label**", without the label,
// its lines joined by spaces; "" when there is none.
func labelled(body, label string) string {
	for _, para := range strings.Split(body, "\n\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(para), "**"+label+"**"); ok {
			return strings.Join(strings.Fields(rest), " ")
		}
	}
	return ""
}
