package main

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The worst-case screen runs the chapter 05 search (lab.Worst) for one
// algorithm under the lab's budget, off the UI goroutine, and can load the
// sequence it finds into the lab.

type worstEntry struct {
	res lab.WorstResult
	err string
}

type worstModel struct {
	sel     int        // index into lab.Algorithms
	params  lab.Params // the lab's budget when the screen opened
	results map[string]worstEntry
	running map[string]bool
}

// worstDoneMsg carries a finished search back to Update.
type worstDoneMsg struct {
	key string
	res lab.WorstResult
	err error
}

func worstKey(algo string, p lab.Params) string { return fmt.Sprintf("%s %+v", algo, p) }

func newWorstModel() worstModel {
	return worstModel{results: map[string]worstEntry{}, running: map[string]bool{}}
}

func (m worstModel) algo() string { return lab.Algorithms[m.sel] }

// open points the screen at an algorithm and budget and starts the search
// if it has not run yet.
func (m worstModel) open(algo string, p lab.Params) (worstModel, tea.Cmd) {
	for i, a := range lab.Algorithms {
		if a == algo {
			m.sel = i
		}
	}
	m.params = p
	return m, m.ensure()
}

// ensure starts the search for the selected algorithm unless it is cached
// or already running.
func (m worstModel) ensure() tea.Cmd {
	algo, p := m.algo(), m.params
	key := worstKey(algo, p)
	if _, ok := m.results[key]; ok || m.running[key] {
		return nil
	}
	m.running[key] = true
	return func() tea.Msg {
		r, err := uiWorst(algo, p)
		return worstDoneMsg{key: key, res: r, err: err}
	}
}

func uiWorst(algo string, p lab.Params) (r lab.WorstResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("search failed: %v", v)
		}
	}()
	return lab.Worst(algo, p)
}

func (m worstModel) done(msg worstDoneMsg) worstModel {
	delete(m.running, msg.key)
	e := worstEntry{res: msg.res}
	if msg.err != nil {
		e.err = msg.err.Error()
	}
	m.results[msg.key] = e
	return m
}

// current is the selected algorithm's result, if the search has finished.
func (m worstModel) current() (worstEntry, bool) {
	e, ok := m.results[worstKey(m.algo(), m.params)]
	return e, ok
}

// update handles keys; load reports that the learner asked to take the
// sequence into the lab.
func (m worstModel) update(msg tea.KeyMsg) (wm worstModel, cmd tea.Cmd, load bool, handled bool) {
	n := len(lab.Algorithms)
	switch msg.String() {
	case "down", "j":
		m.sel = (m.sel + 1) % n
		return m, m.ensure(), false, true
	case "up", "k":
		m.sel = (m.sel + n - 1) % n
		return m, m.ensure(), false, true
	case "r":
		// Search every algorithm under this budget (each once).
		var cmds []tea.Cmd
		sel := m.sel
		for i := range lab.Algorithms {
			m.sel = i
			cmds = append(cmds, m.ensure())
		}
		m.sel = sel
		return m, tea.Batch(cmds...), false, true
	case "enter":
		e, ok := m.current()
		return m, nil, ok && e.err == "" && len(e.res.Arrivals) > 0, true
	}
	return m, nil, false, false
}
