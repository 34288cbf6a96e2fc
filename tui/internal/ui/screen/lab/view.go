package lab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	engine "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/timeline"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The lab view renders the model; it changes nothing.
//
//	row  1      title: scenario, zoom
//	row  2      cursor marker ▼ over the current request
//	rows 3–6    left track: header, arrivals, upstream, frame row
//	rows 7–10   right track
//	row  11     the time axis (ms)
//	rows 12–    request table | what each side did at the cursor
//	last rows   fields, message or hint, keys

// trackHeader is "left  fixed-window  allowed 6  rejected 2  max/W 6  over 3 …".
func trackHeader(th *widget.Theme, m Model, side, w int) string {
	name := [2]string{"left  ", "right "}[side]
	head := th.Paint(widget.StLabel, name+fmt.Sprintf("%-*s", max(17, len(m.algo[side])+1), m.algo[side]))
	if m.runErr[side] != "" {
		return head + th.Paint(widget.StError, "  cannot run this budget:")
	}
	mt := m.res[side].Metrics
	overSt := widget.StNone
	if mt.Overshoot > 0 {
		overSt = widget.StRejected
	}
	// Two spaces between the figures when they fit, one when they do not.
	for _, sp := range []string{"  ", " "} {
		s := fmt.Sprintf("allowed %d%srejected %d%smax/W %d%s", mt.Allowed, sp, mt.Rejected, sp, mt.MaxInWindow, sp)
		tail := fmt.Sprintf("%swait %dms%sstate %d", sp, mt.MaxWaitMS, sp, mt.StateValues)
		out := head + s + th.Paint(overSt, fmt.Sprintf("over %d", mt.Overshoot)) + tail
		if lipgloss.Width(out) <= w || sp == " " {
			return out
		}
	}
	return head
}

// cursorRow puts ▼ over the current request and names it.
func cursorRow(th *widget.Theme, m Model, acols []int, cols int) string {
	if len(m.arrivals) == 0 || m.Cursor >= len(acols) || acols[m.Cursor] < 0 {
		return ""
	}
	c := widget.NewCanvas(cols, 1)
	x := acols[m.Cursor]
	c.Set(x, 0, widget.GlyphCursor, widget.StLabel)
	label := fmt.Sprintf(" #%d at %d ms", m.Cursor+1, m.arrivals[m.Cursor])
	n := len([]rune(label))
	if x+1+n <= cols {
		c.Text(x+1, 0, label, widget.StLabel)
	} else if left := label[1:] + " "; x-n >= 0 {
		c.Text(x-n, 0, left, widget.StLabel)
	}
	return strings.Repeat(" ", timeline.Gutter) + c.Row(th, 0)
}

// outcome is a request's decision in a few characters, shape first.
func outcome(r engine.Request) (string, widget.StyleID) {
	switch {
	case !r.Allowed:
		return string(widget.GlyphRejected) + " R", widget.StRejected
	case timeline.Queued(r):
		return fmt.Sprintf("%c @%d", widget.GlyphQueued, *r.SentMS), widget.StQueued
	}
	return string(widget.GlyphSent) + " A", widget.StAllowed
}

