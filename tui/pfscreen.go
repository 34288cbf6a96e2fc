package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
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

var pfFields = []fieldSpec{
	{"nodes", "nodes", "application nodes sharing the window's limit", 12, ""},
	{"per-node", "per-node", "requests each node receives, round-robin (ignored when order is set)", 12, ""},
	{"limit", "limit", "the window's global limit, held by the centre", 12, ""},
	{"batch", "batch", "permits a node borrows per round trip to the centre", 12, ""},
	{"rtt ms", "rtt", "one round trip to the centre in ms: the wait figures are round trips × this", 12, ""},
	{"order", "order", "the node of each request in arrival order, e.g. 1,2,1,1 (blank = round-robin)", 4000, "(round-robin)"},
}

type pfModel struct {
	th   *theme
	w, h int
	help help.Model

	cfg    distributed.PrefetchConfig
	res    distributed.PrefetchResult
	runErr string
	player // the cursor: how many requests have been decided (0..len(steps))

	form        // nodes, per-node, limit, batch, rtt, order
	note string // what leaving the fields did not apply; the next key clears it
}

type pfTickMsg struct{ id int }

func pfTick(id int) tea.Msg { return pfTickMsg{id} }

// newPfModel starts on E13: 4 nodes, 2 requests each, limit 20, batch 8,
// a 1 ms round trip.
func newPfModel(th *theme) pfModel {
	m := pfModel{th: th, help: newHelp(th), form: newForm(pfFields)}
	m.cfg = distributed.PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	m.syncInputs()
	m.rerun()
	m.cursor = len(m.res.Steps)
	return m
}

func (m *pfModel) fieldValues() []string {
	c := m.cfg
	return []string{strconv.Itoa(c.Nodes), strconv.Itoa(c.PerNode), strconv.Itoa(c.Limit),
		strconv.Itoa(c.Batch), strconv.FormatInt(c.RTTMS, 10), joinInts(c.Order)}
}

func (m *pfModel) syncInputs() { m.setValues(m.fieldValues()) }

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

// pfAccept is what each field takes, in the words of the simulation's own
// errors for the numbers it checks.
var pfAccept = map[string]string{
	"nodes": "a whole number from 1 to " + strconv.Itoa(distributed.MaxSimNodes), "per-node": "a whole number >= 0",
	"limit": "a whole number >= 0", "batch": "a whole number >= 1",
	"rtt":   "a whole number of ms from 0 to " + strconv.Itoa(distributed.MaxSimRTTMS),
	"order": "node numbers separated by commas (blank = round-robin)",
}

// applyInputs validates the fields; a good set re-runs the simulation.
func (m *pfModel) applyInputs() {
	m.errs = [formMax]string{}
	c := m.cfg
	for f, dst := range []*int{&c.Nodes, &c.PerNode, &c.Limit, &c.Batch} {
		v, err := strconv.Atoi(m.value(f))
		if err != nil {
			m.errs[f] = m.fieldError(f, strconv.Quote(m.value(f)), pfAccept[pfFields[f].param], "")
			continue
		}
		*dst = v
	}
	if v, err := strconv.ParseInt(m.value(pfRTT), 10, 64); err != nil {
		m.errs[pfRTT] = m.fieldError(pfRTT, strconv.Quote(m.value(pfRTT)), pfAccept["rtt"], "")
	} else {
		c.RTTMS = v
	}
	c.Order = nil
	for _, x := range strings.FieldsFunc(m.value(pfOrder), func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.Atoi(x)
		if err != nil {
			m.errs[pfOrder] = m.fieldError(pfOrder, strconv.Quote(x), pfAccept["order"], "")
			break
		}
		c.Order = append(c.Order, v)
	}
	if m.firstErr() >= 0 {
		return
	}
	if err := c.Validate(); err != nil {
		m.paramError(err, pfOrder, "")
		return
	}
	atEnd := m.cursor == len(m.res.Steps)
	m.cfg = c
	m.rerun()
	if atEnd {
		m.cursor = len(m.res.Steps)
	}
}

