package service

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// View: the title with the clock and the store, the composer and the
// driver, then the last answer descriptor by descriptor (or the rules),
// the running counts, a note and the keys.
func (m Model) View() string {
	th, w := m.th, m.w
	store := th.Paint(widget.StAllowed, "store up")
	if m.outage.Down() {
		store = th.Paint(widget.StError, "store DOWN")
	}
	title := th.Paint(widget.StTitle, "10 · The service") +
		th.Paint(widget.StDim, fmt.Sprintf("   clock %s   ", secs(m.now()))) + store
	if m.svc != nil {
		title += th.Paint(widget.StDim, " · breaker "+m.svc.Breaker())
	}
	body := []string{widget.TitleBar(th, title, w)}
	if m.startErr != "" {
		body = append(body, widget.WrapRows(th, widget.StError, "the service did not start: "+m.startErr, w, 3)...)
		return widget.Frame(body, []string{widget.HelpLine(m.help, m.Keys(), w)}, w, m.h)
	}
	reqRow, reqStarts := m.req.Row(th, w-9)
	trRow, trStarts := m.traffic.Row(th, w-9)
	body = append(body, th.Paint(widget.StHeading, "request  ")+reqRow, th.Paint(widget.StHeading, "traffic  ")+trRow+m.runText())
	switch {
	case m.req.Editing || m.req.FirstErr() >= 0:
		body = append(body, indent(m.req.Message(th, reqStarts, w-9, 2))...)
	case m.traffic.Editing || m.traffic.FirstErr() >= 0:
		body = append(body, indent(m.traffic.Message(th, trStarts, w-9, 2))...)
	}
	body = append(body, "")
	if m.rules || m.rulesForm.Editing {
		body = append(body, m.rulesRows()...)
	} else {
		body = append(body, m.answerRows()...)
	}
	var footer []string
	footer = append(footer, th.Paint(widget.StDim, fmt.Sprintf("store calls the deny cache saved: %d", m.saved)))
	if m.note != "" {
		footer = append(footer, widget.WrapRows(th, widget.StQueued, m.note, w, 2)...)
	}
	footer = append(footer, widget.HelpLine(m.help, m.Keys(), w))
	for i, r := range body {
		body[i] = ansi.Truncate(r, w, "…")
	}
	return widget.Frame(body, footer, w, m.h)
}

func indent(rows []string) []string {
	for i := range rows {
		rows[i] = strings.Repeat(" ", 9) + rows[i]
	}
	return rows
}

// secs writes a clock time as seconds with a tenth: "1.3 s".
func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// runText is the traffic run's progress after the driver's fields.
func (m Model) runText() string {
	r := m.run
	if r == nil {
		return m.th.Paint(widget.StDim, "   r starts it")
	}
	state := fmt.Sprintf("   %d of %d sent", r.sent, r.total())
	if r.done() {
		state = fmt.Sprintf("   all %d sent", r.total())
	}
	return m.th.Paint(widget.StDim, state)
}

// answerRows: the last answer, three rows a descriptor, then the run's tally.
func (m Model) answerRows() []string {
	th := m.th
	a := m.last
	if a == nil {
		return widget.WrapRows(th, widget.StDim, "enter sends the request above to chapter 10's service, e edits it, "+
			"p loads another example. t edits the traffic, r starts it, → steps the clock 0.1 s, ] a second, end to the "+
			"traffic's end. x takes the store down and brings it back. v shows the rules, c loads others.", m.w, 4)
	}
	st := widget.StAllowed
	switch {
	case a.err != nil:
		st = widget.StError
	case a.overLimit():
		st = widget.StRejected
	}
	code, why := a.overall()
	rows := []string{th.Paint(widget.StDim, fmt.Sprintf("answer at %s: ", secs(a.at))) + th.Paint(st, code)}
	if why == "" {
		rows[0] += th.Paint(widget.StDim, fmt.Sprintf("   (%s fails %s)", a.req.GetDomain(), a.mode))
	} else {
		rows = append(rows, widget.WrapRows(th, widget.StDim, why, m.w, 2)...)
	}
	room := max(m.h-10, 3) // the rest of the screen, less the tally and the footer
	for i := range a.traces {
		d := a.rows(th, i, m.w)
		if len(rows)+len(d) > room {
			rows = append(rows, th.Paint(widget.StDim, fmt.Sprintf("… and %d more descriptors", len(a.traces)-i)))
			break
		}
		rows = append(rows, d...)
	}
	if r := m.run; r != nil && r.sent > 0 {
		rows = append(rows, "", th.Paint(widget.StHeading, "traffic ")+
			fmt.Sprintf("%s to %s: %d sent, %s", secs(r.start), secs(r.at(r.sent-1)), r.sent, r.tally))
	}
	return rows
}
