package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// The prefetch screen (chapter 06): one window of requests replayed against a
// central counter and with local quota prefetch, stepped request by request.

const (
	pfNodes = iota
	pfPerNode
	pfLimit
	pfBatch
	pfOrder
	nPfFields
)

var pfFieldLabels = [nPfFields]string{"nodes", "per-node", "limit", "batch", "order"}

var pfFieldParam = map[string]int{
	"nodes": pfNodes, "per-node": pfPerNode, "limit": pfLimit, "batch": pfBatch, "order": pfOrder,
}

type pfModel struct {
	cfg    distributed.PrefetchConfig
	res    distributed.PrefetchResult
	runErr string
	player // the cursor: how many requests have been decided (0..len(steps))

	form        // nodes, per-node, limit, batch, order
	note string // what leaving the fields did not apply
}

type pfTickMsg struct{ id int }

func pfTick(id int) tea.Msg { return pfTickMsg{id} }

// newPfModel starts on E13: 4 nodes, 2 requests each, limit 20, batch 8.
func newPfModel() pfModel {
	var m pfModel
	m.form = newForm(pfFieldLabels[:], func(i int) int {
		if i == pfOrder {
			return 4000
		}
		return 12
	})
	m.cfg = distributed.PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	m.syncInputs()
	m.rerun()
	m.cursor = len(m.res.Steps)
	return m
}

// values are the fields' texts for the configuration in use.
func (m *pfModel) values() []string {
	return []string{
		strconv.Itoa(m.cfg.Nodes), strconv.Itoa(m.cfg.PerNode), strconv.Itoa(m.cfg.Limit),
		strconv.Itoa(m.cfg.Batch), joinInts(m.cfg.Order),
	}
}

func (m *pfModel) syncInputs() { m.setValues(m.values()) }

func (m *pfModel) rerun() {
	r, err := uiPrefetch(m.cfg)
	m.res, m.runErr = r, ""
	if err != nil {
		m.res = distributed.PrefetchResult{}
		m.runErr = err.Error()
	}
	m.cursor = min(m.cursor, len(m.res.Steps))
}

func uiPrefetch(c distributed.PrefetchConfig) (r distributed.PrefetchResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("simulation failed on this input: %v", v)
		}
	}()
	return distributed.SimulatePrefetch(c)
}

// applyInputs validates the fields; a good set re-runs the simulation.
func (m *pfModel) applyInputs() {
	m.clearErrs()
	c := m.cfg
	dst := [...]*int{&c.Nodes, &c.PerNode, &c.Limit, &c.Batch}
	for f, p := range dst {
		v, err := strconv.Atoi(strings.TrimSpace(m.inputs[f].Value()))
		if err != nil {
			m.errs[f] = pfFieldLabels[f] + ": a whole number"
			continue
		}
		*p = v
	}
	c.Order = nil
	if s := strings.TrimSpace(m.inputs[pfOrder].Value()); s != "" {
		for _, x := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
			v, err := strconv.Atoi(x)
			if err != nil {
				m.errs[pfOrder] = fmt.Sprintf("order: %q is not a node number (blank = round-robin)", x)
				break
			}
			c.Order = append(c.Order, v)
		}
	}
	if m.firstErr() >= 0 {
		return
	}
	if err := c.Validate(); err != nil {
		f := pfOrder
		var pe *core.ParamError
		if errors.As(err, &pe) {
			if g, ok := pfFieldParam[pe.Param]; ok {
				f = g
			}
		}
		m.errs[f] = err.Error()
		return
	}
	atEnd := m.cursor == len(m.res.Steps)
	m.cfg = c
	m.rerun()
	if atEnd {
		m.cursor = len(m.res.Steps)
	}
}

func (m *pfModel) startEdit(f int) {
	m.playing, m.note = false, ""
	m.start(f)
}

// stopEdit leaves the fields; a refused value goes back to the one in use
// and the note says so.
func (m *pfModel) stopEdit() {
	m.note = m.stop(m.values(), -1, "")
}

func (m pfModel) tick(msg pfTickMsg) (pfModel, tea.Cmd) {
	cmd := m.advance(msg.id, len(m.res.Steps), pfTick)
	return m, cmd
}

// update handles a key on the prefetch screen; false means not its key.
func (m pfModel) update(msg tea.KeyMsg) (pfModel, tea.Cmd, bool) {
	if m.editing {
		switch changed, done := m.key(msg); {
		case done:
			m.stopEdit()
		case changed:
			m.applyInputs()
		}
		return m, nil, true
	}
	if cmd, ok := m.stepKey(msg.String(), len(m.res.Steps), pfTick); ok {
		return m, cmd, true
	}
	switch msg.String() {
	case "e", "tab":
		m.startEdit(pfNodes)
	case "n":
		m.startEdit(pfNodes)
	case "p":
		m.startEdit(pfPerNode)
	case "L":
		m.startEdit(pfLimit)
	case "b":
		m.startEdit(pfBatch)
	case "o":
		m.startEdit(pfOrder)
	case "1":
		// The E13 comparison in one key: batch 1 removes stranding.
		m.cfg.Batch = map[bool]int{true: 8, false: 1}[m.cfg.Batch == 1]
		m.syncInputs()
		m.rerun()
		m.cursor = len(m.res.Steps)
	default:
		return m, nil, false
	}
	m.pause()
	return m, nil, true
}

// pfNodeState is one node's account after the first k requests.
type pfNodeState struct {
	borrowed, used, held, rejected, trips int
}

func pfStateAt(res distributed.PrefetchResult, nodes, k int) []pfNodeState {
	st := make([]pfNodeState, nodes)
	for i := 0; i < k && i < len(res.Steps); i++ {
		s := res.Steps[i]
		if s.Node < 1 || s.Node > nodes {
			continue
		}
		n := &st[s.Node-1]
		n.borrowed += s.Granted
		if s.RoundTrip {
			n.trips++
		}
		if s.Allowed {
			n.used++
		} else {
			n.rejected++
		}
	}
	if k > 0 && k <= len(res.Steps) {
		for j, h := range res.Steps[k-1].Held {
			if j < nodes {
				st[j].held = h
			}
		}
	}
	return st
}