// stopEdit leaves the fields with enter; a refused value goes back to the
// one in use and the note says so until the next key.
func (m *pfModel) stopEdit() {
	if i := m.firstErr(); i >= 0 {
		m.note = "kept " + m.spec[i].label + " " + m.fieldValues()[i] + " (" + m.errs[i] + ")"
		m.syncInputs()
	}
}

// Update handles the prefetch screen's messages.
func (m pfModel) Update(msg tea.Msg) (pfModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case pfTickMsg:
		return m, m.advance(msg.id, len(m.res.Steps), pfTick)
	case tea.KeyMsg:
		m.note = ""
		if m.editing {
			switch m.form.key(msg) {
			case formChanged, formCancelled:
				m.applyInputs()
			case formDone:
				m.stopEdit()
			}
			return m, nil
		}
		if cmd, ok := m.stepKey(msg, len(m.res.Steps), pfTick); ok {
			return m, cmd
		}
		m.pause()
		for f, b := range []key.Binding{pkeys.Nodes, pkeys.PerNode, pkeys.Limit, pkeys.Batch, pkeys.RTT, pkeys.Order} {
			if key.Matches(msg, b) {
				m.start(f)
				return m, nil
			}
		}
		switch {
		case key.Matches(msg, pkeys.Edit):
			m.start(pfNodes)
		case key.Matches(msg, pkeys.BatchToggle):
			// The E13 comparison in one key: batch 1 removes stranding.
			m.cfg.Batch = map[bool]int{true: 8, false: 1}[m.cfg.Batch == 1]
			m.syncInputs()
			m.rerun()
			m.cursor = len(m.res.Steps)
		}
	}
	return m, nil
}

func (m pfModel) wantsEsc() bool { return m.editing }

func (m pfModel) keyMap() helpMap {
	if m.editing {
		return fkeys
	}
	return pkeys
}

