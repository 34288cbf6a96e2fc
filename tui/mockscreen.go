package main

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
)

// The timed mock interview: one design question (chapter 07's Mock), the
// four phases of the 15-minute skeleton, each on a visible clock that moves
// on by itself, with the interviewer's questions and a checklist the
// learner ticks; then a summary: time per phase, points covered and
// missed, and the chapters to review. Finished interviews are saved.

type mockState int

const (
	mockSelect mockState = iota
	mockRunning
	mockDone
)

type mockModel struct {
	th    *theme
	w, h  int
	help  help.Model
	store *progressStore

	state  mockState
	list   list.Model // the prompts
	prompt int        // index into interview.Mock
	phase  int        // index into interview.Skeleton
	clock  timer.Model
	bar    progress.Model
	minute time.Duration // a skeleton minute: time.Minute, shorter in tests
	used   []time.Duration
	ticked [][]bool
	cur    int // the checklist point under the cursor
	record interviewRecord
	note   string
}

// promptItem is one prompt in the chooser.
type promptItem struct {
	p    interview.Prompt
	last string
}

func (i promptItem) Title() string       { return i.p.Title }
func (i promptItem) Description() string { return i.last + i.p.Ask }
func (i promptItem) FilterValue() string { return i.p.Title }

func newMockModel(th *theme, store *progressStore) mockModel {
	d := list.NewDefaultDelegate()
	d.SetSpacing(0)
	l := list.New(nil, d, 0, 0)
	l.Title = "Choose the design question"
	l.Styles.Title = th.s[stHeading]
	l.Styles.TitleBar = l.Styles.TitleBar.Padding(0, 0, 1, 0)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.SetFilteringEnabled(false)
	l.DisableQuitKeybindings()
	l.KeyMap.CursorUp, l.KeyMap.CursorDown = okeys.Up, okeys.Down
	for _, b := range []*key.Binding{&l.KeyMap.ShowFullHelp, &l.KeyMap.CloseFullHelp, &l.KeyMap.Filter} {
		*b = key.NewBinding(key.WithDisabled())
	}
	bar := progress.New(progress.WithoutPercentage(), progress.WithSolidFill("12"), progress.WithColorProfile(lipgloss.ColorProfile()))
	m := mockModel{th: th, help: newHelp(th), store: store, list: l, bar: bar, minute: time.Minute}
	return m.choose()
}

