// Package lab is chapter 05's lab: one budget, one arrival list, two
// algorithms and their runs on one time axis, a cursor on one request, and
// the fields that edit them.
package lab

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	engine "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Model is the lab screen (chapter 05): one budget, one arrival list, two
// algorithms and their runs, a cursor on one request, and the fields that
// edit them.
type Model struct {
	th   *widget.Theme
	w, h int
	help help.Model

	scen     int // index into lab.Scenarios; len(lab.Scenarios) = custom
	algo     [2]engine.Algorithm
	params   engine.Params
	arrivals []int64

	res    [2]engine.Result
	runErr [2]string

	widget.Player     // the cursor on one request (0..len(arrivals)-1)
	zoom          int // 0: the whole run on screen; k: 1/2^k of that span, around the cursor

	widget.Form         // W, L, C, R, N, arrivals
	sideErr     int     // the field whose message is a side's refusal, or -1
	note        string  // a one-off status line; the next key clears it
	ask         tea.Msg // the screen the last key opens; the root takes it
}

// tickMsg advances play; id discards ticks of an earlier play.
type tickMsg struct{ id int }

func tick(id int) tea.Msg { return tickMsg{id} }

// New is the lab screen in theme th, on the first prepared scenario.
func New(th *widget.Theme) Model {
	m := Model{th: th, help: widget.NewHelp(th), Form: widget.NewForm(labFields), sideErr: -1}
	m.loadScenario(0)
	return m
}

// last is the cursor's last position: the last request.
func (m *Model) last() int { return max(len(m.arrivals)-1, 0) }

func (m *Model) custom() bool { return m.scen >= len(engine.Scenarios) }

// scenarioName is the label the title bar shows.
func (m Model) scenarioName() string {
	if m.custom() {
		return "custom"
	}
	s := engine.Scenarios[m.scen]
	name := s.Name
	if s.Example != "" {
		name += " (" + s.Example + ")"
	}
	if m.changed() {
		name += " *" // the learner changed the budget or a side
	}
	return name
}

// changed reports whether the budget or a side differs from the prepared
// scenario's.
func (m Model) changed() bool {
	if m.custom() {
		return false
	}
	s := engine.Scenarios[m.scen]
	return scenarioParams(s) != m.params || m.algo != [2]engine.Algorithm{s.Left, s.Right}
}

func scenarioParams(s engine.Scenario) engine.Params {
	if s.Params == (engine.Params{}) {
		return engine.DefaultParams()
	}
	return s.Params
}

// loadScenario replaces the arrivals, budget and pair with a prepared one;
// i == len(lab.Scenarios) keeps everything and calls it custom.
func (m *Model) loadScenario(i int) {
	n := len(engine.Scenarios) + 1
	i = ((i % n) + n) % n
	m.scen = i
	if !m.custom() {
		s := engine.Scenarios[i]
		m.params = scenarioParams(s)
		m.arrivals = slices.Clone(s.Arrivals)
		m.algo = [2]engine.Algorithm{s.Left, s.Right}
	}
	m.Cursor, m.zoom = 0, 0 // a new sequence starts whole on screen
	m.note = ""             // it spoke of the sequence replaced
	m.syncInputs()
	m.rerun()
}

// loadArrivals puts a custom sequence (e.g. a worst case) into the lab.
func (m *Model) loadArrivals(arr []int64, p engine.Params, left engine.Algorithm) {
	m.scen = len(engine.Scenarios)
	m.arrivals = slices.Clone(arr)
	m.params = p
	m.algo[0] = left
	m.Cursor, m.zoom = 0, 0
	m.syncInputs()
	m.rerun()
}

// fieldValues are the fields' texts for the values in use.
func (m *Model) fieldValues() []string {
	p := m.params
	return []string{
		strconv.FormatInt(p.WindowMS, 10), strconv.Itoa(p.Limit), strconv.Itoa(p.Capacity),
		strconv.FormatFloat(p.RatePerS, 'g', -1, 64), strconv.Itoa(p.SubWindows), text.JoinInts(m.arrivals, ","),
	}
}

func (m *Model) syncInputs() { m.SetValues(m.fieldValues()) }

// rerun replays the arrivals through both sides. A side that cannot run
// the budget shows the engine's message in its track.
func (m *Model) rerun() {
	for s := 0; s < 2; s++ {
		r, err := uiRun(m.algo[s], m.params, m.arrivals)
		m.res[s], m.runErr[s] = r, ""
		if err != nil {
			m.res[s] = engine.Result{Algorithm: m.algo[s], Params: m.params}
			m.runErr[s] = err.Error()
		}
	}
	m.Cursor = min(m.Cursor, m.last())
	m.checkSides()
}

// uiRun is lab.Run with a recover: a bug in an engine must not take the
// terminal down with it.
func uiRun(algo engine.Algorithm, p engine.Params, arrivals []int64) (r engine.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("engine failed on this input: %v", v)
		}
	}()
	return engine.Run(algo, p, arrivals, nil)
}

// cycleAlgo moves one side to the next (+1) or previous (-1) algorithm.
func (m *Model) cycleAlgo(side, d int) {
	n := len(engine.Algorithms)
	i := slices.Index(engine.Algorithms, m.algo[side])
	m.algo[side] = engine.Algorithms[((i+d)%n+n)%n]
	m.rerun()
}