// pfNodeState is one node's account after the first k requests.
type pfNodeState struct {
	borrowed, used, held, rejected int
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

// View renders the prefetch screen: the step at the cursor, one quota bar
// per node, the arrival strip, central vs prefetch.
func (m pfModel) View() string {
	th, w, c := m.th, m.w, m.cfg
	order := "round-robin"
	if len(c.Order) > 0 {
		order = "order " + joinInts(c.Order) // the order in use, not the one being typed
	}
	title := th.paint(stTitle, "06 · Prefetch") + th.paint(stDim,
		fmt.Sprintf("   %d nodes × %d · limit %d · batch %d · rtt %d ms · %s", c.Nodes, c.PerNode, c.Limit, c.Batch, c.RTTMS, order))
	body := []string{titleBar(th, title, w)}
	footer := m.footer(w)
	if m.runErr != "" {
		body = append(body, wrapRows(th, stError, m.runErr, w, 3)...)
		return frame(body, footer, w, m.h)
	}
	body = append(body, m.stepLines(w)...)
	metrics := m.metrics()
	strip := m.strip(w)
	legend := "     " + th.paint(stAllowed, string(glyphBarUsed)+" used  ") +
		th.paint(stQueued, string(glyphBarHeld)+" held, unused (stranded when the window ends)  ") +
		th.paint(stRejected, string(glyphBarReject)+" rejected")
	room := m.h - len(footer) - len(body) - len(metrics) - len(strip) - 2
	nodes := pfStateAt(m.res, c.Nodes, m.cursor)
	body = append(body, m.bars(nodes, w, max(room, 1))...)
	body = append(body, legend, "")
	body = append(body, strip...)
	body = append(body, metrics...)
	return frame(body, footer, w, m.h)
}

// stepLines say what happened at the request under the cursor.
func (m pfModel) stepLines(w int) []string {
	th := m.th
	n := len(m.res.Steps)
	if n == 0 {
		return []string{th.paint(stDim, "no requests in this window: raise per-node or type an order"), ""}
	}
	if m.cursor == 0 {
		return []string{th.paint(stLabel, fmt.Sprintf("before request 1 of %d: the centre holds %d, every node 0", n, m.cfg.Limit)), ""}
	}
	s := m.res.Steps[m.cursor-1]
	var what string
	switch s.Reason {
	case distributed.ReasonLocal:
		what = "spends a permit it holds, no round trip"
	case distributed.ReasonBorrowed:
		what = fmt.Sprintf("holds none, borrows %d in one round trip (%d ms)", s.Granted, s.WaitMS)
	case distributed.ReasonBorrowEmpty:
		what = fmt.Sprintf("holds none, asks (%d ms), the centre is empty", s.WaitMS)
	case distributed.ReasonWindowEmpty:
		what = "holds none, knows the window is drained"
	default:
		what = string(s.Reason)
	}
	first := th.paint(stLabel, fmt.Sprintf("request %d of %d at node %d: ", s.Index, n, s.Node)) + what
	var why string
	if s.Allowed {
		why = th.paint(stAllowed, fmt.Sprintf("  %c allowed", glyphSent))
	} else {
		why = th.paint(stRejected, fmt.Sprintf("  %c rejected", glyphRejected))
		if s.WhileStranded {
			why += th.paint(stRejected, " while other nodes hold unused quota: a false reject")
		}
	}
	why += th.paint(stDim, fmt.Sprintf("   centre left %d", s.PoolRemaining))
	return []string{first, why}
}

// bars draws one bar per node: used █, held ░, rejected ✗. With too many
// nodes for the rows, a run of them that holds the cursor's node, with a
// line for those before and after it.
func (m pfModel) bars(nodes []pfNodeState, w, rows int) []string {
	th := m.th
	barW := w - 8 - 44
	most := 1
	for _, n := range nodes {
		most = max(most, n.used+n.held+n.rejected)
	}
	scale := func(v int) int {
		if most <= barW {
			return v
		}
		return (v*barW + most - 1) / most
	}
	cur := -1
	if k := m.cursor; k > 0 && k <= len(m.res.Steps) {
		cur = m.res.Steps[k-1].Node - 1
	}
	first, last, summaries := 0, len(nodes), true
	switch {
	case len(nodes) <= rows:
	case rows <= 2:
		first, summaries = max(cur, 0), false
		last = first + 1
	case cur < rows-1:
		last = rows - 1
	default:
		show := rows - 2
		first = min(cur-show/2, len(nodes)-show)
		last = first + show
	}
	var out []string
	if first > 0 && summaries {
		out = append(out, th.paint(stDim, fmt.Sprintf("     … nodes 1–%d", first)))
	}
	for i := first; i < last && i < len(nodes); i++ {
		n := nodes[i]
		ptr := " "
		if i == cur {
			ptr = string(glyphPointer)
		}
		u, hd, r := scale(n.used), scale(n.held), scale(n.rejected)
		out = append(out, th.paint(stLabel, fmt.Sprintf("%snode %-3d", ptr, i+1))+
			th.paint(stAllowed, strings.Repeat(string(glyphBarUsed), u))+
			th.paint(stQueued, strings.Repeat(string(glyphBarHeld), hd))+
			th.paint(stRejected, strings.Repeat(string(glyphBarReject), r))+
			strings.Repeat(" ", max(0, barW-u-hd-r))+
			th.paint(stDim, fmt.Sprintf(" borrowed %-3d used %-3d held %-3d rej %-3d", n.borrowed, n.used, n.held, n.rejected)))
	}
	if last < len(nodes) && summaries {
		out = append(out, th.paint(stDim, fmt.Sprintf("     … %d more nodes", len(nodes)-last)))
	}
	return out
}

// strip is the arrival order, one column pair per request, with each
// prefetch decision under it, ↕ where it cost a round trip to the centre,
// and ▲ at the cursor.
func (m pfModel) strip(w int) []string {
	th, steps := m.th, m.res.Steps
	node, lw := "node", 9
	if m.cfg.Nodes >= 10 {
		node, lw = "node a=10", 10 // nodes past 9 are letters, as in the lab
	}
	fit := (w - lw) / 2
	start := 0
	if len(steps) > fit {
		start = min(max(m.cursor-fit/2, 0), len(steps)-fit)
	}
	pad := func(s string) string { return s + strings.Repeat(" ", max(0, lw-len(s))) }
	nodeL, dec, trip, ptr := th.paint(stDim, pad(node)), th.paint(stDim, pad("prefetch")), th.paint(stDim, pad("centre")), strings.Repeat(" ", lw)
	for i := start; i < len(steps) && i < start+fit; i++ {
		s := steps[i]
		st := stNone
		if i == m.cursor-1 {
			st = stCursor
		}
		nodeL += th.paint(st, string(labMarker(s.Node))) + " "
		g, gs := glyphSent, stAllowed
		if !s.Allowed {
			g, gs = glyphRejected, stRejected
		}
		if i >= m.cursor {
			g, gs = '·', stDim // not decided yet
		}
		dec += th.paint(gs, string(g)) + " "
		switch {
		case i >= m.cursor:
			trip += "  "
		case s.RoundTrip:
			trip += th.paint(stQueued, "↕ ") // this request paid a round trip
		default:
			trip += th.paint(stDim, "· ")
		}
		mark := "  "
		if i == m.cursor-1 {
			mark = "▲ "
		}
		ptr += th.paint(stLabel, mark)
	}
	return []string{nodeL, dec, trip, ptr}
}

// metrics compares the two designs after the first k requests, as a table.
func (m pfModel) metrics() []string {
	th, k := m.th, m.cursor
	var cA, cR, pA, pR, pTrips, falseRej int
	var pWait int64
	for i := 0; i < k && i < len(m.res.Steps); i++ {
		s := m.res.Steps[i]
		if s.CentralAllowed {
			cA++
		} else {
			cR++
		}
		if s.Allowed {
			pA++
		} else {
			pR++
		}
		if s.RoundTrip {
			pTrips++
		}
		if s.WhileStranded {
			falseRej++
		}
		pWait += s.WaitMS
	}
	held := 0
	for _, n := range pfStateAt(m.res, m.cfg.Nodes, k) {
		held += n.held
	}
	centreLeft, pool := m.cfg.Limit, m.cfg.Limit
	if k > 0 {
		centreLeft, pool = m.res.Steps[k-1].CentralRemaining, m.res.Steps[k-1].PoolRemaining
	}
	heldLabel := "held unused"
	if k == len(m.res.Steps) {
		heldLabel = "stranded"
	}
	waitLabel := fmt.Sprintf("wait ms (trips × %d)", m.cfg.RTTMS)
	rows := [][]string{
		{"allowed", fmt.Sprint(cA), fmt.Sprint(pA)},
		{"rejected", fmt.Sprint(cR), fmt.Sprint(pR)},
		{"round trips", fmt.Sprint(k), fmt.Sprint(pTrips)},
		{waitLabel, fmt.Sprint(int64(k) * m.cfg.RTTMS), fmt.Sprint(pWait)},
		{"centre left", fmt.Sprint(centreLeft), fmt.Sprint(pool)},
		{heldLabel, "0", fmt.Sprint(held)},
		{"false rejects", "0", fmt.Sprint(falseRej)},
	}
	notes := map[int]string{}
	if pA < cA {
		notes[1] = th.paint(stRejected, fmt.Sprintf("   %d fewer allowed than central", cA-pA))
	}
	if k > 0 && pTrips < k {
		notes[2] = th.paint(stAllowed, fmt.Sprintf("   %d round trips saved", k-pTrips))
	}
	t := table.New().Headers(fmt.Sprintf("after %d of %d", k, len(m.res.Steps)), "central", "prefetch").Rows(rows...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := th.s[stNone]
			if row == table.HeaderRow {
				s = th.s[stLabel]
			}
			if col == 0 {
				return s.Width(22)
			}
			return s.Width(10).Align(lipgloss.Right)
		})
	out := splitLines(t.String())
	for i := range out {
		if n, ok := notes[i-1]; ok {
			out[i] += n
		}
	}
	return out
}

// footer is the fields row and its message or note, then the keys.
func (m pfModel) footer(w int) []string {
	th := m.th
	row, starts := m.row(th, w)
	msgs := m.message(th, starts, w, 2)
	if len(msgs) == 0 && m.note != "" {
		msgs = wrapRows(th, stQueued, m.note, w, 2)
	}
	if len(msgs) == 0 {
		msgs = []string{""}
	}
	return append(append([]string{row}, msgs...), helpLine(m.help, m.keyMap(), w))
}
