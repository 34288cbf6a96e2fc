package mock

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// summary is the finished interview: a table of the phases, then the
// points missed, the pushbacks to review and the chapters to review.
func (m Model) summary() []string {
	th, w, r := m.th, m.w, m.record
	rows := make([][]string, len(m.phases))
	for j := range m.phases {
		rows[j] = []string{fmt.Sprintf("%d %s", j+1, m.steps[j].Title),
			clockText(time.Duration(r.Phases[j].Seconds) * time.Second),
			clockText(m.planned(j)),
			fmt.Sprintf("%d of %d", len(r.Phases[j].Ticked), len(m.phases[j].Checklist))}
	}
	t := table.New().Headers("phase", "used", "planned", "covered").Rows(rows...).
		Border(lipgloss.NormalBorder()).BorderColumn(false).BorderLeft(false).BorderRight(false).BorderTop(false).BorderBottom(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := th.S[widget.StNone].PaddingRight(2)
			if row == table.HeaderRow {
				s = th.S[widget.StLabel].PaddingRight(2)
			}
			if col > 0 {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	out := []string{"", th.Paint(widget.StHeading, fmt.Sprintf("Summary (%s): %d of %d points covered", r.Form, r.Covered, r.Points))}
	out = append(out, widget.SplitLines(t.String())...)
	var missed, pushes []string
	for j, ph := range m.phases {
		if len(m.push) > 0 && j == len(m.phases)-1 {
			continue // listed as pushbacks
		}
		for k, pt := range ph.Checklist {
			if !slices.Contains(r.Phases[j].Ticked, k) {
				missed = append(missed, ansi.Truncate(fmt.Sprintf("  %c ch %s · %s", widget.GlyphRejected, pt.Chapter, pt.Text), w, "…"))
			}
		}
	}
	for _, id := range r.Pushback {
		if q, ok := interview.PushbackByID(id); ok {
			pushes = append(pushes, ansi.Truncate(fmt.Sprintf("  %c ch %s · “%s” · card %s", widget.GlyphRejected, q.Chapter, q.Prompt, q.Card), w, "…"))
		}
	}
	if len(missed) == 0 && len(pushes) == 0 {
		return append(out, "", th.Paint(widget.StAllowed, "Every point covered."))
	}
	// The rows left, shared between the two lists: the pushbacks first
	// (there are a few), the missed points at least two rows.
	room := max(m.h-len(out)-4, 2)
	if len(missed) > 0 {
		room -= 2
	}
	if len(pushes) > 0 {
		room -= 2
	}
	nPush := min(len(pushes), max(room-min(len(missed), 2), 1))
	nMissed := max(room-nPush, 1)
	list := func(label string, ls []string, n int) {
		if len(ls) == 0 {
			return
		}
		out = append(out, "", th.Paint(widget.StLabel, label))
		for i, l := range ls {
			if i == n-1 && len(ls) > n {
				out = append(out, th.Paint(widget.StDim, fmt.Sprintf("  … and %d more", len(ls)-i)))
				break
			}
			out = append(out, th.Paint(widget.StNone, l))
		}
	}
	list("Missed", missed, nMissed)
	list("Pushback to review", pushes, nPush)
	return append(out, "", th.Paint(widget.StLabel, "Review chapters ")+strings.Join(r.Review, ", "))
}
