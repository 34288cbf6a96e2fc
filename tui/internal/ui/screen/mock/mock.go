// Package mock is chapter 07's timed mock interview: one design question,
// the 45-minute track or its 15-minute short form, four phases on a clock,
// a checklist per phase, the pushback in the wrap-up, a saved summary.
package mock

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/timer"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	saved "github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The timed mock interview: one design question (chapter 07's Mock), the
// four phases of the 45-minute track (chapter 07's LongForm, the default)
// or of the 15-minute skeleton, each on a visible clock that moves on by
// itself, with the interviewer's questions and a checklist the learner
// ticks. In the track's design phase the request path can be shown (d); in
// its wrap-up the prompt's pushbacks come one at a time, each revealing on
// a key what a strong answer contains and the chapter that proves it.
// Then a summary: time per phase, points covered and missed, the pushbacks
// to review and the chapters to review. Finished interviews are saved.

type State int

// phaseKind is what a phase shows beyond its questions and checklist.
type phaseKind int

const (
	plainPhase    phaseKind = iota
	designPhase             // the track's design: the request path on d
	pushbackPhase           // the track's wrap-up: one pushback at a time
)

// Forms of the interview, as saved.
const (
	FormTrack = "45-minute"
	FormShort = "15-minute"
)

// step is one phase's title and minutes: the track's or the skeleton's.
type step struct {
	Title   string
	Minutes int
}

const (
	Choosing State = iota
	OnClock
	Done
)

type Model struct {
	th    *widget.Theme
	w, h  int
	help  help.Model
	store *saved.Store

	state  State
	list   list.Model // the prompts
	short  bool       // the 15-minute short form instead of the track
	prompt int        // index into interview.Mock
	phases []interview.MockPhase
	steps  []step
	push   []interview.Push // the wrap-up's pushbacks (the track only)
	strong []bool           // a strong answer shown, per pushback
	drawn  bool             // the request path is shown
	top    int              // its first row shown
	phase  int              // index into phases
	clock  timer.Model
	bar    progress.Model
	minute time.Duration // a skeleton minute: time.Minute, shorter in tests
	used   []time.Duration
	ticked [][]bool
	cur    int // the checklist point under the cursor
	record saved.Interview
	note   string
	// leaving: esc (or q) was pressed once while the clock runs; the same
	// key again ends the interview (and q the app), any other key only
	// answers the question and goes on.
	leaving key.Binding
	ask     tea.Msg // what the last key asked the app for (screen.Quit)
}

// promptItem is one prompt in the chooser.
type promptItem struct {
	p    interview.Prompt
	last string
}

func (i promptItem) Title() string       { return i.p.Title }
func (i promptItem) Description() string { return i.last + i.p.Ask }

// form is the running or chosen form's name.
func (m Model) form() string {
	if m.short {
		return FormShort
	}
	return FormTrack
}

// plan is prompt p in the chosen form: its phases, their steps, and the
// pushbacks of the wrap-up.
func (m Model) plan(p interview.Prompt) ([]interview.MockPhase, []step, []interview.Push) {
	var steps []step
	if m.short {
		for _, s := range interview.Skeleton {
			steps = append(steps, step{s.Title, s.Minutes})
		}
		return p.Phases, steps, nil
	}
	for _, s := range interview.Track {
		steps = append(steps, step{s.Title, s.Minutes})
	}
	return interview.LongForm(p), steps, interview.PushbackFor(p)
}

// kind is what phase j of the running form shows.
func (m Model) kind(j int) phaseKind {
	switch {
	case m.short || m.state != OnClock:
		return plainPhase
	case j == 1:
		return designPhase
	case j == len(m.phases)-1 && len(m.push) > 0:
		return pushbackPhase
	}
	return plainPhase
}
func (i promptItem) FilterValue() string { return i.p.Title }

func New(th *widget.Theme, store *saved.Store) Model {
	d := list.NewDefaultDelegate()
	d.SetSpacing(0)
	l := list.New(nil, d, 0, 0)
	l.Title = "Choose the design question"
	l.Styles.Title = th.S[widget.StHeading]
	l.Styles.TitleBar = l.Styles.TitleBar.Padding(0, 0, 1, 0)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.SetFilteringEnabled(false)
	l.DisableQuitKeybindings()
	l.KeyMap.CursorUp, l.KeyMap.CursorDown = keys.Up, keys.Down
	for _, b := range []*key.Binding{&l.KeyMap.ShowFullHelp, &l.KeyMap.CloseFullHelp, &l.KeyMap.Filter} {
		*b = key.NewBinding(key.WithDisabled())
	}
	bar := progress.New(progress.WithoutPercentage(), progress.WithSolidFill("12"), progress.WithColorProfile(lipgloss.ColorProfile()))
	m := Model{th: th, help: widget.NewHelp(th), store: store, list: l, bar: bar, minute: time.Minute}
	return m.Choose()
}

// choose shows the prompts, each with how it went last time.
func (m Model) Choose() Model {
	m.state = Choosing
	items := make([]list.Item, len(interview.Mock))
	for i, p := range interview.Mock {
		last := ""
		for _, r := range m.store.P.Interviews {
			if r.Prompt == p.Name && (r.Form == m.form() || (r.Form == "" && m.short)) {
				last = fmt.Sprintf("last time %d of %d points; ", r.Covered, r.Points)
			}
		}
		items[i] = promptItem{p, last}
	}
	m.list.SetItems(items)
	m.list.SetSize(m.w, max(m.h-3, 3))
	return m
}

// start runs prompt i from its first phase.
func (m Model) start(i int) (Model, tea.Cmd) {
	p := interview.Mock[i]
	m.state, m.prompt, m.phase, m.note = OnClock, i, 0, ""
	m.phases, m.steps, m.push = m.plan(p)
	m.strong, m.drawn, m.top = make([]bool, len(m.push)), false, 0
	m.used = make([]time.Duration, len(m.phases))
	m.ticked = make([][]bool, len(m.phases))
	for j, ph := range m.phases {
		m.ticked[j] = make([]bool, len(ph.Checklist))
	}
	return m, m.startPhase()
}

func (m Model) planned(phase int) time.Duration {
	return time.Duration(m.steps[phase].Minutes) * m.minute
}

// startPhase puts the current phase on a fresh clock.
func (m *Model) startPhase() tea.Cmd {
	m.cur, m.drawn = 0, false
	m.clock = timer.NewWithInterval(m.planned(m.phase), max(m.minute/60, time.Millisecond))
	return m.clock.Init()
}

// nextPhase closes the current phase (its time is what the clock used)
// and opens the next, or the summary after the last.
func (m Model) nextPhase() (Model, tea.Cmd) {
	m.used[m.phase] = min(max(m.planned(m.phase)-m.clock.Timeout, 0), m.planned(m.phase))
	m.clock.Timeout = 0 // its pending ticks are now ignored
	m.phase++
	if m.phase < len(m.used) {
		return m, m.startPhase()
	}
	return m.finish(), nil
}

// finish builds the summary and saves it.
func (m Model) finish() Model {
	p := interview.Mock[m.prompt]
	r := saved.Interview{Prompt: p.Name, Form: m.form(), At: time.Now().UTC()}
	for j, ph := range m.phases {
		pr := saved.Phase{Seconds: int(m.used[j].Round(time.Second) / time.Second)}
		for k := range ph.Checklist {
			r.Points++
			if m.ticked[j][k] {
				r.Covered++
				pr.Ticked = append(pr.Ticked, k)
			}
		}
		r.Phases = append(r.Phases, pr)
	}
	p.Phases = m.phases
	r.Review = saved.ChaptersToReview(p, func(j, k int) bool { return m.ticked[j][k] })
	if last := len(m.phases) - 1; len(m.push) > 0 {
		for k, q := range m.push {
			if !m.ticked[last][k] {
				r.Pushback = append(r.Pushback, q.ID)
			}
		}
	}
	m.state, m.record = Done, r
	m.store.P.Interviews = append(m.store.P.Interviews, r)
	if err := m.store.Save(); err != nil {
		m.note = "not saved: " + err.Error()
	}
	return m
}

// Update runs the clock, ticks points, and moves between the states.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	return m.update(msg)
}

