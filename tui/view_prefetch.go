package main

import (
	"fmt"
	"strings"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// prefetchView renders the chapter 06 prefetch screen at w×h: the step at the
// cursor, one quota bar per node, the arrival strip, central vs prefetch.
func prefetchView(m pfModel, w, h int, th theme) string {
	c := m.cfg
	order := "round-robin"
	if len(c.Order) > 0 {
		order = "order " + joinInts(c.Order) // the order in use, not the one being typed
	}
	title := line{{"06 · Prefetch", stTitle},
		{fmt.Sprintf("   %d nodes × %d · limit %d · batch %d · %s", c.Nodes, c.PerNode, c.Limit, c.Batch, order), stDim}}
	title = titleBar(title, w)
	body := []line{title}
	footer := pfFooter(m, w)
	if m.runErr != "" {
		body = append(body, sty(stError, m.runErr))
		return compose(body, footer, w, h, th)
	}
	body = append(body, pfStepLines(m, w)...)

	// Node bars, as many as fit; the rest are summed up in one line.
	room := h - len(footer) - len(body) - 14 // legend, gap, strip 4, metrics 8
	nodes := pfStateAt(m.res, c.Nodes, m.cursor)
	body = append(body, pfBars(nodes, m.res, m.cursor, w, max(room, 1))...)
	body = append(body, line{{"     ", stNone}, {string(glyphBarUsed) + " used  ", stAllowed},
		{string(glyphBarHeld) + " held, unused (stranded when the window ends)  ", stQueued},
		{string(glyphBarReject) + " rejected", stRejected}})
	body = append(body, txt(""))
	body = append(body, pfStrip(m, w)...)
	body = append(body, pfMetrics(m, nodes, w)...)
	return compose(body, footer, w, h, th)
}

// pfStepLine says what happened at the request under the cursor.
func pfStepLines(m pfModel, w int) []line {
	n := len(m.res.Steps)
	if n == 0 {
		return []line{sty(stDim, "no requests in this window: raise per-node or type an order"), txt("")}
	}
	if m.cursor == 0 {
		return []line{sty(stLabel, fmt.Sprintf("before request 1 of %d: the centre holds %d, every node 0", n, m.cfg.Limit)), txt("")}
	}
	s := m.res.Steps[m.cursor-1]
	head := fmt.Sprintf("request %d of %d at node %d: ", s.Index, n, s.Node)
	var what string
	switch s.Reason {
	case distributed.ReasonLocal:
		what = "spends a permit it holds, no round trip"
	case distributed.ReasonBorrowed:
		what = fmt.Sprintf("holds none, borrows %d in one round trip", s.Granted)
	case distributed.ReasonBorrowEmpty:
		what = "holds none, asks, the centre is empty"
	case distributed.ReasonWindowEmpty:
		what = "holds none, knows the window is drained"
	default:
		what = string(s.Reason)
	}
	l := line{{head, stLabel}, {what, stNone}}
	var why line
	if s.Allowed {
		why = sty(stAllowed, fmt.Sprintf("  %c allowed", glyphSent))
	} else {
		why = sty(stRejected, fmt.Sprintf("  %c rejected", glyphRejected))
		if s.WhileStranded {
			why = why.add(stRejected, " while other nodes hold unused quota: a false reject")
		}
	}
	why = why.add(stDim, fmt.Sprintf("   centre left %d", s.PoolRemaining))
	return []line{cutLine(l, w), cutLine(why, w)}
}

// pfBars draws one bar per node: used █, held ░, rejected ✗.
func pfBars(nodes []pfNodeState, res distributed.PrefetchResult, k, w, rows int) []line {
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
	var out []line
	cur := -1
	if k > 0 && k <= len(res.Steps) {
		cur = res.Steps[k-1].Node - 1
	}
	// Too many nodes for the rows: a run of them that holds the cursor's
	// node, with a line for those before and after it.
	first, last, summaries := 0, len(nodes), true
	switch {
	case len(nodes) <= rows:
	case rows <= 2: // room for the cursor's node only
		first, summaries = max(cur, 0), false
		last = first + 1
	case cur < rows-1:
		last = rows - 1
	default:
		show := rows - 2
		first = min(cur-show/2, len(nodes)-show)
		last = first + show
	}
	if first > 0 && summaries {
		out = append(out, sty(stDim, fmt.Sprintf("     … nodes 1–%d", first)))
	}
	for i, n := range nodes {
		if i < first {
			continue
		}
		if i == last {
			if summaries {
				out = append(out, sty(stDim, fmt.Sprintf("     … %d more nodes", len(nodes)-i)))
			}
			break
		}
		ptr := " "
		if i == cur {
			ptr = string(glyphPointer)
		}
		l := line{{fmt.Sprintf("%snode %-3d", ptr, i+1), stLabel}}
		u, hd, r := scale(n.used), scale(n.held), scale(n.rejected)
		l = l.add(stAllowed, strings.Repeat(string(glyphBarUsed), u))
		l = l.add(stQueued, strings.Repeat(string(glyphBarHeld), hd))
		l = l.add(stRejected, strings.Repeat(string(glyphBarReject), r))
		l = l.add(stNone, strings.Repeat(" ", max(0, barW-u-hd-r)))
		l = l.add(stDim, fmt.Sprintf(" borrowed %-3d used %-3d held %-3d rej %-3d", n.borrowed, n.used, n.held, n.rejected))
		out = append(out, l)
	}
	return out
}

// pfStrip is the arrival order, one column pair per request, with each
// prefetch decision under it, ↕ where it cost a round trip to the centre,
// and ▲ at the cursor.
func pfStrip(m pfModel, w int) []line {
	steps := m.res.Steps
	per := 2
	node, lw := "node", 9
	if m.cfg.Nodes >= 10 {
		node, lw = "node a=10", 10 // nodes past 9 are letters, as in the lab
	}
	fit := (w - lw) / per
	start := 0
	if len(steps) > fit {
		start = min(max(m.cursor-fit/2, 0), len(steps)-fit)
	}
	nodeL := line{{uiFit(node, lw), stDim}}
	dec := line{{uiFit("prefetch", lw), stDim}}
	trip := line{{uiFit("centre", lw), stDim}}
	ptr := line{{strings.Repeat(" ", lw), stNone}}
	for i := start; i < len(steps) && i < start+fit; i++ {
		s := steps[i]
		st := stNone
		if i == m.cursor-1 {
			st = stCursor
		}
		nodeL = nodeL.add(st, string(labMarker(s.Node))).add(stNone, " ")
		g, gs := glyphSent, stAllowed
		if !s.Allowed {
			g, gs = glyphRejected, stRejected
		}
		if i >= m.cursor {
			g, gs = '·', stDim // not decided yet
		}
		dec = dec.add(gs, string(g)).add(stNone, " ")
		switch {
		case i >= m.cursor:
			trip = trip.add(stNone, "  ")
		case s.RoundTrip:
			trip = trip.add(stQueued, "↕ ") // this request paid a round trip
		default:
			trip = trip.add(stDim, "· ")
		}
		mark := " "
		if i == m.cursor-1 {
			mark = "▲"
		}
		ptr = ptr.add(stLabel, mark+" ")
	}
	return []line{nodeL, dec, trip, ptr}
}

// pfMetrics compares the two designs after the first k requests.
func pfMetrics(m pfModel, nodes []pfNodeState, w int) []line {
	k := m.cursor
	var cA, cR, pA, pR, pTrips, falseRej int
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
	}
	held := 0
	for _, n := range nodes {
		held += n.held
	}
	centreLeft := m.cfg.Limit
	pool := m.cfg.Limit
	if k > 0 {
		centreLeft = m.res.Steps[k-1].CentralRemaining
		pool = m.res.Steps[k-1].PoolRemaining
	}
	rtt := m.cfg.RTTMS
	heldLabel := "held unused"
	if k == len(m.res.Steps) {
		heldLabel = "stranded"
	}
	rows := [][3]string{
		{fmt.Sprintf("after %d of %d", k, len(m.res.Steps)), "central", "prefetch"},
		{"allowed", fmt.Sprint(cA), fmt.Sprint(pA)},
		{"rejected", fmt.Sprint(cR), fmt.Sprint(pR)},
		{"round trips", fmt.Sprint(k), fmt.Sprint(pTrips)},
		{"wait ms", fmt.Sprint(int64(k) * rtt), fmt.Sprint(int64(pTrips) * rtt)},
		{"centre left", fmt.Sprint(centreLeft), fmt.Sprint(pool)},
		{heldLabel, "0", fmt.Sprint(held)},
		{"false rejects", "0", fmt.Sprint(falseRej)},
	}
	out := make([]line, 0, len(rows))
	for i, r := range rows {
		st := stNone
		if i == 0 {
			st = stLabel
		}
		l := line{{fmt.Sprintf("%-16s%10s%10s", r[0], r[1], r[2]), st}}
		if i == 2 && pA < cA {
			l = l.add(stRejected, fmt.Sprintf("   %d fewer allowed than central", cA-pA))
		}
		if i == 3 && k > 0 && pTrips < k {
			l = l.add(stAllowed, fmt.Sprintf("   %d round trips saved", k-pTrips))
		}
		out = append(out, cutLine(l, w))
	}
	return out
}

func pfFooter(m pfModel, w int) []line {
	fields, starts := formRow(&m.form, w, pfOrder, "(round-robin)")
	msgs := formMessage(&m.form, starts, w)
	if len(msgs) == 0 && m.note != "" {
		msgs = wrapRows(m.note, w, 2, stQueued)
	}
	if len(msgs) == 0 {
		msgs = []line{txt("")}
	}
	keys := "←→ step  space play  e edit  1 batch 1↔8  esc back  ? help"
	if m.editing {
		keys = "editing: type  tab/↑↓ next field  enter/esc done  (order blank = round-robin)"
	}
	return append(append([]line{fields}, msgs...), sty(stKey, keys))
}
