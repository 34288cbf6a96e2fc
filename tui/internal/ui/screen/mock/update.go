package mock

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/timer"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Update runs the clock, ticks points, and moves between the states.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	if k, ok := msg.(keptMsg); ok {
		return m.takeKept(k), nil
	}
	next, cmd := m.update(msg)
	if next.saving != nil { // an interview finished: save it
		cmd, next.saving = tea.Batch(cmd, next.saving), nil
	}
	return next, cmd
}

// Ask is what the last key asked the app for: screen.Quit once a quit is
// confirmed and the interview saved.
func (m Model) Ask() tea.Msg { return m.ask }

// GuardsQuit: while the clock runs, q asks first and saves, as esc does.
func (m Model) GuardsQuit() bool { return m.live() }

// live: an interview is under way, on the clock or between two phases.
func (m Model) live() bool { return m.state == OnClock || m.state == Between }

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.list.SetSize(m.w, m.listRows())
		if m.typing {
			m = m.sizeNotes()
		}
		return m, nil
	case timer.TickMsg, timer.StartStopMsg:
		if m.state != OnClock {
			return m, nil
		}
		var cmd tea.Cmd
		m.clock, cmd = m.clock.Update(msg)
		return m, cmd
	case timer.TimeoutMsg:
		return m.timeUp(msg)
	case tea.KeyMsg:
		if m.state == OnClock && m.typing {
			return m.typingKey(msg)
		}
		m.note = ""
		switch m.state {
		case Choosing:
			return m.chooserKey(msg)
		case OnClock, Between:
			return m.runningKey(msg)
		case Done:
			switch {
			case key.Matches(msg, keys.Again):
				return m.start(m.prompt)
			case key.Matches(msg, keys.Down):
				return m.scrollSummary(1), nil
			case key.Matches(msg, keys.Up):
				return m.scrollSummary(-1), nil
			}
		}
	}
	return m, nil
}

// timeUp ends the phase whose clock ran out, with a note saying what the
// next key does; a timeout of any other clock is ignored.
func (m Model) timeUp(msg timer.TimeoutMsg) (Model, tea.Cmd) {
	if m.state != OnClock || msg.ID != m.clock.ID() {
		return m, nil
	}
	ended := m.phase
	m, cmd := m.nextPhase()
	m.leaving = key.Binding{}
	switch {
	case m.state == Done:
		m.note = fmt.Sprintf("time is up for phase %d: the interview is over", ended+1)
	case m.phase+1 < len(m.phases):
		m.note = fmt.Sprintf("time is up for phase %d: %s starts phase %d, %s", ended+1,
			widget.KeyName(keys.GoOn), m.phase+2, m.steps[m.phase+1].Title)
	default:
		m.note = fmt.Sprintf("time is up for phase %d: %s shows the summary", ended+1, widget.KeyName(keys.GoOn))
	}
	return m, cmd
}

// chooserKey starts the selected prompt, switches between the track and
// the short form keeping the selection, or moves in the list.
func (m Model) chooserKey(msg tea.KeyMsg) (Model, tea.Cmd) {
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
}

func (m Model) runningKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	points := m.phases[m.phase].Checklist
	kind := m.kind(m.phase)
	asked := m.leaving
	m.leaving = key.Binding{}
	if len(asked.Keys()) > 0 {
		return m.answerLeaving(msg, asked), nil
	}
	if m.drawn && !key.Matches(msg, widget.Global.Back, widget.Global.Quit) {
		// The request path is shown: the arrows scroll it, d closes it.
		if top, ok := path.Scroll(msg, m.top, m.pathRows()); ok {
			m.top = top
			return m, nil
		}
	}
	if m.state == Between {
		if next, cmd, done := m.betweenKey(msg); done {
			return next, cmd
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
	case key.Matches(msg, keys.Notes):
		return m.openNotes()
	case key.Matches(msg, keys.Path) && kind == designPhase:
		m.drawn = !m.drawn
	case key.Matches(msg, keys.Push) && len(m.pushes(m.phase)) > 0:
		m.pushView, m.drawn = !m.pushView, false
	case kind == pushbackPhase:
		return m.pushbackKey(msg), nil
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

// answerLeaving takes msg as the answer to "end the interview?" (or "quit
// the course?"): asked again stops early and saves, any other key goes on
// and does nothing else.
func (m Model) answerLeaving(msg tea.KeyMsg, asked key.Binding) Model {
	if !key.Matches(msg, asked) {
		m.note = "going on"
		return m
	}
	// Stop early: the summary counts what was ticked so far.
	m = m.stopEarly()
	m.note = "stopped early: the phases not reached count as not covered"
	if key.Matches(msg, widget.Global.Quit) {
		m.ask = screen.Quit{}
	}
	return m
}

// betweenKey handles a key between two phases: go on, or scroll the
// review. done is false for back and quit, which runningKey asks about as
// on the clock; every other key is used up here.
func (m Model) betweenKey(msg tea.KeyMsg) (next Model, cmd tea.Cmd, done bool) {
	switch {
	case key.Matches(msg, widget.Global.Back, widget.Global.Quit):
		return m, nil, false
	case key.Matches(msg, keys.GoOn):
		next, cmd = m.advance()
		return next, cmd, true
	case key.Matches(msg, keys.Down):
		return m.scrollReview(1), nil, true
	case key.Matches(msg, keys.Up):
		return m.scrollReview(-1), nil, true
	}
	return m, nil, true
}

// CapturesEsc: while the clock runs, esc (twice) ends the interview into
// its summary.
func (m Model) CapturesEsc() bool { return m.live() }
func (m Model) Keys() help.KeyMap {
	push := m.state == OnClock && len(m.pushes(m.phase)) > 0
	return mockHelp{m.state, m.kind(m.phase), m.drawn, m.typing, push}
}
func (m Model) Name() string { return "mock interview" }

// Running reports whether an interview is on the clock.
func (m Model) Running() bool { return m.live() }

// Resize gives the interview the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m, _ = m.update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}
