// Package transcript keeps what the learner said in a mock interview: each
// finished interview becomes a Markdown file in the user's data directory,
// which `tui mock --last` prints and `tui mock --list` lists.
package transcript

import (
	"fmt"
	"strings"
	"time"
)

// Point is one checklist point, with the chapter that teaches it.
type Point struct {
	Text    string
	Chapter string
}

// Phase is one phase as the candidate ran it.
type Phase struct {
	Title         string
	Planned, Used time.Duration
	Notes         string // what the candidate wrote they would say
	Ticked        []Point
	Missed        []Point
	Strong        string // what a strong answer says in this phase
	Feedback      string // what the notes show, read by package grade (Markdown)
}

// Push is one pushback: the candidate's answer beside a strong one.
type Push struct {
	Prompt   string
	Phase    string // the phase's title it was thrown in
	Answer   string // what the candidate wrote, "" if nothing
	Answered bool   // ticked as answered
	Strong   []string
	Chapter  string
}

// Transcript is one finished mock interview.
type Transcript struct {
	Prompt   string // the question's short name, e.g. "per-user-api"
	Title    string
	Ask      string
	Form     string // "45-minute" or "15-minute"
	At       time.Time
	Phases   []Phase
	Pushback []Push
}

// clock is a duration as m:ss.
func clock(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// quote writes text as a Markdown block quote, its lines kept; nothing
// written is said so.
func quote(b *strings.Builder, text string) {
	text = strings.TrimRight(text, "\n ")
	if strings.TrimSpace(text) == "" {
		b.WriteString("*(nothing written)*\n")
		return
	}
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
	}
}

// Markdown is the transcript as a Markdown document: the question, then
// each phase with the time used, the notes, the points ticked and missed
// and a strong answer, then each pushback with both answers.
func (t Transcript) Markdown() string {
	var b strings.Builder
	covered, points := 0, 0
	for _, ph := range t.Phases {
		covered += len(ph.Ticked)
		points += len(ph.Ticked) + len(ph.Missed)
	}
	fmt.Fprintf(&b, "# Mock interview: %s\n\n", t.Title)
	fmt.Fprintf(&b, "- Question (`%s`): \"%s\"\n", t.Prompt, t.Ask)
	fmt.Fprintf(&b, "- Form: %s, finished %s\n", t.Form, t.At.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- Points covered: %d of %d\n", covered, points)
	if len(t.Pushback) > 0 {
		answered := 0
		for _, q := range t.Pushback {
			if q.Answered {
				answered++
			}
		}
		fmt.Fprintf(&b, "- Pushback answered: %d of %d\n", answered, len(t.Pushback))
	}
	for i, ph := range t.Phases {
		fmt.Fprintf(&b, "\n## Phase %d: %s (%s used of %s)\n\n", i+1, ph.Title, clock(ph.Used), clock(ph.Planned))
		if ph.Notes != "" || len(ph.Ticked)+len(ph.Missed) > 0 {
			b.WriteString("### What you said\n\n")
			quote(&b, ph.Notes)
		}
		if f := strings.TrimSpace(ph.Feedback); f != "" {
			fmt.Fprintf(&b, "\n### What your notes show\n\n%s\n", f)
		}
		if len(ph.Ticked)+len(ph.Missed) > 0 {
			b.WriteString("\n### Points\n\n")
			for _, p := range ph.Ticked {
				fmt.Fprintf(&b, "- [x] %s (chapter %s)\n", p.Text, p.Chapter)
			}
			for _, p := range ph.Missed {
				fmt.Fprintf(&b, "- [ ] %s (chapter %s, to review)\n", p.Text, p.Chapter)
			}
		}
		if s := strings.TrimSpace(ph.Strong); s != "" {
			fmt.Fprintf(&b, "\n### A strong answer\n\n%s\n", nest(s, 3))
		}
	}
	if len(t.Pushback) > 0 {
		b.WriteString("\n## Pushback\n")
	}
	for i, q := range t.Pushback {
		mark := "not ticked as answered"
		if q.Answered {
			mark = "answered"
		}
		in := ""
		if q.Phase != "" {
			in = "in " + q.Phase + "; "
		}
		fmt.Fprintf(&b, "\n### %d. \"%s\" (%s%s)\n\nYour answer:\n\n", i+1, q.Prompt, in, mark)
		quote(&b, q.Answer)
		fmt.Fprintf(&b, "\nA strong answer (chapter %s):\n\n", q.Chapter)
		for _, s := range q.Strong {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	return b.String()
}
