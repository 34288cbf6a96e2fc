// Package worst is chapter 05's worst-case search, one algorithm per row,
// run off the UI goroutine; a found sequence loads into the lab.
package worst

import (
	"errors"
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	labscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/timeline"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

type worstEntry struct {
	res lab.WorstResult
	err string
}

// Model is the worst-case screen: it runs the chapter 05 search
// (lab.Worst) for each algorithm under the lab's budget, off the UI
// goroutine, and can load the sequence it finds into the lab. One row per
// algorithm, in a bubbles table.
type Model struct {
	th   *widget.Theme
	w, h int
	help help.Model
	tbl  table.Model

	params  lab.Params // the lab's budget when the screen opened
	results map[string]worstEntry
	running map[string]bool
	note    string  // what the last key could not do; the next key clears it
	ask     tea.Msg // load the found sequence into the lab; the root takes it
}

// doneMsg carries a finished search back to Update.
type doneMsg struct {
	key string
	res lab.WorstResult
	err error
}

func worstKey(algo lab.Algorithm, p lab.Params) string { return fmt.Sprintf("%s %+v", algo, p) }

// New is the worst-case screen in theme th, before any search has run.
func New(th *widget.Theme) Model {
	km := table.KeyMap{LineUp: keys.Up, LineDown: keys.Down}
	for _, b := range []*key.Binding{&km.PageUp, &km.PageDown, &km.HalfPageUp, &km.HalfPageDown, &km.GotoTop, &km.GotoBottom} {
		*b = key.NewBinding(key.WithDisabled())
	}
	t := table.New(table.WithColumns(columns(80)), table.WithHeight(len(lab.Algorithms)+1), table.WithFocused(true), table.WithKeyMap(km))
	t.SetStyles(table.Styles{Header: th.S[widget.StLabel].PaddingRight(1), Cell: th.S[widget.StNone].PaddingRight(1), Selected: th.S[widget.StSelected]})
	m := Model{th: th, help: widget.NewHelp(th), tbl: t, results: map[string]worstEntry{}, running: map[string]bool{}}
	m.fillRows()
	return m
}

// columns are the table's columns for a screen w columns wide: the bound
// takes what the others leave (each cell has a column of padding), so
// "about R*W = 2 (departures are T apart)" is whole at 80 columns.
func columns(w int) []table.Column {
	return []table.Column{
		{Title: "  algorithm", Width: 19}, {Title: "worst in W", Width: 10}, {Title: "over", Width: 5},
		{Title: "textbook bound", Width: max(w-(19+10+5+4), 30)},
	}
}

func (m Model) algo() lab.Algorithm { return lab.Algorithms[max(m.tbl.Cursor(), 0)] }

// Open points the screen at an algorithm and budget and starts the search
// if it has not run yet.
func (m Model) Open(algo lab.Algorithm, p lab.Params) (Model, tea.Cmd) {
	if i := slices.Index(lab.Algorithms, algo); i >= 0 {
		m.tbl.SetCursor(i)
	}
	m.params, m.note = p, ""
	m.fillRows()
	return m, m.ensure(m.algo())
}

// ensure starts the search for algo unless it is cached or running.
func (m Model) ensure(algo lab.Algorithm) tea.Cmd {
	p := m.params
	key := worstKey(algo, p)
	if _, ok := m.results[key]; ok || m.running[key] {
		return nil
	}
	m.running[key] = true
	return func() tea.Msg {
		r, err := uiWorst(algo, p)
		return doneMsg{key: key, res: r, err: err}
	}
}

func uiWorst(algo lab.Algorithm, p lab.Params) (r lab.WorstResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("search failed: %v", v)
		}
	}()
	return lab.Worst(algo, p)
}

// current is the selected algorithm's result, if the search has finished.
func (m Model) current() (worstEntry, bool) {
	e, ok := m.results[worstKey(m.algo(), m.params)]
	return e, ok
}

// fillRows writes the table from the results; ▸ marks the selected row,
// which reverse video alone would not show under NO_COLOR.
func (m *Model) fillRows() {
	rows := make([]table.Row, len(lab.Algorithms))
	for i, a := range lab.Algorithms {
		key := worstKey(a, m.params)
		found, over, bound := "·", "", ""
		switch e, ok := m.results[key]; {
		case m.running[key]:
			found = "searching…"
		case ok && e.err != "":
			found, bound = "error", widget.KeyName(keys.Load)+": why"
		case ok:
			found, over, bound = fmt.Sprint(e.res.MaxInWindow), fmt.Sprint(e.res.Overshoot), e.res.Bound
		}
		ptr := "  "
		if i == m.tbl.Cursor() {
			ptr = string(widget.GlyphPointer) + " "
		}
		rows[i] = table.Row{ptr + string(a), found, over, bound}
	}
	m.tbl.SetRows(rows)
}

