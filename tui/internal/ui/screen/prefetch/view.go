package prefetch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/sim"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// pfNodeState is one node's account after the first k requests.
type pfNodeState struct {
	borrowed, used, held, rejected int
}

func pfStateAt(res sim.PrefetchResult, nodes, k int) []pfNodeState {
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
func (m Model) View() string {
	th, w, c := m.th, m.w, m.cfg
	// The title keeps to what fits 80 columns; the order is on the fields' row.
	title := th.Paint(widget.StTitle, "06 · Prefetch") + th.Paint(widget.StDim,
		fmt.Sprintf("   %d nodes × %d · limit %d · batch %d · rtt %d ms", c.Nodes, c.PerNode, c.Limit, c.Batch, c.RTTMS))
	body := []string{widget.TitleBar(th, title, w)}
	footer := m.footer(w)
	if m.runErr != "" {
		body = append(body, widget.WrapRows(th, widget.StError, m.runErr, w, 3)...)
		return widget.Frame(body, footer, w, m.h)
	}
	body = append(body, m.stepLines(w)...)
	metrics := m.metrics()
	strip := m.strip(w)
	legend := "     " + th.Paint(widget.StAllowed, string(widget.GlyphBarUsed)+" used  ") +
		th.Paint(widget.StQueued, string(widget.GlyphBarHeld)+" held, unused (stranded when the window ends)  ") +
		th.Paint(widget.StRejected, string(widget.GlyphBarReject)+" rejected")
	room := m.h - len(footer) - len(body) - len(metrics) - len(strip) - 2
	nodes := pfStateAt(m.res, c.Nodes, m.Cursor)
	body = append(body, m.bars(nodes, w, max(room, 1))...)
	body = append(body, legend, "")
	body = append(body, strip...)
	body = append(body, metrics...)
	return widget.Frame(body, footer, w, m.h)
}

// stepLines say what happened at the request under the cursor.
func (m Model) stepLines(w int) []string {
	th := m.th
	n := len(m.res.Steps)
	if n == 0 {
		return []string{th.Paint(widget.StDim, "no requests in this window: raise per-node or type an order"), ""}
	}
	if m.Cursor == 0 {
		return []string{th.Paint(widget.StLabel, fmt.Sprintf("before request 1 of %d: the centre holds %d, every node 0", n, m.cfg.Limit)), ""}
	}
	s := m.res.Steps[m.Cursor-1]
	var what string
	switch s.Reason {
	case sim.ReasonLocal:
		what = "spends a permit it holds, no round trip"
	case sim.ReasonBorrowed:
		what = fmt.Sprintf("holds none, borrows %d in one round trip (%d ms)", s.Granted, s.WaitMS)
	case sim.ReasonBorrowEmpty:
		what = fmt.Sprintf("holds none, asks (%d ms), the centre is empty", s.WaitMS)
	case sim.ReasonWindowEmpty:
		what = "holds none, knows the window is drained"
	default:
		what = string(s.Reason)
	}
	first := th.Paint(widget.StLabel, fmt.Sprintf("request %d of %d at node %d: ", s.Index, n, s.Node)) + what
	var why string
	if s.Allowed {
		why = th.Paint(widget.StAllowed, fmt.Sprintf("  %c allowed", widget.GlyphSent))
	} else {
		why = th.Paint(widget.StRejected, fmt.Sprintf("  %c rejected", widget.GlyphRejected))
		if s.WhileStranded {
			why += th.Paint(widget.StRejected, " while other nodes hold unused quota: a false reject")
		}
	}
	why += th.Paint(widget.StDim, fmt.Sprintf("   centre left %d", s.PoolRemaining))
	return []string{first, why}
}

// bars draws one bar per node: used █, held ░, rejected ✗. With too many
// nodes for the rows, a run of them that holds the cursor's node, with a
// line for those before and after it.
func (m Model) bars(nodes []pfNodeState, w, rows int) []string {
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
	if k := m.Cursor; k > 0 && k <= len(m.res.Steps) {
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
		out = append(out, th.Paint(widget.StDim, fmt.Sprintf("     … nodes 1–%d", first)))
	}
	for i := first; i < last && i < len(nodes); i++ {
		n := nodes[i]
		ptr := " "
		if i == cur {
			ptr = string(widget.GlyphPointer)
		}
		u, hd, r := scale(n.used), scale(n.held), scale(n.rejected)
		out = append(out, th.Paint(widget.StLabel, fmt.Sprintf("%snode %-3d", ptr, i+1))+
			th.Paint(widget.StAllowed, strings.Repeat(string(widget.GlyphBarUsed), u))+
			th.Paint(widget.StQueued, strings.Repeat(string(widget.GlyphBarHeld), hd))+
			th.Paint(widget.StRejected, strings.Repeat(string(widget.GlyphBarReject), r))+
			strings.Repeat(" ", max(0, barW-u-hd-r))+
			th.Paint(widget.StDim, fmt.Sprintf(" borrowed %-3d used %-3d held %-3d rej %-3d", n.borrowed, n.used, n.held, n.rejected)))
	}
	if last < len(nodes) && summaries {
		out = append(out, th.Paint(widget.StDim, fmt.Sprintf("     … %d more nodes", len(nodes)-last)))
	}
	return out
}

// strip is the arrival order, one column pair per request, with each
// prefetch decision under it, ↕ where it cost a round trip to the centre,
// and ▲ at the cursor.
func (m Model) strip(w int) []string {
	th, steps := m.th, m.res.Steps
	node, lw := "node", 9
	if m.cfg.Nodes >= 10 {
		node, lw = "node a=10", 10 // nodes past 9 are letters, as in the lab
	}
	fit := (w - lw) / 2
	start := 0
	if len(steps) > fit {
		start = min(max(m.Cursor-fit/2, 0), len(steps)-fit)
	}
	pad := func(s string) string { return s + strings.Repeat(" ", max(0, lw-len(s))) }
	nodeL, dec, trip, ptr := th.Paint(widget.StDim, pad(node)), th.Paint(widget.StDim, pad("prefetch")), th.Paint(widget.StDim, pad("centre")), strings.Repeat(" ", lw)
	for i := start; i < len(steps) && i < start+fit; i++ {
		s := steps[i]
		st := widget.StNone
		if i == m.Cursor-1 {
			st = widget.StCursor
		}
		nodeL += th.Paint(st, string(widget.Marker(s.Node))) + " "
		g, gs := widget.GlyphSent, widget.StAllowed
		if !s.Allowed {
			g, gs = widget.GlyphRejected, widget.StRejected
		}
		if i >= m.Cursor {
			g, gs = '·', widget.StDim // not decided yet
		}
		dec += th.Paint(gs, string(g)) + " "
		switch {
		case i >= m.Cursor:
			trip += "  "
		case s.RoundTrip:
			trip += th.Paint(widget.StQueued, "↕ ") // this request paid a round trip
		default:
			trip += th.Paint(widget.StDim, "· ")
		}
		mark := "  "
		if i == m.Cursor-1 {
			mark = "▲ "
		}
		ptr += th.Paint(widget.StLabel, mark)
	}
	return []string{nodeL, dec, trip, ptr}
}

// pfTally counts the first k requests under the central design (c) and
// the prefetching one (p).
type pfTally struct {
	cA, cR, pA, pR, pTrips, falseRej int
	pWait                            int64
}

// tally counts the first k of steps.
func tally(steps []sim.PrefetchStep, k int) pfTally {
	var t pfTally
	for i := 0; i < k && i < len(steps); i++ {
		s := steps[i]
		if s.CentralAllowed {
			t.cA++
		} else {
			t.cR++
		}
		if s.Allowed {
			t.pA++
		} else {
			t.pR++
		}
		if s.RoundTrip {
			t.pTrips++
		}
		if s.WhileStranded {
			t.falseRej++
		}
		t.pWait += s.WaitMS
	}
	return t
}

// metrics compares the two designs after the first k requests, as a table.
func (m Model) metrics() []string {
	th, k := m.th, m.Cursor
	c := tally(m.res.Steps, k)
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
		{"allowed", fmt.Sprint(c.cA), fmt.Sprint(c.pA)},
		{"rejected", fmt.Sprint(c.cR), fmt.Sprint(c.pR)},
		{"round trips", fmt.Sprint(k), fmt.Sprint(c.pTrips)},
		{waitLabel, fmt.Sprint(int64(k) * m.cfg.RTTMS), fmt.Sprint(c.pWait)},
		{"centre left", fmt.Sprint(centreLeft), fmt.Sprint(pool)},
		{heldLabel, "0", fmt.Sprint(held)},
		{"false rejects", "0", fmt.Sprint(c.falseRej)},
	}
	notes := map[int]string{}
	if c.pA < c.cA {
		notes[1] = th.Paint(widget.StRejected, fmt.Sprintf("   %d fewer allowed than central", c.cA-c.pA))
	}
	if k > 0 && c.pTrips < k {
		notes[2] = th.Paint(widget.StAllowed, fmt.Sprintf("   %d round trips saved", k-c.pTrips))
	}
	out := m.metricsTable(fmt.Sprintf("after %d of %d", k, len(m.res.Steps)), rows)
	for i := range out {
		if n, ok := notes[i-1]; ok {
			out[i] += n
		}
	}
	return out
}

// metricsTable draws rows under a header of first, "central" and
// "prefetch", without borders: a label column, then right-aligned numbers.
func (m Model) metricsTable(first string, rows [][]string) []string {
	th := m.th
	t := widget.PlainTable(first, "central", "prefetch").Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := widget.CellStyle(th, row)
			if col == 0 {
				return s.Width(22)
			}
			return s.Width(10).Align(lipgloss.Right)
		})
	return widget.SplitLines(t.String())
}

// footer is the fields row and its message or note, then the keys.
func (m Model) footer(w int) []string {
	th := m.th
	row, starts := m.Row(th, w)
	msgs := m.Message(th, starts, w, 2)
	if len(msgs) == 0 && m.note != "" {
		msgs = widget.WrapRows(th, widget.StQueued, m.note, w, 2)
	}
	if len(msgs) == 0 {
		msgs = []string{""}
	}
	return append(append([]string{row}, msgs...), widget.HelpLine(m.help, m.Keys(), w))
}
