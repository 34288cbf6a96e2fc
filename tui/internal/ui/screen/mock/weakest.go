package mock

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// After an interview the summary names its two weakest phases, those with
// the smallest share of their points and pushbacks covered, and the
// chapter sections that teach what each missed: every point and pushback
// names its chapter and a cue, a phrase of that chapter's README
// (course.SectionOf finds its section).

// weakPhase is one phase of the finished interview, as the summary ranks it.
type weakPhase struct {
	phase, covered, total int
	read                  []string // "ch 06 § Atomic scripts", once each, in order
}

// weakest are the (at most) n phases with the smallest share covered,
// fewest first, a tie to the earlier phase; phases with nothing missed
// are never weak.
func (m Model) weakest(n int) []weakPhase {
	r := m.record
	var out []weakPhase
	for j, ph := range m.phases {
		w := weakPhase{phase: j, total: len(ph.Checklist) + len(ph.Pushback)}
		w.covered = len(r.Phases[j].Ticked) + len(r.Phases[j].Pushed)
		add := func(chapter, cue string) {
			s := "ch " + chapter
			if sec := course.SectionOf(chapterNum(chapter), cue); sec != "" {
				s += " § " + sec
			}
			if !slices.Contains(w.read, s) {
				w.read = append(w.read, s)
			}
		}
		for k, pt := range ph.Checklist {
			if !slices.Contains(r.Phases[j].Ticked, k) {
				add(pt.Chapter, pt.Cue)
			}
		}
		for k, q := range ph.Pushback {
			if !slices.Contains(r.Phases[j].Pushed, k) {
				add(q.Chapter, q.Cue)
			}
		}
		if w.covered < w.total {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b weakPhase) int { return a.covered*b.total - b.covered*a.total })
	return out[:min(n, len(out))]
}

// chapterNum is a chapter's number from its two digits ("06"), or -1.
func chapterNum(s string) int {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
		return -1
	}
	return n
}

// weakestRows are the summary's rows for the two weakest phases: each
// phase with its share covered, then the sections to read.
func (m Model) weakestRows() []string {
	th, w := m.th, m.w
	ws := m.weakest(2)
	if len(ws) == 0 {
		return nil
	}
	out := []string{"", th.Paint(widget.StLabel, "Weakest phases") + th.Paint(widget.StDim, " and where the course answers them")}
	for _, p := range ws {
		out = append(out, widget.Hanging(widget.WrapRows(th, widget.StNone,
			fmt.Sprintf("%d %s · %d of %d covered", p.phase+1, m.steps[p.phase].Title, p.covered, p.total), w-4, 2), "  ", "  ")...)
		out = append(out, widget.Hanging(widget.WrapRows(th, widget.StDim, "read "+strings.Join(p.read, "; "), w-6, 4), "    ", "    ")...)
	}
	return out
}