// Update handles the screen's messages. Loading asks the root to take the
// found sequence into the lab.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	return m.update(msg)
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.tbl.SetColumns(columns(m.w))
	case doneMsg:
		delete(m.running, msg.key)
		e := worstEntry{res: msg.res}
		if msg.err != nil {
			e.err = msg.err.Error()
		}
		m.results[msg.key] = e
	case tea.KeyMsg:
		m.note = ""
		switch {
		case key.Matches(msg, keys.SearchAll):
			var cmds []tea.Cmd
			for _, a := range lab.Algorithms {
				cmds = append(cmds, m.ensure(a))
			}
			cmd = tea.Batch(cmds...)
		case key.Matches(msg, keys.Load):
			e, ok := m.current()
			switch {
			case !ok:
				m.note = "the search for " + string(m.algo()) + " is still running"
			case e.err != "":
				m.note = "nothing to load: " + e.err
			case len(e.res.Arrivals) == 0:
				m.note = "nothing to load: the search found no arrivals for " + string(m.algo())
			default:
				m.ask = labscreen.LoadWorst{Res: e.res}
			}
		default:
			m.tbl, _ = m.tbl.Update(msg)
			cmd = m.ensure(m.algo())
		}
	}
	m.fillRows()
	return m, cmd
}

// CapturesEsc reports false: esc always goes back from this screen.
func (m Model) CapturesEsc() bool { return false }

// Keys is the screen's key map, for the footer and the ? sheet.
func (m Model) Keys() help.KeyMap { return keys }

// Name names the screen in the ? sheet.
func (m Model) Name() string { return "worst case" }

// Ask is what the last key asked the app for (load a found case into the
// lab), nil for nothing.
func (m Model) Ask() tea.Msg { return m.ask }

// Resize gives the screen the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m, _ = m.update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// View renders the search screen.
func (m Model) View() string {
	th, w, p := m.th, m.w, m.params
	title := th.Paint(widget.StTitle, "05 · Worst case") +
		th.Paint(widget.StDim, fmt.Sprintf("   budget W %d  L %d  C %d  R %g  N %d", p.WindowMS, p.Limit, p.Capacity, p.RatePerS, p.SubWindows))
	body := []string{widget.TitleBar(th, title, w)}
	body = append(body, widget.WrapRows(th, widget.StDim, "The search tries arrival sequences (bursts either side of a window boundary, "+
		"uneven splits, then a seeded local search) and keeps the one that gets the most requests "+
		"upstream inside one window W.", w, 3)...)
	body = append(body, "")
	body = append(body, widget.SplitLines(m.tbl.View())...)
	body = append(body, "")
	e, ok := m.current()
	switch {
	case !ok:
		body = append(body, th.Paint(widget.StDim, fmt.Sprintf("searching for the worst case of %s …", m.algo())))
	case e.err != "":
		body = append(body, widget.WrapRows(th, widget.StError, e.err, w, 3)...)
	default:
		r := e.res
		body = append(body, th.Paint(widget.StLabel, string(r.Algorithm)+": ")+
			fmt.Sprintf("%d requests upstream in [%d, %d), overshoot %d", r.MaxInWindow, r.Window[0], r.Window[1], r.Overshoot))
		body = append(body, th.Paint(widget.StDim, "arrivals ")+text.JoinInts(r.Arrivals, ","))
		// The found run drawn as a lab track.
		ax := timeline.NewAxis(r.Params.WindowMS, r.Arrivals, []lab.Result{r.Run}, 0, -1, w-timeline.Gutter)
		acols, _ := timeline.ArrivalCols(ax, r.Arrivals, r.Params.WindowMS)
		tr := timeline.Track{Res: r.Run, Algo: r.Algorithm, Params: r.Params, Arrivals: r.Arrivals, Cursor: -1}
		body = append(body, timeline.TrackRows(th, tr, ax, acols)...)
		body = append(body, timeline.AxisRow(th, ax, max(r.Params.WindowMS, 1)))
	}
	footer := []string{widget.HelpLine(m.help, m.Keys(), w)}
	if m.note != "" {
		footer = append(widget.WrapRows(th, widget.StQueued, m.note, w, 2), footer...)
	}
	return widget.Frame(body, footer, w, m.h)
}

// Current is the selected algorithm's result once its search has ended:
// the result, or why it failed.
func (m Model) Current() (lab.WorstResult, string, bool) {
	e, ok := m.current()
	return e.res, e.err, ok
}

// Search runs the selected algorithm's search here and now, and returns the
// message its background search would send.
func (m Model) Search() tea.Msg {
	r, err := uiWorst(m.algo(), m.params)
	return doneMsg{key: worstKey(m.algo(), m.params), res: r, err: err}
}

// Failed is the message of a search of the selected algorithm that failed
// with why.
func (m Model) Failed(why string) tea.Msg {
	return doneMsg{key: worstKey(m.algo(), m.params), err: errors.New(why)}
}