// requestTable lists the requests around the cursor: #, arrival, left, right.
func requestTable(th *widget.Theme, m Model, rows, w int) string {
	n := len(m.arrivals)
	body := max(rows-1, 1)
	start := 0
	if n > body {
		start = min(max(m.Cursor-body/2, 0), n-body)
	}
	end := min(n, start+body)
	var data [][]string
	var sts [][2]widget.StyleID
	for i := start; i < end; i++ {
		ptr := " "
		if i == m.Cursor {
			ptr = string(widget.GlyphPointer)
		}
		row := []string{fmt.Sprintf("%s%3d", ptr, i+1), strconv.FormatInt(m.arrivals[i], 10)}
		var st [2]widget.StyleID
		for s := 0; s < 2; s++ {
			text := ""
			st[s] = widget.StDim
			if i < len(m.res[s].Requests) {
				text, st[s] = outcome(m.res[s].Requests[i])
			}
			row = append(row, text)
		}
		data, sts = append(data, row), append(sts, st)
	}
	cur := m.Cursor - start
	t := widget.PlainTable("   #", "arr ms", "left", "right").Rows(data...).Width(w).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := th.S[widget.StNone].PaddingRight(1)
			switch {
			case row == table.HeaderRow:
				return th.S[widget.StDim].PaddingRight(1)
			case row == cur:
				s = th.S[widget.StSelected].PaddingRight(1)
			case col >= 2 && row < len(sts):
				s = th.S[sts[row][col-2]].PaddingRight(1)
			}
			if col == 1 {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	return t.String()
}

// statePanel says what both sides did at the cursor: the decision, the
// key's state and why. Its first line always names the request; when rows
// are short it gives up first the second line of each state, then the ends
// of the longer "why", so both decisions and reasons stay on screen.
func statePanel(th *widget.Theme, m Model, rows, w int) []string {
	if len(m.arrivals) == 0 {
		return []string{th.Paint(widget.StDim, "no arrivals: press "+widget.KeyName(keys.Arrivals)+" and type some, e.g. 0,10,20")}
	}
	i := m.Cursor
	head := th.Paint(widget.StLabel, fmt.Sprintf("#%d arrives at %d ms (%d of %d)", i+1, m.arrivals[i], i+1, len(m.arrivals)))
	var title [2]string
	var state, why [2][]string
	wrap := func(s string) []string { return text.Wrap(s, w-2) }
	for s := 0; s < 2; s++ {
		name := [2]string{"left ", "right "}[s] + string(m.algo[s]) + ": "
		if m.runErr[s] != "" || i >= len(m.res[s].Requests) {
			title[s] = th.Paint(widget.StError, name+"not run")
			continue
		}
		r := m.res[s].Requests[i]
		what, st := fmt.Sprintf("%c allowed, sent at once", widget.GlyphSent), widget.StAllowed
		switch {
		case !r.Allowed:
			what, st = fmt.Sprintf("%c rejected", widget.GlyphRejected), widget.StRejected
		case timeline.Queued(r):
			what, st = fmt.Sprintf("%c queued %d ms, sent at %d", widget.GlyphQueued, *r.WaitMS, *r.SentMS), widget.StQueued
		}
		title[s] = th.Paint(widget.StLabel, name) + th.Paint(st, what)
		ex := m.res[s].Explain(i)
		state[s], why[s] = wrap("state: "+ex.State), wrap("why: "+ex.Why)
	}
	size := func() int { return 3 + len(state[0]) + len(state[1]) + len(why[0]) + len(why[1]) }
	for s := 0; s < 2 && size() > rows; s++ {
		if len(state[s]) > 1 {
			state[s] = []string{ansi.Truncate(strings.Join(state[s], " "), w-2, "…")}
		}
	}
	for size() > rows && len(why[0])+len(why[1]) > 0 {
		s := 0
		if len(why[1]) > len(why[0]) {
			s = 1
		}
		why[s] = why[s][:len(why[s])-1]
		if k := len(why[s]) - 1; k >= 0 {
			why[s][k] = ansi.Truncate(why[s][k]+" …", w-2, "…")
		}
	}
	out := []string{head}
	for s := 0; s < 2; s++ {
		out = append(out, title[s])
		for _, l := range state[s] {
			out = append(out, "  "+l)
		}
		for _, l := range why[s] {
			out = append(out, th.Paint(widget.StDim, "  "+l))
		}
	}
	return out
}

// View renders the lab screen at its size, its short help last.
func (m Model) View() string { return m.view(widget.HelpLine(m.help, m.Keys(), m.w)) }

func (m Model) view(keysLine string) string {
	th, w, h := m.th, m.w, m.h
	cols := w - timeline.Gutter
	ax := timeline.NewAxis(m.params.WindowMS, m.arrivals, m.res[:], m.zoom, m.Cursor, cols)
	acols, shift := timeline.ArrivalCols(ax, m.arrivals, m.params.WindowMS)

	title := th.Paint(widget.StTitle, "05 · Lab") + th.Paint(widget.StDim, "   scenario ") + th.Paint(widget.StLabel, m.scenarioName())
	if m.Playing {
		title += th.Paint(widget.StQueued, "   ▶ playing")
	}
	switch {
	case m.zoom > 0:
		title += th.Paint(widget.StDim, fmt.Sprintf("   zoom ×%d  %d–%d ms (%s: whole run)", uint64(1)<<min(m.zoom, 62), ax.T0, ax.T1, widget.KeyName(keys.ZoomReset)))
	case shift > 0:
		title += th.Paint(widget.StDim, fmt.Sprintf("   markers moved ±%d cols: %s zooms", shift, widget.KeyName(keys.ZoomIn)))
	case !m.custom():
		title += th.Paint(widget.StDim, " · "+engine.Scenarios[m.scen].Title)
	}
	body := []string{widget.TitleBar(th, title, w), cursorRow(th, m, acols, cols)}
	for s := 0; s < 2; s++ {
		body = append(body, trackHeader(th, m, s, w))
		if m.runErr[s] != "" {
			rows := widget.WrapRows(th, widget.StError, m.runErr[s], w-timeline.Gutter, 3)
			for len(rows) < 3 {
				rows = append(rows, "")
			}
			for _, r := range rows {
				body = append(body, strings.Repeat(" ", timeline.Gutter)+r)
			}
			continue
		}
		tr := timeline.Track{Res: m.res[s], Algo: m.algo[s], Params: m.params, Arrivals: m.arrivals, Cursor: m.Cursor}
		body = append(body, timeline.TrackRows(th, tr, ax, acols)...)
	}
	body = append(body, timeline.AxisRow(th, ax, max(m.params.WindowMS, 1)))

	footer := m.footer(w)
	if keysLine != "" {
		footer = append(footer, keysLine)
	}
	if rows := h - len(body) - len(footer); rows > 0 {
		const tw = 30
		pw := w - tw - 1
		tbl := strings.Split(requestTable(th, m, rows, tw), "\n")
		panel := statePanel(th, m, rows, pw)
		bar := th.Paint(widget.StDim, "│")
		for i := 0; i < rows; i++ {
			l, r := "", ""
			if i < len(tbl) {
				l = tbl[i]
			}
			if i < len(panel) {
				r = panel[i]
			}
			body = append(body, lipgloss.NewStyle().Width(tw).MaxWidth(tw).Render(l)+bar+r)
		}
	}
	return widget.Frame(body, footer, w, h)
}

// footer is the fields row and its message, or the note, or the hint.
func (m Model) footer(w int) []string {
	th := m.th
	m.Hidden = unusedFields(m.algo[0], m.algo[1])
	row, starts := m.Row(th, w)
	// A message or the hint takes up to three rows (a lesson is about 170
	// characters: two rows of 80 cut it); the request table gives way.
	msgs := m.Message(th, starts, w, 3)
	hint := fmt.Sprintf("hint: custom sequence: %s edits the arrivals, %s the budget, %s goes back to the prepared scenarios",
		widget.KeyName(keys.Arrivals), widget.KeyName(keys.Edit), widget.KeyName(keys.Scenario))
	if !m.custom() {
		s := engine.Scenarios[m.scen]
		hint = "hint: " + s.Lesson
		if l := s.LessonFor(m.algo[0], m.algo[1], m.params); m.changed() && l != "" {
			hint = "hint: " + l // a suggested run of the scenario, with a lesson of its own
		} else if m.changed() {
			// The lesson is about the scenario's own budget and pair.
			hint = fmt.Sprintf("hint: you changed %s's budget or sides, so its lesson may not hold here; %s and %s load the prepared scenarios as they are",
				s.Name, widget.KeyName(keys.Scenario), widget.KeyName(keys.ScenarioBack))
		}
	}
	switch {
	case len(msgs) > 0:
	case m.note != "":
		// The note says what the last key did; the hint is back at the
		// next key, whole, rather than squeezed into a row beside it.
		msgs = widget.WrapRows(th, widget.StQueued, m.note, w, 3)
	default:
		msgs = widget.WrapRows(th, widget.StDim, hint, w, 3)
	}
	for len(msgs) < 2 {
		msgs = append(msgs, "")
	}
	return append([]string{row}, msgs...)
}

// unusedFields are the budget's fields neither algorithm reads: L for the
// windows, C and R for the buckets, N for the sliding counter alone (W is
// the ruler's width, and the arrivals are both sides' input).
func unusedFields(a, b engine.Algorithm) (hidden [widget.FormMax]bool) {
	uses := func(algos ...engine.Algorithm) bool {
		for _, x := range algos {
			if a == x || b == x {
				return true
			}
		}
		return false
	}
	windows := []engine.Algorithm{engine.FixedWindow, engine.FixedWindowTTL, engine.SlidingLog, engine.SlidingCounter}
	buckets := []engine.Algorithm{engine.TokenBucket, engine.GCRA, engine.LeakyQueue}
	hidden[1] = !uses(windows...)
	hidden[2] = !uses(buckets...)
	hidden[3] = !uses(buckets...)
	hidden[4] = !uses(engine.SlidingCounter)
	return hidden
}
