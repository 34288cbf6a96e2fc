// Package mock is chapter 07's timed mock interview: one design question,
// four phases on a clock, a checklist per phase, a saved summary.
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
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The timed mock interview: one design question (chapter 07's Mock), the
// four phases of the 15-minute skeleton, each on a visible clock that moves
// on by itself, with the interviewer's questions and a checklist the
// learner ticks; then a summary: time per phase, points covered and
// missed, and the chapters to review. Finished interviews are saved.

type State int

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
	prompt int        // index into interview.Mock
	phase  int        // index into interview.Skeleton
	clock  timer.Model
	bar    progress.Model
	minute time.Duration // a skeleton minute: time.Minute, shorter in tests
	used   []time.Duration
	ticked [][]bool
	cur    int // the checklist point under the cursor
	record saved.Interview
	note   string
	// leaving: esc was pressed once while the clock runs; a second esc
	// ends the interview, any other key goes on.
	leaving bool
}

// promptItem is one prompt in the chooser.
type promptItem struct {
	p    interview.Prompt
	last string
}

func (i promptItem) Title() string       { return i.p.Title }
func (i promptItem) Description() string { return i.last + i.p.Ask }
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
			if r.Prompt == p.Name {
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
	m.used = make([]time.Duration, len(p.Phases))
	m.ticked = make([][]bool, len(p.Phases))
	for j, ph := range p.Phases {
		m.ticked[j] = make([]bool, len(ph.Checklist))
	}
	return m, m.startPhase()
}

func (m Model) planned(phase int) time.Duration {
	return time.Duration(interview.Skeleton[phase].Minutes) * m.minute
}

// startPhase puts the current phase on a fresh clock.
func (m *Model) startPhase() tea.Cmd {
	m.cur = 0
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
	r := saved.Interview{Prompt: p.Name, At: time.Now().UTC()}
	for j, ph := range p.Phases {
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
	r.Review = saved.ChaptersToReview(p, func(j, k int) bool { return m.ticked[j][k] })
	m.state, m.record = Done, r
	m.store.P.Interviews = append(m.store.P.Interviews, r)
	if err := m.store.Save(); err != nil {
		m.note = "not saved: " + err.Error()
	}
	return m
}

// Update runs the clock, ticks points, and moves between the states.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) { return m.update(msg) }

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
			m.leaving = false
			m.note = fmt.Sprintf("time is up for phase %d: the interview is over", ended+1)
			if m.state == OnClock {
				m.note = fmt.Sprintf("time is up for phase %d: on to phase %d, %s", ended+1, m.phase+1,
					interview.Skeleton[m.phase].Title)
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
	points := interview.Mock[m.prompt].Phases[m.phase].Checklist
	leaving := m.leaving
	m.leaving = false
	switch {
	case key.Matches(msg, widget.Global.Back) && !leaving:
		m.leaving = true
		m.note = "end the interview here? " + widget.KeyName(widget.Global.Back) +
			" again ends it and saves what you ticked; any other key goes on"
	case key.Matches(msg, widget.Global.Back):
		// Stop early: the summary counts what was ticked so far.
		for m.state == OnClock {
			m, _ = m.nextPhase()
		}
		m.note = "stopped early: the phases not reached count as not covered"
	case key.Matches(msg, keys.NextPhase):
		return m.nextPhase()
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
func (m Model) Keys() help.KeyMap { return mockHelp{m.state} }
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
		title += th.Paint(widget.StDim, fmt.Sprintf("   %d minutes in %d phases, one design question", interview.SkeletonMinutes(), len(interview.Skeleton)))
		return widget.Frame(append([]string{widget.TitleBar(th, title, w)}, widget.SplitLines(m.list.View())...), footer, w, m.h)
	}
	p := interview.Mock[m.prompt]
	title += th.Paint(widget.StDim, " · ") + th.Paint(widget.StLabel, p.Title)
	body := []string{widget.TitleBar(th, title, w)}
	if m.state == Done {
		return widget.Frame(append(body, m.summary()...), footer, w, m.h)
	}
	step, ph := interview.Skeleton[m.phase], p.Phases[m.phase]
	body = append(body, widget.WrapRows(th, widget.StNone, "“"+p.Ask+"”", w, 3)...)
	left := th.Paint(widget.StLabel, "  "+clockText(m.clock.Timeout)+" left")
	paused := "" // on the bar's row: the phase's row is full at 80 columns
	if !m.clock.Running() {
		paused = "  paused: " + widget.KeyName(keys.Pause) + " resumes"
	}
	elapsed := 1 - float64(m.clock.Timeout)/float64(m.planned(m.phase))
	m.bar.Width = max(w-4-len(paused), 10)
	body = append(body, "",
		th.Paint(widget.StHeading, fmt.Sprintf("Phase %d of %d · %s", m.phase+1, len(p.Phases), step.Title))+
			th.Paint(widget.StDim, fmt.Sprintf(" · %d min", step.Minutes))+left,
		"  "+m.bar.ViewAs(min(max(elapsed, 0), 1))+th.Paint(widget.StQueued, paused),
		th.Paint(widget.StLabel, "The interviewer asks"))
	for _, q := range ph.Questions {
		body = append(body, widget.Hanging(widget.WrapRows(th, widget.StNone, q, w-4, 2), "  · ", "    ")...)
	}
	body = append(body, th.Paint(widget.StLabel, "What a strong answer covers")+th.Paint(widget.StDim, " (tick what you said)"))
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
		text := widget.WrapRows(th, st, pt.Text+th.Paint(widget.StDim, " · ch "+pt.Chapter), w-len([]rune(lead)), 2)
		body = append(body, widget.Hanging(text, lead, strings.Repeat(" ", len([]rune(lead))))...)
	}
	return widget.Frame(body, footer, w, m.h)
}

