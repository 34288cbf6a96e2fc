// Package prefetch is chapter 06's prefetch lab: one window of requests
// against a central counter and with local quota prefetch, step by step.
package prefetch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/sim"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The prefetch screen (chapter 06): one window of requests replayed against
// a central counter and with local quota prefetch, stepped request by
// request. The round trip is a field: the wait figures are round trips
// times it, and say so.

const (
	pfNodes = iota
	pfPerNode
	pfLimit
	pfBatch
	pfRTT
	pfOrder
	nPfFields
)

var pfFields = []widget.FieldSpec{
	{Label: "nodes", Param: "nodes", About: "application nodes sharing the window's limit", Limit: 20},
	{Label: "per-node", Param: "per-node", About: "requests each node receives, round-robin (ignored when order is set)", Limit: 20},
	{Label: "limit", Param: "limit", About: "the window's global limit, held by the centre", Limit: 20},
	{Label: "batch", Param: "batch", About: "permits a node borrows per round trip to the centre", Limit: 20},
	{Label: "rtt ms", Param: "rtt", About: "one round trip to the centre in ms: the wait figures are round trips × this", Limit: 20},
	{Label: "order", Param: "order", About: "the node of each request in arrival order, e.g. 1,2,1,1 (blank = round-robin)", Limit: 4000, Empty: "(round-robin)"},
}

type Model struct {
	th   *widget.Theme
	w, h int
	help help.Model

	cfg           sim.PrefetchConfig
	res           sim.PrefetchResult
	runErr        string
	widget.Player // the cursor: how many requests have been decided (0..len(steps))

	widget.Form        // nodes, per-node, limit, batch, rtt, order
	note        string // what leaving the fields did not apply; the next key clears it
}

type tickMsg struct{ id int }

func tick(id int) tea.Msg { return tickMsg{id} }

// New starts on E13: 4 nodes, 2 requests each, limit 20, batch 8,
// a 1 ms round trip.
func New(th *widget.Theme) Model {
	m := Model{th: th, help: widget.NewHelp(th), Form: widget.NewForm(pfFields)}
	m.cfg = sim.PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	m.syncInputs()
	m.rerun() // the cursor at 0: nothing decided yet, the first step one key away
	return m
}

func (m *Model) fieldValues() []string {
	c := m.cfg
	return []string{strconv.Itoa(c.Nodes), strconv.Itoa(c.PerNode), strconv.Itoa(c.Limit),
		strconv.Itoa(c.Batch), strconv.FormatInt(c.RTTMS, 10), text.JoinInts(c.Order, ",")}
}

func (m *Model) syncInputs() { m.SetValues(m.fieldValues()) }

func (m *Model) rerun() {
	r, err := uiPrefetch(m.cfg)
	m.res, m.runErr = r, ""
	if err != nil {
		m.res = sim.PrefetchResult{}
		m.runErr = err.Error()
	}
	m.Cursor = min(m.Cursor, len(m.res.Steps))
}

func uiPrefetch(c sim.PrefetchConfig) (r sim.PrefetchResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("simulation failed on this input: %v", v)
		}
	}()
	return sim.Prefetch(c)
}

// pfAccept is what each field takes, in the words of the simulation's own
// errors for the numbers it checks.
var pfAccept = map[string]string{
	"nodes": "a whole number from 1 to " + strconv.Itoa(sim.MaxNodes), "per-node": "a whole number >= 0",
	"limit": "a whole number >= 0", "batch": "a whole number >= 1",
	"rtt":   "a whole number of ms from 0 to " + strconv.Itoa(sim.MaxRTTMS),
	"order": "node numbers separated by commas (blank = round-robin)",
}

// applyInputs validates the fields; a good set re-runs the simulation.
func (m *Model) applyInputs() {
	m.Errs = [widget.FormMax]string{}
	c := m.cfg
	for f, dst := range []*int{&c.Nodes, &c.PerNode, &c.Limit, &c.Batch} {
		v, err := strconv.Atoi(m.Value(f))
		if err != nil {
			m.Errs[f] = m.FieldError(f, strconv.Quote(m.Value(f)), pfAccept[pfFields[f].Param], "")
			continue
		}
		*dst = v
	}
	if v, err := strconv.ParseInt(m.Value(pfRTT), 10, 64); err != nil {
		m.Errs[pfRTT] = m.FieldError(pfRTT, strconv.Quote(m.Value(pfRTT)), pfAccept["rtt"], "")
	} else {
		c.RTTMS = v
	}
	c.Order = nil
	for _, x := range strings.FieldsFunc(m.Value(pfOrder), func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.Atoi(x)
		if err != nil {
			m.Errs[pfOrder] = m.FieldError(pfOrder, strconv.Quote(x), pfAccept["order"], "")
			break
		}
		c.Order = append(c.Order, v)
	}
	if m.FirstErr() >= 0 {
		return
	}
	if err := c.Validate(); err != nil {
		m.ParamError(err, pfOrder, "")
		return
	}
	atEnd := m.Cursor == len(m.res.Steps)
	m.cfg = c
	m.rerun()
	if atEnd {
		m.Cursor = len(m.res.Steps)
	}
}

// stopEdit leaves the fields with enter; a refused value goes back to the
// one in use and the note says so until the next key.
func (m *Model) stopEdit() {
	if i := m.FirstErr(); i >= 0 {
		m.note = "kept " + m.Spec[i].Label + " " + m.fieldValues()[i] + " (" + m.Errs[i] + ")"
		m.syncInputs()
	}
}

// Update handles the prefetch screen's messages.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) { return m.update(msg) }

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		return m, m.Advance(msg.id, len(m.res.Steps), tick)
	case tea.KeyMsg:
		m.note = ""
		if m.Editing {
			switch m.Form.Key(msg) {
			case widget.FormChanged, widget.FormCancelled:
				m.applyInputs()
			case widget.FormDone:
				m.stopEdit()
			}
			return m, nil
		}
		if cmd, ok := m.StepKey(msg, len(m.res.Steps), tick); ok {
			return m, cmd
		}
		m.Pause()
		for f, b := range []key.Binding{keys.Nodes, keys.PerNode, keys.Limit, keys.Batch, keys.RTT, keys.Order} {
			if key.Matches(msg, b) {
				m.Start(f)
				return m, nil
			}
		}
		switch {
		case key.Matches(msg, keys.Edit):
			m.Start(pfNodes)
		case key.Matches(msg, keys.BatchToggle):
			// The E13 comparison in one key: batch 1 removes stranding.
			m.cfg.Batch = map[bool]int{true: 8, false: 1}[m.cfg.Batch == 1]
			m.syncInputs()
			m.rerun()
			m.Cursor = len(m.res.Steps)
		}
	}
	return m, nil
}

func (m Model) CapturesEsc() bool { return m.Editing }

// Typing reports whether a field has the keyboard.
func (m Model) Typing() bool { return m.Editing }

func (m Model) Name() string { return "prefetch lab" }

// Leave pauses a play.
func (m Model) Leave() screen.Screen {
	m.Pause()
	return m
}

// Resize gives the screen the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

func (m Model) Keys() help.KeyMap {
	if m.Editing {
		return widget.FormKeys
	}
	return keys
}

// Config is the simulation in use.
func (m Model) Config() sim.PrefetchConfig { return m.cfg }