// Ask is what the last key asked the app for: screen.Quit once a quit is
// confirmed and the interview saved.
func (m Model) Ask() tea.Msg { return m.ask }

// GuardsQuit: while the clock runs, q asks first and saves, as esc does.
func (m Model) GuardsQuit() bool { return m.state == OnClock }

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.list.SetSize(m.w, max(m.h-3, 3))
		return m, nil
	case timer.TickMsg, timer.StartStopMsg:
		if m.state != OnClock {
			return m, nil
		}
		var cmd tea.Cmd
		m.clock, cmd = m.clock.Update(msg)
		return m, cmd
	case timer.TimeoutMsg:
		if m.state == OnClock && msg.ID == m.clock.ID() {
			ended := m.phase
			m, cmd := m.nextPhase()
			m.leaving = key.Binding{}
			m.note = fmt.Sprintf("time is up for phase %d: the interview is over", ended+1)
			if m.state == OnClock {
				m.note = fmt.Sprintf("time is up for phase %d: on to phase %d, %s", ended+1, m.phase+1,
					m.steps[m.phase].Title)
			}
			return m, cmd
		}
		return m, nil
	case tea.KeyMsg:
		m.note = ""
		switch m.state {
		case Choosing:
			if key.Matches(msg, keys.Start) {
				return m.start(m.list.Index())
			}
			if key.Matches(msg, keys.Form) {
				m.short = !m.short
				idx := m.list.Index()
				m = m.Choose()
				m.list.Select(idx)
				return m, nil
			}
			var cmd tea.Cmd
			m.list, cmd = m.list.Update(msg)
			return m, cmd
		case OnClock:
			return m.runningKey(msg)
		case Done:
			if key.Matches(msg, keys.Again) {
				return m.start(m.prompt)
			}
		}
	}
	return m, nil
}

