package mock

import (
	"fmt"
	"strings"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The interview drawn: the chooser, a running phase, the request path.

// footer is the note, wrapped whole (a question the learner must read to
// answer), over the keys.
func (m Model) footer() []string {
	help := widget.HelpLine(m.help, m.Keys(), m.w)
	if m.note == "" {
		return []string{help}
	}
	return append(widget.WrapRows(m.th, widget.StQueued, m.note, m.w, 3), help)
}

// clockText is a duration as m:ss.
func clockText(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// View renders the chooser, the running phase, or the summary.
func (m Model) View() string {
	th, w := m.th, m.w
	footer := m.footer()
	title := th.Paint(widget.StTitle, "07 · Mock interview")
	if m.state == Choosing {
		return widget.Frame(m.chooserRows(title), footer, w, m.h)
	}
	p := interview.Mock()[m.prompt]
	title += th.Paint(widget.StDim, " · ") + th.Paint(widget.StLabel, p.Title)
	body := []string{widget.TitleBar(th, title, w)}
	if m.state == Done {
		return widget.Frame(append(body, m.summary(m.h-len(footer)-len(body))...), footer, w, m.h)
	}
	st, ph, kind := m.steps[m.phase], m.phases[m.phase], m.kind(m.phase)
	head := m.phaseHead(st)
	room := m.h - len(footer) - len(body) - len(head)
	if m.drawn {
		body = append(body, head...)
		return widget.Frame(append(body, m.pathView()...), footer, w, m.h)
	}
	var rest []string
	switch {
	case m.state == Between:
		head = []string{th.Paint(widget.StHeading, fmt.Sprintf("Phase %d of %d · %s", m.phase+1, len(m.phases), st.Title)) +
			th.Paint(widget.StDim, fmt.Sprintf(" · used %s of %s", clockText(m.used[m.phase]), clockText(m.planned(m.phase))))}
		room = m.h - len(footer) - len(body) - len(head)
		rest = m.reviewRows(room - 1)
	case kind == pushbackPhase:
		rest = m.pushbackRows(room - 1)
	case m.typing:
		rest = append(m.questionRows(ph, 1), m.notesRows("What you would say")...)
	default:
		rest = m.phaseRows(ph, kind, room-1)
	}
	// The question on top, in as many rows as the phase leaves.
	ask := widget.WrapRows(th, widget.StNone, "“"+p.Ask+"”", w, min(3, max(room-len(rest)-1, 1)))
	body = append(body, ask...)
	if len(ask)+len(rest)+1 < room {
		body = append(body, "")
	}
	body = append(append(body, head...), rest...)
	return widget.Frame(body, footer, w, m.h)
}

// chooserRows are the chooser's body under title: the form in use, the
// key that switches it, the prompts, and the selected prompt's question.
func (m Model) chooserRows(title string) []string {
	th, w := m.th, m.w
	form := fmt.Sprintf("   %d-minute track: %d phases, pushback in each", interview.TrackMinutes(), len(interview.Track()))
	if m.short {
		form = fmt.Sprintf("   %d-minute short form: %d phases, pushback after the first", interview.SkeletonMinutes(), len(interview.Skeleton()))
	}
	other := "the 15-minute short form"
	if m.short {
		other = "the 45-minute track"
	}
	body := []string{widget.TitleBar(th, title+th.Paint(widget.StDim, form), w),
		th.Paint(widget.StLabel, "  "+widget.KeyName(keys.Form)) + th.Paint(widget.StDim, " switches to "+other)}
	body = append(body, widget.SplitLines(m.list.View())...)
	if it, ok := m.list.SelectedItem().(promptItem); ok {
		body = append(append(body, ""), widget.WrapRows(th, widget.StNone, "“"+it.p.Ask+"”", w, askRows)...)
	}
	return body
}

// phaseHead is the running phase's two rows: its number, title, minutes
// and time left, then the bar of time used (and, when the clock is
// stopped, how to start it).
func (m Model) phaseHead(st step) []string {
	th, w := m.th, m.w
	left := th.Paint(widget.StLabel, "  "+clockText(m.clock.Timeout)+" left")
	paused := "" // on the bar's row: the phase's row is full at 80 columns
	if !m.clock.Running() {
		paused = "  paused: " + widget.KeyName(keys.Pause) + " resumes"
	}
	elapsed := 1 - float64(m.clock.Timeout)/float64(m.planned(m.phase))
	m.bar.Width = max(w-4-len(paused), 10)
	return []string{
		th.Paint(widget.StHeading, fmt.Sprintf("Phase %d of %d · %s", m.phase+1, len(m.phases), st.Title)) +
			th.Paint(widget.StDim, fmt.Sprintf(" · %d min", st.Minutes)) + left,
		"  " + m.bar.ViewAs(min(max(elapsed, 0), 1)) + th.Paint(widget.StQueued, paused)}
}

// pathView is the request path drawn in the design phase: a label with
// the rows shown, then those rows.
func (m Model) pathView() []string {
	th := m.th
	ls, top := path.Window(m.top, m.pathRows())
	out := []string{th.Paint(widget.StLabel, "The request path") +
		th.Paint(widget.StDim, fmt.Sprintf(" (rows %d–%d of %d; %s closes it)", top+1, top+len(ls), len(path.Lines()), widget.KeyName(keys.Path)))}
	for _, l := range ls {
		out = append(out, th.Paint(widget.StNone, l))
	}
	return out
}

// pathRows is how many rows of the request path the design phase shows.
func (m Model) pathRows() int { return max(m.h-6, 3) }

// phaseRows are a phase's questions and checklist in at most room rows:
// the questions shrink to a row each first, then the checklist shows a
// window of points around the cursor.
func (m Model) phaseRows(ph interview.MockPhase, kind phaseKind, room int) []string {
	th := m.th
	points := m.checklistPoints(ph)
	label := th.Paint(widget.StLabel, "What a strong answer covers") + th.Paint(widget.StDim, " (tick what you said)")
	guide := append(m.guideRows(), m.typedRows("What you wrote ("+widget.KeyName(keys.Notes)+" goes on writing)", m.notes[m.phase], 3)...)
	qs := m.phaseQuestions(ph, kind, 2)
	if len(guide)+len(qs)+1+rowCount(points) > room {
		qs = m.phaseQuestions(ph, kind, 1)
	}
	out := append(append(guide, qs...), label)
	if len(out)+rowCount(points) <= room {
		for _, p := range points {
			out = append(out, p...)
		}
		return out
	}
	// A window of points that holds the cursor, with what is above and below.
	from, to := pointWindow(points, m.cur, room-len(out)-1)
	for _, p := range points[from:to] {
		out = append(out, p...)
	}
	more := fmt.Sprintf("  %d above, %d below: %s/%s", from, len(points)-to, widget.KeyName(keys.Up), widget.KeyName(keys.Down))
	return append(out, th.Paint(widget.StDim, more))
}

// phaseQuestions are the phase's questions, each in at most n rows, the
// first row also naming the keys for the request path (design phase) and
// for the phase's pushback, if it has any.
func (m Model) phaseQuestions(ph interview.MockPhase, kind phaseKind, n int) []string {
	th := m.th
	out := m.questionRows(ph, n)
	if kind == designPhase {
		out[0] += th.Paint(widget.StDim, " ("+widget.KeyName(keys.Path)+": the request path to draw)")
	}
	if k := len(ph.Pushback); k > 0 {
		plural := "s"
		if k == 1 {
			plural = ""
		}
		out[0] += th.Paint(widget.StDim, fmt.Sprintf(" · %s: %d pushback%s", widget.KeyName(keys.Push), k, plural))
	}
	return out
}

// checklistPoints are the rows of each point of the phase's checklist: its
// tick box, number and text, the point under the cursor marked.
func (m Model) checklistPoints(ph interview.MockPhase) [][]string {
	th, w := m.th, m.w
	var points [][]string
	for k, pt := range ph.Checklist {
		box := "[ ]"
		if m.ticked[m.phase][k] {
			box = "[" + string(widget.GlyphTicked) + "]"
		}
		ptr := "  "
		if k == m.cur {
			ptr = string(widget.GlyphPointer) + " "
		}
		st := widget.StNone
		if k == m.cur {
			st = widget.StSelected
		}
		lead := fmt.Sprintf("%s%s %d ", ptr, box, k+1)
		text := widget.WrapRows(th, st, pt.Text+th.Paint(widget.StDim, " · ch "+pt.Chapter), w-len([]rune(lead)), 3)
		points = append(points, widget.Hanging(text, lead, strings.Repeat(" ", len([]rune(lead)))))
	}
	return points
}

// rowCount is the number of rows in ps.
func rowCount(ps [][]string) int {
	n := 0
	for _, p := range ps {
		n += len(p)
	}
	return n
}

// pointWindow returns the points[from:to] to show in left rows: the point
// at cur, grown by one point below then one above in turn while they fit.
func pointWindow(points [][]string, cur, left int) (from, to int) {
	from, to = cur, cur+1
	for n := len(points[cur]); ; {
		grew := false
		if to < len(points) && n+len(points[to]) <= left {
			n += len(points[to])
			to++
			grew = true
		}
		if from > 0 && n+len(points[from-1]) <= left {
			from--
			n += len(points[from])
			grew = true
		}
		if !grew {
			break
		}
	}
	return from, to
}

// questionRows are the interviewer's questions, each in at most n rows.
func (m Model) questionRows(ph interview.MockPhase, n int) []string {
	out := []string{m.th.Paint(widget.StLabel, "The interviewer asks")}
	for _, q := range ph.Questions {
		out = append(out, widget.Hanging(widget.WrapRows(m.th, widget.StNone, q, m.w-4, n), "  · ", "    ")...)
	}
	return out
}

// guideRows are what the track says to open the phase with and what to put
// on the board, as tui interview prints them (the short form has neither).
func (m Model) guideRows() []string {
	if m.short || m.phase >= len(interview.Track()) {
		return nil
	}
	th, w, tp := m.th, m.w, interview.Track()[m.phase]
	var out []string
	for _, g := range []struct{ label, text string }{{"Say first ", tp.SayFirst}, {"Draw      ", tp.Draw}} {
		if g.text == "" {
			continue
		}
		rows := widget.WrapRows(th, widget.StNone, g.text, w-len(g.label), 4)
		out = append(out, widget.Hanging(rows, th.Paint(widget.StLabel, g.label), strings.Repeat(" ", len(g.label)))...)
	}
	return out
}

// pushbackHead is the pushback under the cursor, ticked or not, under its label.
func (m Model) pushbackHead() []string {
	th, j, push := m.th, m.phase, m.pushes(m.phase)
	box := "[ ]"
	if m.pushed[j][m.pcur] {
		box = "[" + string(widget.GlyphTicked) + "]"
	}
	out := []string{th.Paint(widget.StLabel, fmt.Sprintf("The interviewer pushes back (%d of %d)", m.pcur+1, len(push))) +
		th.Paint(widget.StDim, " · "+widget.KeyName(keys.NextPush)+" next, "+widget.KeyName(keys.PrevPush)+" previous, "+
			widget.KeyName(keys.Push)+" the checklist")}
	return append(out, widget.Hanging(widget.WrapRows(th, widget.StSelected, "“"+push[m.pcur].Prompt+"”", m.w-6, 2), box+" ", "    ")...)
}

// pushbackRows are the wrap-up: the pushback under the cursor, ticked or
// not, and on a key what a strong answer contains and where the course
// proves it.
func (m Model) pushbackRows(room int) []string {
	th, w := m.th, m.w
	j, q := m.phase, m.pushes(m.phase)[m.pcur]
	out := m.pushbackHead()
	if m.typing {
		return append(out, m.notesRows("Your answer")...)
	}
	out = append(out, m.typedRows("Your answer", m.answers[j][m.pcur], 4)...)
	if !m.strong[j][m.pcur] {
		return append(out, th.Paint(widget.StDim, "Answer aloud or write it ("+widget.KeyName(keys.Notes)+"), then "+widget.KeyName(keys.Strong)+
			": what a strong answer contains; "+widget.KeyName(keys.Tick)+" ticks it as answered."))
	}
	out = append(out, th.Paint(widget.StLabel, "A strong answer contains"))
	proof := widget.Hanging(widget.WrapRows(th, widget.StDim, fmt.Sprintf("proven in chapter %s: %s; card %s", q.Chapter, q.Proof, q.Card), w-4, 4), "  ", "  ")
	left := room - len(out) - len(proof)
	for i, s := range q.Strong {
		rows := widget.WrapRows(th, widget.StNone, s, w-4, max(min(5, left-(len(q.Strong)-i-1)), 1))
		left -= len(rows)
		out = append(out, widget.Hanging(rows, "  · ", "    ")...)
	}
	return append(out, proof...)
}
