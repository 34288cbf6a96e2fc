package lab

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	engine "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Update handles the lab's messages.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		return m, m.Advance(msg.id, m.last(), tick)
	case tea.KeyMsg:
		m.note = ""
		if m.Editing {
			switch m.Form.Key(msg) {
			case widget.FormChanged:
				m.applyInputs()
			case widget.FormDone:
				m.stopEdit()
			case widget.FormCancelled:
				m.applyInputs()
			}
			return m, nil
		}
		if cmd, ok := m.StepKey(msg, m.last(), tick); ok {
			return m, cmd
		}
		m.Pause()
		k := msg.String()
		switch {
		case key.Matches(msg, keys.Scenario):
			m.loadScenario(m.scen + 1)
		case key.Matches(msg, keys.ScenarioBack):
			m.loadScenario(m.scen - 1)
		case key.Matches(msg, keys.LeftAlgo):
			m.cycleAlgo(0, 1)
		case key.Matches(msg, keys.LeftAlgoBack):
			m.cycleAlgo(0, -1)
		case key.Matches(msg, keys.RightAlgo):
			m.cycleAlgo(1, 1)
		case key.Matches(msg, keys.RightAlgoBack):
			m.cycleAlgo(1, -1)
		case key.Matches(msg, keys.Swap):
			m.algo[0], m.algo[1] = m.algo[1], m.algo[0]
			m.rerun()
		case key.Matches(msg, keys.Edit):
			m.startEdit(lfW)
		case key.Matches(msg, keys.Fields):
			m.startEdit(strings.Index("WLCRN", k))
		case key.Matches(msg, keys.Arrivals):
			m.startEdit(lfArrivals)
		case key.Matches(msg, keys.ZoomIn):
			m.zoom = min(m.zoom+1, 40)
		case key.Matches(msg, keys.ZoomOut):
			m.zoom = max(m.zoom-1, 0)
		case key.Matches(msg, keys.ZoomReset):
			m.zoom = 0
		case key.Matches(msg, keys.Worst):
			m.ask = OpenWorst{Algo: m.algo[0], Params: m.params}
		case key.Matches(msg, keys.Path):
			m.ask = screen.OpenChapter{Idx: -1, Num: 5, Anchor: "The suggested path", Note: pathNote}
		}
	}
	return m, nil
}

// CapturesEsc reports whether esc is the lab's (it cancels a field edit).
func (m Model) CapturesEsc() bool { return m.Editing }

// Typing reports whether a field has the keyboard.
func (m Model) Typing() bool { return m.Editing }

// Name names the screen in the ? sheet.
func (m Model) Name() string { return "lab" }

// Ask is what the last key asked the app for (the worst-case search, or
// chapter 05 at its suggested path), nil for nothing.
func (m Model) Ask() tea.Msg { return m.ask }

// Leave pauses a play: the lab keeps its place for the next visit, but
// not its status line, which told of what happened on this one.
func (m Model) Leave() screen.Screen {
	m.Pause()
	m.note = ""
	return m
}

// Resize gives the lab the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

// LoadScenario shows prepared scenario i (an index into the engine's
// Scenarios) whole on screen.
func (m Model) LoadScenario(i int) Model {
	m.loadScenario(i)
	return m
}

// LoadWorst shows a found worst case: its arrivals and budget, its
// algorithm on the left, and a note saying so.
func (m Model) LoadWorst(r engine.WorstResult) Model {
	m.loadArrivals(r.Arrivals, r.Params, r.Algorithm)
	m.note = "loaded the worst case found for " + string(r.Algorithm) + " (left); pick the right side with " + widget.KeyName(keys.RightAlgo)
	return m
}

// Left is the left side's algorithm and the budget in use: what the worst
// case search opens on.
func (m Model) Left() (engine.Algorithm, engine.Params) { return m.algo[0], m.params }

// Keys is what the help shows for the lab now.
func (m Model) Keys() help.KeyMap {
	if m.Editing {
		return widget.FormKeys
	}
	return keys
}

// What the lab holds, for the app and its tests.

// Algos is the left and the right side's algorithm.
func (m Model) Algos() [2]engine.Algorithm { return m.algo }

// Arrivals is the arrival sequence in use (ms).
func (m Model) Arrivals() []int64 { return m.arrivals }

// Params is the budget in use.
func (m Model) Params() engine.Params { return m.params }

// RunErrs is each side's refusal of the budget, "" for a side that ran.
func (m Model) RunErrs() [2]string { return m.runErr }

// Scenario is the index of the prepared scenario shown, or
// len(lab.Scenarios) for a custom sequence.
func (m Model) Scenario() int { return m.scen }

// Custom reports whether the sequence is not a prepared scenario.
func (m Model) Custom() bool { return m.custom() }

// ScenarioName is the label the title bar shows.
func (m Model) ScenarioName() string { return m.scenarioName() }

// Results is both sides' runs, left then right.
func (m Model) Results() [2]engine.Result { return m.res }

// LoadRun shows arr under budget p, left and right side by side, as a
// custom sequence.
func (m Model) LoadRun(arr []int64, p engine.Params, left, right engine.Algorithm) Model {
	m.algo[1] = right
	m.loadArrivals(arr, p, left)
	return m
}

// Note says what the last key did, shown in place of the hint; "" for none.
func (m Model) Note() string { return m.note }

// Zoom is the zoom level of the time axis, 0 for the whole sequence.
func (m Model) Zoom() int { return m.zoom }

// FieldValues is the text each edit field shows for the values in use.
func (m Model) FieldValues() []string { return m.fieldValues() }

// PlayTick is the tick of the play ago plays back (0: the current one).
func (m Model) PlayTick(ago int) tea.Msg { return tickMsg{m.PlayID() - ago} }

// pathNote is what the suggested path's command-line flags are in the lab.
var pathNote = "in the lab: " + widget.KeyName(keys.Scenario) + " next scenario, " + widget.KeyName(keys.LeftAlgo) + " the left algorithm (--left), " +
	widget.KeyName(keys.Fields) + " edit the budget (C: --capacity), " + widget.KeyName(keys.Worst) + " the worst case; the flags below are for tui sim"
