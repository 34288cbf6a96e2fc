package main

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The worst-case screen runs the chapter 05 search (lab.Worst) for each
// algorithm under the lab's budget, off the UI goroutine, and can load the
// sequence it finds into the lab. One row per algorithm, in a bubbles table.

type worstEntry struct {
	res lab.WorstResult
	err string
}

type worstModel struct {
	th   *theme
	w, h int
	help help.Model
	tbl  table.Model

	params  lab.Params // the lab's budget when the screen opened
	results map[string]worstEntry
	running map[string]bool
	note    string  // what the last key could not do; the next key clears it
	ask     tea.Msg // load the found sequence into the lab; the root takes it
}

// worstDoneMsg carries a finished search back to Update.
type worstDoneMsg struct {
	key string
	res lab.WorstResult
	err error
}

func worstKey(algo string, p lab.Params) string { return fmt.Sprintf("%s %+v", algo, p) }

func newWorstModel(th *theme) worstModel {
	km := table.KeyMap{LineUp: wkeys.Up, LineDown: wkeys.Down}
	for _, b := range []*key.Binding{&km.PageUp, &km.PageDown, &km.HalfPageUp, &km.HalfPageDown, &km.GotoTop, &km.GotoBottom} {
		*b = key.NewBinding(key.WithDisabled())
	}
	t := table.New(table.WithColumns([]table.Column{
		{Title: "  algorithm", Width: 19}, {Title: "worst in W", Width: 10}, {Title: "over", Width: 5}, {Title: "textbook bound", Width: 30},
	}), table.WithHeight(len(lab.Algorithms)+1), table.WithFocused(true), table.WithKeyMap(km))
	t.SetStyles(table.Styles{Header: th.s[stLabel].PaddingRight(1), Cell: th.s[stNone].PaddingRight(1), Selected: th.s[stSelected]})
	m := worstModel{th: th, help: newHelp(th), tbl: t, results: map[string]worstEntry{}, running: map[string]bool{}}
	m.fillRows()
	return m
}

func (m worstModel) algo() string { return lab.Algorithms[max(m.tbl.Cursor(), 0)] }

// open points the screen at an algorithm and budget and starts the search
// if it has not run yet.
func (m worstModel) open(algo string, p lab.Params) (worstModel, tea.Cmd) {
	if i := slices.Index(lab.Algorithms, algo); i >= 0 {
		m.tbl.SetCursor(i)
	}
	m.params, m.note = p, ""
	m.fillRows()
	return m, m.ensure(m.algo())
}

// ensure starts the search for algo unless it is cached or running.
func (m worstModel) ensure(algo string) tea.Cmd {
	p := m.params
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

// current is the selected algorithm's result, if the search has finished.
func (m worstModel) current() (worstEntry, bool) {
	e, ok := m.results[worstKey(m.algo(), m.params)]
	return e, ok
}

// fillRows writes the table from the results; ▸ marks the selected row,
// which reverse video alone would not show under NO_COLOR.
func (m *worstModel) fillRows() {
	rows := make([]table.Row, len(lab.Algorithms))
	for i, a := range lab.Algorithms {
		key := worstKey(a, m.params)
		found, over, bound := "·", "", ""
		switch e, ok := m.results[key]; {
		case m.running[key]:
			found = "searching…"
		case ok && e.err != "":
			found, bound = "error", keyName(wkeys.Load)+": why"
		case ok:
			found, over, bound = fmt.Sprint(e.res.MaxInWindow), fmt.Sprint(e.res.Overshoot), e.res.Bound
		}
		ptr := "  "
		if i == m.tbl.Cursor() {
			ptr = string(glyphPointer) + " "
		}
		rows[i] = table.Row{ptr + a, found, over, bound}
	}
	m.tbl.SetRows(rows)
}

// Update handles the screen's messages. Loading asks the root to take the
// found sequence into the lab.
func (m worstModel) Update(msg tea.Msg) (worstModel, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case worstDoneMsg:
		delete(m.running, msg.key)
		e := worstEntry{res: msg.res}
		if msg.err != nil {
			e.err = msg.err.Error()
		}
		m.results[msg.key] = e
	case tea.KeyMsg:
		m.note = ""
		switch {
		case key.Matches(msg, wkeys.SearchAll):
			var cmds []tea.Cmd
			for _, a := range lab.Algorithms {
				cmds = append(cmds, m.ensure(a))
			}
			cmd = tea.Batch(cmds...)
		case key.Matches(msg, wkeys.Load):
			e, ok := m.current()
			switch {
			case !ok:
				m.note = "the search for " + m.algo() + " is still running"
			case e.err != "":
				m.note = "nothing to load: " + e.err
			case len(e.res.Arrivals) == 0:
				m.note = "nothing to load: the search found no arrivals for " + m.algo()
			default:
				m.ask = loadWorstMsg{e.res}
			}
		default:
			m.tbl, _ = m.tbl.Update(msg)
			cmd = m.ensure(m.algo())
		}
	}
	m.fillRows()
	return m, cmd
}

func (m worstModel) wantsEsc() bool  { return false }
func (m worstModel) keyMap() helpMap { return wkeys }

// View renders the search screen.
func (m worstModel) View() string {
	th, w, p := m.th, m.w, m.params
	title := th.paint(stTitle, "05 · Worst case") +
		th.paint(stDim, fmt.Sprintf("   budget W %d  L %d  C %d  R %g  N %d", p.WindowMS, p.Limit, p.Capacity, p.RatePerS, p.SubWindows))
	body := []string{titleBar(th, title, w)}
	body = append(body, wrapRows(th, stDim, "The search tries arrival sequences (bursts either side of a window boundary, "+
		"uneven splits, then a seeded local search) and keeps the one that gets the most requests "+
		"upstream inside one window W.", w, 3)...)
	body = append(body, "")
	body = append(body, splitLines(m.tbl.View())...)
	body = append(body, "")
	e, ok := m.current()
	switch {
	case !ok:
		body = append(body, th.paint(stDim, fmt.Sprintf("searching for the worst case of %s …", m.algo())))
	case e.err != "":
		body = append(body, wrapRows(th, stError, e.err, w, 3)...)
	default:
		r := e.res
		body = append(body, th.paint(stLabel, r.Algorithm+": ")+
			fmt.Sprintf("%d requests upstream in [%d, %d), overshoot %d", r.MaxInWindow, r.Window[0], r.Window[1], r.Overshoot))
		body = append(body, th.paint(stDim, "arrivals ")+joinInts(r.Arrivals))
		// The found run drawn as a lab track.
		ax := newTimeAxis(r.Params.WindowMS, r.Arrivals, []lab.Result{r.Run}, 0, -1, w-labGutter)
		acols, _ := arrivalCols(ax, r.Arrivals, r.Params.WindowMS)
		tr := track{res: r.Run, algo: r.Algorithm, params: r.Params, arrivals: r.Arrivals, cursor: -1}
		body = append(body, trackRows(th, tr, ax, acols)...)
		body = append(body, axisRow(th, ax, max(r.Params.WindowMS, 1)))
	}
	footer := []string{helpLine(m.help, m.keyMap(), w)}
	if m.note != "" {
		footer = append(wrapRows(th, stQueued, m.note, w, 2), footer...)
	}
	return frame(body, footer, w, m.h)
}
