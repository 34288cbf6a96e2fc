package grade

import (
	"fmt"
	"strings"
)

// percent is a share as a whole percentage.
func percent(x float64) int { return int(x*100 + 0.5) }

// Summary is the result in one line: points shown, score and red flags.
func (r Result) Summary() string {
	s := fmt.Sprintf("your notes show %d of %d points (score %d %%)", r.Shown(), r.Points(), percent(r.Score))
	switch n := len(r.Flags()); n {
	case 0:
		return s + ", no red flag"
	case 1:
		return s + ", 1 red flag"
	default:
		return fmt.Sprintf("%s, %d red flags", s, n)
	}
}

// PhaseLine is one phase's verdict in a line, for a table or a heading.
func (p Phase) PhaseLine() string {
	s := fmt.Sprintf("your notes show %d of %d (score %d %%)", len(p.Shown), p.Points(), percent(p.Score))
	if n := len(p.Flags); n > 0 {
		s += fmt.Sprintf(", %d red flag%s", n, map[bool]string{true: "", false: "s"}[n == 1])
	}
	return s
}

// Lines is the result as plain text: per phase the points shown with the
// words that showed them, the points missed and the red flags, then the
// summary.
func (r Result) Lines() []string {
	var out []string
	for i, p := range r.Phases {
		out = append(out, fmt.Sprintf("Phase %d: %s: %s", i+1, p.Title, p.PhaseLine()))
		for _, s := range p.Shown {
			how := ""
			if s.Credit < 1 {
				how = " (in a list of keywords: half)"
			}
			out = append(out, fmt.Sprintf("  shown  %s (ch %s)%s", s.Point, s.Chapter, how),
				fmt.Sprintf("         by: %s", quoteWords(s.Words)))
		}
		for _, m := range p.Missed {
			out = append(out, fmt.Sprintf("  missed %s (ch %s)", m.Point, m.Chapter))
		}
		for _, f := range p.Flags {
			out = append(out, fmt.Sprintf("  FLAG   %s (ch %s)", f.Text, f.Chapter),
				fmt.Sprintf("         in: \"%s\"", f.Words),
				fmt.Sprintf("         instead: %s", f.Fix))
		}
	}
	return append(out, "", "In all: "+r.Summary()+".")
}

// quoteWords is each idea's words in quotes.
func quoteWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = `"` + w + `"`
	}
	return strings.Join(q, ", ")
}

// Beside is the phase's verdict next to the candidate's own ticks: "you
// ticked 4, your notes show 2 of 5 (score 40 %)".
func (p Phase) Beside(ticked int) string {
	return fmt.Sprintf("you ticked %d, %s", ticked, p.PhaseLine())
}

// Markdown is the phase's feedback as a Markdown list: the points shown
// with the words that showed them, the points missed, the red flags.
func (p Phase) Markdown() string {
	var b strings.Builder
	for _, s := range p.Shown {
		fmt.Fprintf(&b, "- shown: %s (chapter %s), by %s", s.Point, s.Chapter, quoteWords(s.Words))
		if s.Credit < 1 {
			b.WriteString(", in a list of keywords (half)")
		}
		b.WriteString("\n")
	}
	for _, m := range p.Missed {
		fmt.Fprintf(&b, "- missed: %s (chapter %s)\n", m.Point, m.Chapter)
	}
	for _, f := range p.Flags {
		fmt.Fprintf(&b, "- red flag: %s (chapter %s), in \"%s\"; instead: %s\n", f.Text, f.Chapter, f.Words, f.Fix)
	}
	return b.String()
}