// choose shows the prompts, each with how it went last time.
func (m mockModel) choose() mockModel {
	m.state = mockSelect
	items := make([]list.Item, len(interview.Mock))
	for i, p := range interview.Mock {
		last := ""
		for _, r := range m.store.p.Interviews {
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
func (m mockModel) start(i int) (mockModel, tea.Cmd) {
	p := interview.Mock[i]
	m.state, m.prompt, m.phase, m.note = mockRunning, i, 0, ""
	m.used = make([]time.Duration, len(p.Phases))
	m.ticked = make([][]bool, len(p.Phases))
	for j, ph := range p.Phases {
		m.ticked[j] = make([]bool, len(ph.Checklist))
	}
	return m, m.startPhase()
}

func (m mockModel) planned(phase int) time.Duration {
	return time.Duration(interview.Skeleton[phase].Minutes) * m.minute
}

// startPhase puts the current phase on a fresh clock.
func (m *mockModel) startPhase() tea.Cmd {
	m.cur = 0
	m.clock = timer.NewWithInterval(m.planned(m.phase), max(m.minute/60, time.Millisecond))
	return m.clock.Init()
}

// nextPhase closes the current phase (its time is what the clock used)
// and opens the next, or the summary after the last.
func (m mockModel) nextPhase() (mockModel, tea.Cmd) {
	m.used[m.phase] = min(max(m.planned(m.phase)-m.clock.Timeout, 0), m.planned(m.phase))
	m.clock.Timeout = 0 // its pending ticks are now ignored
	m.phase++
	if m.phase < len(m.used) {
		return m, m.startPhase()
	}
	return m.finish(), nil
}

// finish builds the summary and saves it.
func (m mockModel) finish() mockModel {
	p := interview.Mock[m.prompt]
	r := interviewRecord{Prompt: p.Name, At: time.Now().UTC()}
	for j, ph := range p.Phases {
		pr := phaseRecord{Seconds: int(m.used[j].Round(time.Second) / time.Second)}
		for k := range ph.Checklist {
			r.Points++
			if m.ticked[j][k] {
				r.Covered++
				pr.Ticked = append(pr.Ticked, k)
			}
		}
		r.Phases = append(r.Phases, pr)
	}
	r.Review = chaptersToReview(p, func(j, k int) bool { return m.ticked[j][k] })
	m.state, m.record = mockDone, r
	m.store.p.Interviews = append(m.store.p.Interviews, r)
	if err := m.store.save(); err != nil {
		m.note = "not saved: " + err.Error()
	}
	return m
}

// Update runs the clock, ticks points, and moves between the states.
func (m mockModel) Update(msg tea.Msg) (mockModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.list.SetSize(m.w, max(m.h-3, 3))
		return m, nil
	case timer.TickMsg, timer.StartStopMsg:
		if m.state != mockRunning {
			return m, nil
		}
		var cmd tea.Cmd
		m.clock, cmd = m.clock.Update(msg)
		return m, cmd
	case timer.TimeoutMsg:
		if m.state == mockRunning && msg.ID == m.clock.ID() {
			return m.nextPhase()
		}
		return m, nil
	case tea.KeyMsg:
		m.note = ""
		switch m.state {
		case mockSelect:
			if key.Matches(msg, okeys.Start) {
				return m.start(m.list.Index())
			}
			var cmd tea.Cmd
			m.list, cmd = m.list.Update(msg)
			return m, cmd
		case mockRunning:
			return m.runningKey(msg)
		case mockDone:
			if key.Matches(msg, okeys.Again) {
				return m.start(m.prompt)
			}
		}
	}
	return m, nil
}

func (m mockModel) runningKey(msg tea.KeyMsg) (mockModel, tea.Cmd) {
	points := interview.Mock[m.prompt].Phases[m.phase].Checklist
	switch {
	case key.Matches(msg, gkeys.Back):
		// Stop early: the summary counts what was ticked so far.
		for m.state == mockRunning {
			m, _ = m.nextPhase()
		}
		m.note = "stopped early: the phases not reached count as not covered"
	case key.Matches(msg, okeys.NextPhase):
		return m.nextPhase()
	case key.Matches(msg, okeys.Pause):
		return m, m.clock.Toggle()
	case key.Matches(msg, okeys.Up):
		m.cur = max(m.cur-1, 0)
	case key.Matches(msg, okeys.Down):
		m.cur = min(m.cur+1, len(points)-1)
	case key.Matches(msg, okeys.Tick):
		m.ticked[m.phase][m.cur] = !m.ticked[m.phase][m.cur]
	case key.Matches(msg, okeys.TickN):
		if k := int(msg.String()[0] - '1'); k < len(points) {
			m.cur = k
			m.ticked[m.phase][k] = !m.ticked[m.phase][k]
		}
	}
	return m, nil
}

// wantsEsc: while the clock runs, esc ends the interview into its summary.
func (m mockModel) wantsEsc() bool  { return m.state == mockRunning }
func (m mockModel) keyMap() helpMap { return mockHelp{m.state} }

// clockText is a duration as m:ss.
func clockText(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// View renders the chooser, the running phase, or the summary.
func (m mockModel) View() string {
	th, w := m.th, m.w
	footer := []string{helpLine(m.help, m.keyMap(), w)}
	if m.note != "" {
		footer = append([]string{th.paint(stQueued, m.note)}, footer...)
	}
	title := th.paint(stTitle, "07 · Mock interview")
	if m.state == mockSelect {
		title += th.paint(stDim, fmt.Sprintf("   %d minutes in %d phases, one design question", interview.SkeletonMinutes(), len(interview.Skeleton)))
		return frame(append([]string{titleBar(th, title, w)}, splitLines(m.list.View())...), footer, w, m.h)
	}
	p := interview.Mock[m.prompt]
	title += th.paint(stDim, " · ") + th.paint(stLabel, p.Title)
	body := []string{titleBar(th, title, w)}
	if m.state == mockDone {
		return frame(append(body, m.summary()...), footer, w, m.h)
	}
	step, ph := interview.Skeleton[m.phase], p.Phases[m.phase]
	body = append(body, wrapRows(th, stNone, "“"+p.Ask+"”", w, 3)...)
	left := th.paint(stLabel, "  "+clockText(m.clock.Timeout)+" left")
	if !m.clock.Running() {
		left += th.paint(stQueued, "  paused ("+keyName(okeys.Pause)+" resumes)")
	}
	elapsed := 1 - float64(m.clock.Timeout)/float64(m.planned(m.phase))
	m.bar.Width = max(w-4, 10)
	body = append(body, "",
		th.paint(stHeading, fmt.Sprintf("Phase %d of %d · %s", m.phase+1, len(p.Phases), step.Title))+
			th.paint(stDim, fmt.Sprintf(" · %d min", step.Minutes))+left,
		"  "+m.bar.ViewAs(min(max(elapsed, 0), 1)),
		th.paint(stLabel, "The interviewer asks"))
	for _, q := range ph.Questions {
		body = append(body, hanging(wrapRows(th, stNone, q, w-4, 2), "  · ", "    ")...)
	}
	body = append(body, th.paint(stLabel, "What a strong answer covers")+th.paint(stDim, " (tick what you said)"))
	for k, pt := range ph.Checklist {
		box := "[ ]"
		if m.ticked[m.phase][k] {
			box = "[" + string(glyphTicked) + "]"
		}
		ptr := "  "
		if k == m.cur {
			ptr = string(glyphPointer) + " "
		}
		st := stNone
		if k == m.cur {
			st = stSelected
		}
		lead := fmt.Sprintf("%s%s %d ", ptr, box, k+1)
		text := wrapRows(th, st, pt.Text+th.paint(stDim, " · ch "+pt.Chapter), w-len([]rune(lead)), 2)
		body = append(body, hanging(text, lead, strings.Repeat(" ", len([]rune(lead))))...)
	}
	return frame(body, footer, w, m.h)
}

// summary is the finished interview: a table of the phases, then the
// points missed and the chapters to review.
func (m mockModel) summary() []string {
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
			s := th.s[stNone].PaddingRight(2)
			if row == table.HeaderRow {
				s = th.s[stLabel].PaddingRight(2)
			}
			if col > 0 {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	out := []string{"", th.paint(stHeading, fmt.Sprintf("Summary: %d of %d points covered", r.Covered, r.Points))}
	out = append(out, splitLines(t.String())...)
	var missed []string
	for j, ph := range p.Phases {
		for k, pt := range ph.Checklist {
			if !slices.Contains(r.Phases[j].Ticked, k) {
				missed = append(missed, ansi.Truncate(fmt.Sprintf("  %c ch %s · %s", glyphRejected, pt.Chapter, pt.Text), w, "…"))
			}
		}
	}
	if len(missed) == 0 {
		return append(out, "", th.paint(stAllowed, "Every point covered."))
	}
	out = append(out, "", th.paint(stLabel, "Missed"))
	room := max(m.h-len(out)-5, 1)
	for i, l := range missed {
		if i == room-1 && len(missed) > room {
			out = append(out, th.paint(stDim, fmt.Sprintf("  … and %d more", len(missed)-i)))
			break
		}
		out = append(out, th.paint(stNone, l))
	}
	return append(out, "", th.paint(stLabel, "Review chapters ")+strings.Join(r.Review, ", "))
}