func (m Model) runningKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	points := m.phases[m.phase].Checklist
	kind := m.kind(m.phase)
	asked := m.leaving
	m.leaving = key.Binding{}
	if len(asked.Keys()) > 0 {
		if !key.Matches(msg, asked) {
			m.note = "going on"
			return m, nil // the key answered the question; it does nothing else
		}
		// Stop early: the summary counts what was ticked so far.
		for m.state == OnClock {
			m, _ = m.nextPhase()
		}
		m.note = "stopped early: the phases not reached count as not covered"
		if key.Matches(msg, widget.Global.Quit) {
			m.ask = screen.Quit{}
		}
		return m, nil
	}
	if m.drawn && !key.Matches(msg, widget.Global.Back, widget.Global.Quit) {
		// The request path is shown: the arrows scroll it, d closes it.
		if top, ok := path.Scroll(msg, m.top, m.pathRows()); ok {
			m.top = top
			return m, nil
		}
	}
	switch {
	case key.Matches(msg, widget.Global.Back):
		m.leaving = widget.Global.Back
		m.note = "end the interview here? " + widget.KeyName(widget.Global.Back) +
			" again ends it and saves what you ticked; any other key goes on"
	case key.Matches(msg, widget.Global.Quit):
		m.leaving = widget.Global.Quit
		m.note = "quit the course? " + widget.KeyName(widget.Global.Quit) +
			" again saves what you ticked and quits; any other key goes on"
	case key.Matches(msg, keys.NextPhase):
		return m.nextPhase()
	case key.Matches(msg, keys.Path) && kind == designPhase:
		m.drawn = !m.drawn
	case key.Matches(msg, keys.Strong) && kind == pushbackPhase:
		m.strong[m.cur] = !m.strong[m.cur]
	case key.Matches(msg, keys.NextPush) && kind == pushbackPhase:
		m.cur = min(m.cur+1, len(points)-1)
	case key.Matches(msg, keys.PrevPush) && kind == pushbackPhase:
		m.cur = max(m.cur-1, 0)
	case key.Matches(msg, keys.Pause):
		return m, m.clock.Toggle()
	case key.Matches(msg, keys.Up):
		m.cur = max(m.cur-1, 0)
	case key.Matches(msg, keys.Down):
		m.cur = min(m.cur+1, len(points)-1)
	case key.Matches(msg, keys.Tick):
		m.ticked[m.phase][m.cur] = !m.ticked[m.phase][m.cur]
	case key.Matches(msg, keys.TickN):
		if k := int(msg.String()[0] - '1'); k < len(points) {
			m.cur = k
			m.ticked[m.phase][k] = !m.ticked[m.phase][k]
		}
	}
	return m, nil
}

