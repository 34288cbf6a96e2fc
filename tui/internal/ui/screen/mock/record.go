package mock

import (
	"slices"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	saved "github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

// transcript is the finished interview r as the candidate ran it: each
// phase's time, notes, points ticked and missed and a strong answer, each
// pushback's answer beside the strong one.
func (m Model) transcript(r saved.Interview) transcript.Transcript {
	p := interview.Mock()[m.prompt]
	t := transcript.Transcript{Prompt: p.Name, Title: p.Title, Ask: p.Ask, Form: m.form(), At: r.At}
	g := m.graded
	for j, ph := range m.phases {
		tp := transcript.Phase{Title: m.steps[j].Title, Planned: m.planned(j), Used: m.used[j], Notes: m.notes[j]}
		tp.Strong = m.strongFor(j)
		tp.Feedback = capitalise(g.Phases[j].Beside(len(r.Phases[j].Ticked))) + ".\n\n" + g.Phases[j].Markdown()
		for k, pt := range ph.Checklist {
			tpt := transcript.Point{Text: pt.Text, Chapter: pt.Chapter}
			if slices.Contains(r.Phases[j].Ticked, k) {
				tp.Ticked = append(tp.Ticked, tpt)
			} else {
				tp.Missed = append(tp.Missed, tpt)
			}
		}
		t.Phases = append(t.Phases, tp)
		for k, q := range ph.Pushback {
			t.Pushback = append(t.Pushback, transcript.Push{Prompt: q.Prompt, Answer: m.answers[j][k], Phase: tp.Title,
				Answered: slices.Contains(r.Phases[j].Pushed, k), Strong: q.Strong, Chapter: q.Chapter})
		}
	}
	return t
}

// capitalise is s with its first letter upper case.
func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
