package mock

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// summary is the finished interview in room rows: a table of the phases,
// then the points missed, the pushbacks to review and the chapters to
// review, each line whole; what does not fit scrolls (↑/↓, summaryTop).
func (m Model) summary(room int) []string {
	head := m.summaryHead()
	lists := m.summaryLists()
	left := room - len(head)
	if len(lists) <= left {
		return append(head, lists...)
	}
	left = max(left-1, 1) // a row says where the window is
	top := min(m.sumTop, len(lists)-left)
	more := fmt.Sprintf("  rows %d–%d of %d below the table · %s/%s scroll", top+1, top+left, len(lists),
		widget.KeyName(keys.Up), widget.KeyName(keys.Down))
	return append(append(head, lists[top:top+left]...), m.th.Paint(widget.StDim, more))
}

// summaryHead is the summary's heading and its table of the phases.
func (m Model) summaryHead() []string {
	th, r := m.th, m.record
	rows := make([][]string, len(m.phases))
	for j := range m.phases {
		rows[j] = []string{fmt.Sprintf("%d %s", j+1, m.steps[j].Title),
			clockText(time.Duration(r.Phases[j].Seconds) * time.Second),
			clockText(m.planned(j)),
			fmt.Sprintf("%d of %d", len(r.Phases[j].Ticked)+len(r.Phases[j].Pushed), len(m.phases[j].Checklist)+len(m.pushes(j)))}
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
	out := []string{"", th.Paint(widget.StHeading, fmt.Sprintf("Summary (%s): %d of %d points covered", r.Form, r.Covered, r.Points)) +
		th.Paint(widget.StNone, fmt.Sprintf(", your notes show %d", m.graded.Shown()))}
	return append(out, widget.SplitLines(t.String())...)
}

// summaryLists are the rows under the table: the chapters to review, then
// every pushback to review and every point missed, wrapped whole (the
// longest list last, where scrolling finds it).
func (m Model) summaryLists() []string {
	th, w, r := m.th, m.w, m.record
	item := func(s string) []string {
		return widget.Hanging(widget.WrapRows(th, widget.StNone, s, w-4, 6), fmt.Sprintf("  %c ", widget.GlyphRejected), "    ")
	}
	var missed, pushes []string
	for j, ph := range m.phases {
		for k, pt := range ph.Checklist {
			if !slices.Contains(r.Phases[j].Ticked, k) {
				missed = append(missed, item(fmt.Sprintf("ch %s · %s", pt.Chapter, pt.Text))...)
			}
		}
	}
	for _, id := range r.Pushback {
		if q, ok := interview.PushbackByID(id); ok {
			pushes = append(pushes, item(fmt.Sprintf("ch %s · “%s” · card %s", q.Chapter, q.Prompt, q.Card))...)
		}
	}
	var out []string
	if m.kept != "" {
		out = append(out, "", th.Paint(widget.StLabel, "Transcript ")+th.Paint(widget.StNone, "saved: tui mock --last prints your notes beside strong answers"))
	}
	if len(missed) == 0 && len(pushes) == 0 {
		out = append(out, "", th.Paint(widget.StAllowed, "Every point covered."))
		return append(append(out, "", th.Paint(widget.StLabel, "Your notes (read by the course: tui mock --grade)")), m.feedbackRows()...)
	}
	review := widget.WrapRows(th, widget.StNone, strings.Join(r.Review, ", "), w-len("Review chapters "), 3)
	out = append(append(out, ""), widget.Hanging(review, th.Paint(widget.StLabel, "Review chapters "), strings.Repeat(" ", len("Review chapters ")))...)
	out = append(out, m.weakestRows()...)
	for _, l := range []struct {
		label string
		rows  []string
	}{{"Pushback to review", pushes}, {"Missed", missed}, {"Your notes (read by the course: tui mock --grade)", m.feedbackRows()}} {
		if len(l.rows) > 0 {
			out = append(append(out, "", th.Paint(widget.StLabel, l.label)), l.rows...)
		}
	}
	return out
}

// scrollSummary moves the summary's lists by d rows, within them.
func (m Model) scrollSummary(d int) Model {
	room := m.h - 1 - len(m.footer()) - len(m.summaryHead()) - 1
	m.sumTop = min(max(m.sumTop+d, 0), max(len(m.summaryLists())-room, 0))
	return m
}

// feedbackRows are, per phase, the points ticked beside those the notes
// show, then each red flag the notes contain.
func (m Model) feedbackRows() []string {
	row := func(first, s string) []string {
		return widget.Hanging(widget.WrapRows(m.th, widget.StNone, s, m.w-4, 6), first, "    ")
	}
	g := m.graded
	var out []string
	for j, ph := range g.Phases {
		out = append(out, row("  ", fmt.Sprintf("%d %s", j+1, ph.Beside(len(m.record.Phases[j].Ticked))))...)
	}
	for _, f := range g.Flags() {
		out = append(out, row(fmt.Sprintf("  %c ", widget.GlyphRejected), fmt.Sprintf("red flag in phase %d · ch %s · %s", f.Phase, f.Chapter, f.Text))...)
	}
	return out
}