// CapturesEsc: while the clock runs, esc (twice) ends the interview into
// its summary.
func (m Model) CapturesEsc() bool { return m.state == OnClock }
func (m Model) Keys() help.KeyMap { return mockHelp{m.state, m.kind(m.phase), m.drawn} }
func (m Model) Name() string      { return "mock interview" }

// Running reports whether an interview is on the clock.
func (m Model) Running() bool { return m.state == OnClock }

// Resize gives the interview the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m, _ = m.update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// clockText is a duration as m:ss.
func clockText(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// View renders the chooser, the running phase, or the summary.
func (m Model) View() string {
	th, w := m.th, m.w
	footer := []string{widget.HelpLine(m.help, m.Keys(), w)}
	if m.note != "" {
		footer = append([]string{th.Paint(widget.StQueued, m.note)}, footer...)
	}
	title := th.Paint(widget.StTitle, "07 · Mock interview")
	if m.state == Choosing {
		form := fmt.Sprintf("   %d-minute track: %d phases, then the pushback", interview.TrackMinutes(), len(interview.Track))
		if m.short {
			form = fmt.Sprintf("   %d-minute short form: %d phases", interview.SkeletonMinutes(), len(interview.Skeleton))
		}
		other := "the 15-minute short form"
		if m.short {
			other = "the 45-minute track"
		}
		body := []string{widget.TitleBar(th, title+th.Paint(widget.StDim, form), w),
			th.Paint(widget.StLabel, "  "+widget.KeyName(keys.Form)) + th.Paint(widget.StDim, " switches to "+other)}
		return widget.Frame(append(body, widget.SplitLines(m.list.View())...), footer, w, m.h)
	}
	p := interview.Mock[m.prompt]
	title += th.Paint(widget.StDim, " · ") + th.Paint(widget.StLabel, p.Title)
	body := []string{widget.TitleBar(th, title, w)}
	if m.state == Done {
		return widget.Frame(append(body, m.summary()...), footer, w, m.h)
	}
	st, ph, kind := m.steps[m.phase], m.phases[m.phase], m.kind(m.phase)
	left := th.Paint(widget.StLabel, "  "+clockText(m.clock.Timeout)+" left")
	paused := "" // on the bar's row: the phase's row is full at 80 columns
	if !m.clock.Running() {
		paused = "  paused: " + widget.KeyName(keys.Pause) + " resumes"
	}
	elapsed := 1 - float64(m.clock.Timeout)/float64(m.planned(m.phase))
	m.bar.Width = max(w-4-len(paused), 10)
	head := []string{
		th.Paint(widget.StHeading, fmt.Sprintf("Phase %d of %d · %s", m.phase+1, len(m.phases), st.Title)) +
			th.Paint(widget.StDim, fmt.Sprintf(" · %d min", st.Minutes)) + left,
		"  " + m.bar.ViewAs(min(max(elapsed, 0), 1)) + th.Paint(widget.StQueued, paused)}
	room := m.h - len(footer) - len(body) - len(head)
	if m.drawn {
		ls, top := path.Window(m.top, m.pathRows())
		body = append(body, head...)
		body = append(body, th.Paint(widget.StLabel, "The request path")+
			th.Paint(widget.StDim, fmt.Sprintf(" (rows %d–%d of %d; %s closes it)", top+1, top+len(ls), len(path.Lines()), widget.KeyName(keys.Path))))
		for _, l := range ls {
			body = append(body, th.Paint(widget.StNone, l))
		}
		return widget.Frame(body, footer, w, m.h)
	}
	var rest []string
	if kind == pushbackPhase {
		rest = m.pushbackRows(room - 1)
	} else {
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

// pathRows is how many rows of the request path the design phase shows.
func (m Model) pathRows() int { return max(m.h-6, 3) }

// phaseRows are a phase's questions and checklist in at most room rows:
// the questions shrink to a row each first, then the checklist shows a
// window of points around the cursor.
func (m Model) phaseRows(ph interview.MockPhase, kind phaseKind, room int) []string {
	th, w := m.th, m.w
	qrows := func(n int) []string {
		out := []string{th.Paint(widget.StLabel, "The interviewer asks")}
		if kind == designPhase {
			out[0] += th.Paint(widget.StDim, " ("+widget.KeyName(keys.Path)+": the request path to draw)")
		}
		for _, q := range ph.Questions {
			out = append(out, widget.Hanging(widget.WrapRows(th, widget.StNone, q, w-4, n), "  · ", "    ")...)
		}
		return out
	}
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
	label := th.Paint(widget.StLabel, "What a strong answer covers") + th.Paint(widget.StDim, " (tick what you said)")
	count := func(ps [][]string) int {
		n := 0
		for _, p := range ps {
			n += len(p)
		}
		return n
	}
	guide := m.guideRows()
	qs := qrows(2)
	if len(guide)+len(qs)+1+count(points) > room {
		qs = qrows(1)
	}
	out := append(append(guide, qs...), label)
	if len(out)+count(points) <= room {
		for _, p := range points {
			out = append(out, p...)
		}
		return out
	}
	// A window of points that holds the cursor, with what is above and below.
	left := room - len(out) - 1
	from, to := m.cur, m.cur+1
	for n := len(points[m.cur]); ; {
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
	for _, p := range points[from:to] {
		out = append(out, p...)
	}
	more := fmt.Sprintf("  %d above, %d below: %s/%s", from, len(points)-to, widget.KeyName(keys.Up), widget.KeyName(keys.Down))
	return append(out, th.Paint(widget.StDim, more))
}

// guideRows are what the track says to open the phase with and what to put
// on the board, as tui interview prints them (the short form has neither).
func (m Model) guideRows() []string {
	if m.short || m.phase >= len(interview.Track) {
		return nil
	}
	th, w, tp := m.th, m.w, interview.Track[m.phase]
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

// pushbackRows are the wrap-up: the pushback under the cursor, ticked or
// not, and on a key what a strong answer contains and where the course
// proves it.
func (m Model) pushbackRows(room int) []string {
	th, w := m.th, m.w
	q := m.push[m.cur]
	box := "[ ]"
	if m.ticked[m.phase][m.cur] {
		box = "[" + string(widget.GlyphTicked) + "]"
	}
	out := []string{th.Paint(widget.StLabel, fmt.Sprintf("The interviewer pushes back (%d of %d)", m.cur+1, len(m.push))) +
		th.Paint(widget.StDim, " · "+widget.KeyName(keys.NextPush)+" next, "+widget.KeyName(keys.PrevPush)+" previous")}
	out = append(out, widget.Hanging(widget.WrapRows(th, widget.StSelected, "“"+q.Prompt+"”", w-6, 2), box+" ", "    ")...)
	if !m.strong[m.cur] {
		return append(out, th.Paint(widget.StDim, "Answer aloud, then "+widget.KeyName(keys.Strong)+": what a strong answer contains; "+
			widget.KeyName(keys.Tick)+" ticks it as answered."))
	}
	out = append(out, th.Paint(widget.StLabel, "A strong answer contains"))
	proof := widget.Hanging(widget.WrapRows(th, widget.StDim, fmt.Sprintf("proven in chapter %s: %s; card %s", q.Chapter, q.Proof, q.Card), w-4, 3), "  ", "  ")
	left := room - len(out) - len(proof)
	for i, s := range q.Strong {
		rows := widget.WrapRows(th, widget.StNone, s, w-4, max(min(3, left-(len(q.Strong)-i-1)), 1))
		left -= len(rows)
		out = append(out, widget.Hanging(rows, "  · ", "    ")...)
	}
	return append(out, proof...)
}

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

// What the interview holds, for the app and its tests.

func (m Model) State() State                    { return m.state }
func (m Model) Clock() timer.Model              { return m.clock }
func (m Model) Phase() int                      { return m.phase }
func (m Model) Prompt() int                     { return m.prompt }
func (m Model) Short() bool                     { return m.short }
func (m Model) Phases() []interview.MockPhase   { return m.phases }
func (m Model) Pushback() []interview.Push      { return m.push }
func (m Model) Drawn() bool                     { return m.drawn }
func (m Model) Cursor() int                     { return m.cur }
func (m Model) Ticked() [][]bool                { return m.ticked }
func (m Model) Record() saved.Interview         { return m.record }
func (m Model) Used() []time.Duration           { return m.used }
func (m Model) Planned(phase int) time.Duration { return m.planned(phase) }

// WithMinute sets how long a skeleton minute lasts (tests make it short).
func (m Model) WithMinute(d time.Duration) Model {
	m.minute = d
	return m
}