// summary is the finished interview: a table of the phases, then the
// points missed and the chapters to review.
func (m Model) summary() []string {
	th, w, r := m.th, m.w, m.record
	p := interview.Mock[m.prompt]
	rows := make([][]string, len(p.Phases))
	for j := range p.Phases {
		rows[j] = []string{fmt.Sprintf("%d %s", j+1, interview.Skeleton[j].Title),
			clockText(time.Duration(r.Phases[j].Seconds) * time.Second),
			clockText(m.planned(j)),
			fmt.Sprintf("%d of %d", len(r.Phases[j].Ticked), len(p.Phases[j].Checklist))}
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
	out := []string{"", th.Paint(widget.StHeading, fmt.Sprintf("Summary: %d of %d points covered", r.Covered, r.Points))}
	out = append(out, widget.SplitLines(t.String())...)
	var missed []string
	for j, ph := range p.Phases {
		for k, pt := range ph.Checklist {
			if !slices.Contains(r.Phases[j].Ticked, k) {
				missed = append(missed, ansi.Truncate(fmt.Sprintf("  %c ch %s · %s", widget.GlyphRejected, pt.Chapter, pt.Text), w, "…"))
			}
		}
	}
	if len(missed) == 0 {
		return append(out, "", th.Paint(widget.StAllowed, "Every point covered."))
	}
	out = append(out, "", th.Paint(widget.StLabel, "Missed"))
	room := max(m.h-len(out)-5, 1)
	for i, l := range missed {
		if i == room-1 && len(missed) > room {
			out = append(out, th.Paint(widget.StDim, fmt.Sprintf("  … and %d more", len(missed)-i)))
			break
		}
		out = append(out, th.Paint(widget.StNone, l))
	}
	return append(out, "", th.Paint(widget.StLabel, "Review chapters ")+strings.Join(r.Review, ", "))
}

// What the interview holds, for the app and its tests.

func (m Model) State() State                    { return m.state }
func (m Model) Clock() timer.Model              { return m.clock }
func (m Model) Phase() int                      { return m.phase }
func (m Model) Prompt() int                     { return m.prompt }
func (m Model) Ticked() [][]bool                { return m.ticked }
func (m Model) Record() saved.Interview         { return m.record }
func (m Model) Used() []time.Duration           { return m.used }
func (m Model) Planned(phase int) time.Duration { return m.planned(phase) }

// WithMinute sets how long a skeleton minute lasts (tests make it short).
func (m Model) WithMinute(d time.Duration) Model {
	m.minute = d
	return m
}
