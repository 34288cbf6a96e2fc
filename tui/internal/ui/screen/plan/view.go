package plan

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The marks beside each step: done, not yet. Each has its own shape, so
// they read the same without colour.
const (
	markDone = "✓"
	markTodo = "·"
)

// View is the plan's title and how far it has come, its steps (the
// selected one pointed at), then the selected step's place and what it
// lets the candidate say.
func (m Model) View() string {
	th, w, p := m.th, m.w, m.Plan()
	steps, minutes := p.DoneCount(m.store.P)
	title := fmt.Sprintf("Study plan · %s · %d min · %d of %d steps done", p.Title, p.Minutes(), steps, len(p.Steps))
	other := m.plans[(m.p+1)%len(m.plans)].Title
	body := []string{widget.TitleBar(th, th.Paint(widget.StTitle, title), w)}
	body = append(body, widget.WrapRows(th, widget.StDim,
		fmt.Sprintf("%s (%d of %d minutes done) · tab: %s", p.Intro, minutes, p.Minutes(), strings.ToLower(other)), w, 2)...)

	s := m.Selected()
	footer := m.detail(s)
	if m.note != "" {
		footer = append(footer, widget.WrapRows(th, widget.StQueued, m.note, w, 2)...)
	}
	footer = append(footer, widget.HelpLine(m.help, keys, w))

	rows := max(m.h-len(body)-len(footer), 1)
	n := len(p.Steps)
	if n > rows && rows > 1 {
		rows-- // the last row says how many steps are above and below
	}
	// The selected step stays on the last row shown once it is below the first screenful.
	top := max(m.cur-rows+1, 0)
	end := min(top+rows, n)
	for i := top; i < end; i++ {
		body = append(body, m.row(p.Steps[i], i == m.cur))
	}
	if top > 0 || end < n {
		more := fmt.Sprintf("  steps %d–%d of %d", top+1, end, n)
		if top > 0 {
			more += fmt.Sprintf(" · %d above", top)
		}
		if end < n {
			more += fmt.Sprintf(" · %d more below", n-end)
		}
		body = append(body, th.Paint(widget.StDim, more))
	}
	return widget.Frame(body, footer, w, m.h)
}

// row is one step: the pointer, its mark, id, minutes, chapter, kind, what.
func (m Model) row(s plan.Step, selected bool) string {
	th := m.th
	pointer, st := "  ", widget.StNone
	if selected {
		pointer, st = string(widget.GlyphPointer)+" ", widget.StSelected
	}
	mark, mst := markTodo, widget.StDim
	if s.Done(m.store.P) {
		mark, mst = markDone, widget.StAllowed
	}
	line := fmt.Sprintf("%s %3d min  %s %-8s %s", s.ID, s.Minutes, plan.ChapterID(s.Chapter), s.Kind, s.What)
	room := max(m.w-4, 10)
	if ansi.StringWidth(line) > room {
		line = ansi.Truncate(line, room-1, "") + "…"
	}
	return pointer + th.Paint(mst, mark) + " " + th.Paint(st, line)
}

// detail is the selected step in full: what, where and what to say after.
func (m Model) detail(s plan.Step) []string {
	th, w := m.th, m.w
	var out []string
	add := func(label, v string, st widget.StyleID, n int) {
		ls := text.WrapHanging(v, w, label, strings.Repeat(" ", len(label)))
		if len(ls) > n {
			ls = ls[:n]
			ls[n-1] = ansi.Truncate(ls[n-1], w-1, "") + "…"
		}
		for _, l := range ls {
			out = append(out, th.Paint(st, l))
		}
	}
	add("do    ", s.What, widget.StNone, 2)
	where := s.Where()
	if len(where)+6 > w && !strings.Contains(where, " ") {
		// An anchor longer than the row: cut at the row's end, whole.
		room := max(w-6, 10)
		for i := 0; i < len(where); i += room {
			lead := "where "
			if i > 0 {
				lead = "      "
			}
			out = append(out, th.Paint(widget.StLabel, lead+where[i:min(i+room, len(where))]))
		}
	} else {
		add("where ", where, widget.StLabel, 2)
	}
	add("say   ", s.Say, widget.StDim, 2)
	return out
}
