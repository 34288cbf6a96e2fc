package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/ratelimit-course/ratelimit/chapters"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The lab view is a pure function of the model and the terminal size.
//
//	row  1      title: scenario, keys to change it
//	row  2      cursor marker ▼ over the current request
//	rows 3–6    left track: header+metrics, arrivals, upstream, frame row
//	rows 7–10   right track
//	row  11     the time axis (ms)
//	rows 12–    request table | state panel at the cursor
//	last 4      fields, validation / hint, keys

const labGutter = 4 // "arr " / "up  " before the plot

// labMarker is request i's label on the arrivals row: 1–9, then a–z (10–35),
// then A–Z (36–61), then '•'.
func labMarker(i int) rune {
	switch {
	case i >= 1 && i <= 9:
		return rune('0' + i)
	case i >= 10 && i <= 35:
		return rune('a' + i - 10)
	case i >= 36 && i <= 61:
		return rune('A' + i - 36)
	}
	return '•'
}

// timeAxis maps ms to plot columns over whole windows covering every arrival
// and every send time.
type timeAxis struct {
	t0, t1 int64
	cols   int
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func newTimeAxis(m labModel, cols int) timeAxis {
	w := m.params.WindowMS
	if w <= 0 {
		w = 1000
	}
	lo, hi := int64(0), int64(0)
	first := true
	see := func(t int64) {
		if first {
			lo, hi, first = t, t, false
			return
		}
		lo, hi = min(lo, t), max(hi, t)
	}
	for _, a := range m.arrivals {
		see(a)
	}
	for s := 0; s < 2; s++ {
		for _, r := range m.res[s].Requests {
			if r.SentMS != nil {
				see(*r.SentMS)
			}
		}
	}
	ax := timeAxis{t0: floorDiv(lo, w) * w, cols: max(cols, 1)}
	ax.t1 = (floorDiv(hi, w) + 1) * w
	// Zoom: halve the span per step around the cursor, down to about one
	// ms per column.
	if m.zoom > 0 && m.cursor >= 0 && m.cursor < len(m.arrivals) {
		span := max((ax.t1-ax.t0)>>m.zoom, int64(ax.cols))
		if span < ax.t1-ax.t0 {
			t0 := m.arrivals[m.cursor] - span/2
			t0 = min(max(t0, ax.t0), ax.t1-span)
			ax.t0, ax.t1 = t0, t0+span
		}
	}
	return ax
}

// rawCol is t's column, possibly outside [0, cols) when zoomed in. Float
// arithmetic: ms up to 1e12 times a few hundred columns must not overflow.
func (a timeAxis) rawCol(t int64) int {
	c := math.Floor((float64(t) - float64(a.t0)) * float64(a.cols) / float64(a.t1-a.t0))
	return int(max(min(c, float64(a.cols+1)), -2))
}

// col is t's column clamped to the plot.
func (a timeAxis) col(t int64) int {
	return min(max(a.rawCol(t), 0), a.cols-1)
}

// in reports whether t is on the plot.
func (a timeAxis) in(t int64) bool { return t >= a.t0 && t < a.t1 }

// arrivalCols places the markers (-1: off the plot). Requests that land in
// the same column are nudged right by up to 6 columns so each stays visible,
// but never onto or past the next window boundary (multiples of W): there
// the cluster is pushed left instead, so no request appears to sit in a
// window it did not arrive in. Beyond that the later marker covers the
// earlier one (the table lists them all).
func arrivalCols(ax timeAxis, arrivals []int64, w int64) []int {
	cols := make([]int, len(arrivals))
	prev := -1
	for i, t := range arrivals {
		if !ax.in(t) {
			cols[i] = -1
			continue
		}
		c := ax.col(t)
		if c <= prev && prev+1 <= c+6 && prev+1 < ax.cols {
			c = prev + 1
		}
		if w > 0 {
			next := (floorDiv(t, w) + 1) * w
			if limit := ax.rawCol(next); next < ax.t1 && c >= limit && ax.col(t) < limit {
				c = limit - 1
				cols[i] = c
				for j := i - 1; j >= 0 && cols[j] >= 0 && cols[j] >= cols[j+1] && cols[j+1] > 0; j-- {
					cols[j] = cols[j+1] - 1
				}
			}
		}
		// The first request of a window whose boundary column would be
		// squeezed between two markers (999 999 999 | 1000 1000 1000) steps
		// one column right, so the boundary line stays visible.
		if w > 0 && i > 0 && prev == c-1 && arrivals[i-1] < floorDiv(t, w)*w &&
			c == ax.col(floorDiv(t, w)*w) && c+1 < ax.cols {
			c++
		}
		cols[i] = c
		prev = c
	}
	return cols
}

// windowBoundaries are the window starts an algorithm counts in, or nil when
// it has none (the log and the buckets measure continuously).
func windowBoundaries(algo string, p lab.Params, arrivals []int64, ax timeAxis) []int64 {
	w := p.WindowMS
	if w <= 0 {
		return nil
	}
	var out []int64
	switch algo {
	case "fixed-window", "sliding-counter":
		step := w
		if algo == "sliding-counter" && p.SubWindows > 1 && w/int64(p.SubWindows) > 0 {
			step = w / int64(p.SubWindows) // the counter's sub-windows
		}
		if (ax.t1-ax.t0)/step > int64(ax.cols) {
			return nil // denser than the columns: nothing useful to draw
		}
		for t := floorDiv(ax.t0+step-1, step) * step; t < ax.t1; t += step {
			out = append(out, t)
		}
	case "fixed-window-ttl":
		// A window opens at the first request after the previous one expired.
		open, have := int64(0), false
		for _, a := range arrivals {
			if !have || a >= open+w {
				open, have = a, true
				if ax.in(open) {
					out = append(out, open)
				}
			}
		}
	}
	return out
}

// trackRows draws one side: arrivals, upstream and the frame row.
func trackRows(m labModel, side int, ax timeAxis, acols []int) []line {
	c := newCanvas(ax.cols, 3)
	res := m.res[side]
	taken := make(map[int]bool, len(acols))
	for _, x := range acols {
		taken[x] = true
	}
	for _, b := range windowBoundaries(m.algo[side], m.params, m.arrivals, ax) {
		// A request arriving exactly on the boundary would hide it (E1's
		// 1000): the line then goes one column left, still between the two
		// windows' requests.
		x := ax.col(b)
		if taken[x] && x > 0 && !taken[x-1] {
			x--
		}
		for y := 0; y < 3; y++ {
			c.set(x, y, glyphBoundary, stBoundary)
		}
	}
	// Over-limit windows: framed on the third row. Windows overlapping one
	// already framed are counted in its label instead of drawn on top of it.
	if len(res.Requests) > 0 && res.Metrics.MaxInWindow > m.params.Limit {
		var drawn [][2]int64
		extra := map[int]int{}
		for _, win := range res.MaxWindows {
			over := -1
			for j, d := range drawn {
				if win[0] < d[1] && d[0] < win[1] {
					over = j
					break
				}
			}
			if over >= 0 {
				extra[over]++
				continue
			}
			drawn = append(drawn, win)
		}
		for i, win := range drawn {
			if win[1] <= ax.t0 || win[0] >= ax.t1 {
				continue
			}
			x0 := ax.col(win[0])
			x1 := ax.col(win[1] - 1) // half-open window: its last ms
			// The frame spans every request it counts, also one whose
			// marker was nudged out of its column.
			for i, r := range res.Requests {
				if x := sentCol(r, i, ax, acols); x >= 0 && *r.SentMS >= win[0] && *r.SentMS < win[1] {
					x0, x1 = min(x0, x), max(x1, x)
				}
			}
			for x := x0; x <= x1; x++ {
				c.set(x, 2, glyphFrame, stFrame)
			}
			c.set(x0, 2, glyphFrameL, stFrame)
			c.set(x1, 2, glyphFrameR, stFrame)
			labels := []string{fmt.Sprintf(" %d in W > L=%d ", res.Metrics.MaxInWindow, m.params.Limit),
				fmt.Sprintf("%d>L", res.Metrics.MaxInWindow)}
			if extra[i] > 0 {
				labels = append([]string{fmt.Sprintf(" %d in W > L=%d (+%d overlapping) ",
					res.Metrics.MaxInWindow, m.params.Limit, extra[i])}, labels...)
			}
			for _, label := range labels {
				if x1-x0-1 >= uiRuneLen(label) {
					c.text(x0+1+(x1-x0-1-uiRuneLen(label))/2, 2, label, stFrame)
					break
				}
			}
		}
	}
	// Links of queued requests first, so markers sit on top of them.
	for i, r := range res.Requests {
		if i >= len(acols) || !r.Allowed || r.SentMS == nil || *r.SentMS == r.ArrivalMS {
			continue
		}
		a := ax.rawCol(r.ArrivalMS)
		if acols[i] >= 0 {
			a = acols[i]
		}
		d := ax.rawCol(*r.SentMS)
		for x := max(a+1, 0); x < d && x < ax.cols; x++ {
			if c.get(x, 1) == ' ' || c.get(x, 1) == glyphBoundary {
				c.set(x, 1, glyphLink, stQueued)
			}
		}
	}
	// Where a queued request arrived (╰) comes before what upstream
	// received, so a departure that shares a column with a later arrival
	// stays visible.
	for i, r := range res.Requests {
		if i >= len(acols) || !queued(r) {
			continue
		}
		if d := sentCol(r, i, ax, acols); d > acols[i] || (d < 0 && *r.SentMS >= ax.t1) {
			c.set(acols[i], 1, glyphLinkStart, stQueued)
		}
	}
	for i, r := range res.Requests {
		if i >= len(acols) {
			break
		}
		a := acols[i] // -1 when off the plot: c.set ignores it
		st := stAllowed
		switch {
		case !r.Allowed:
			st = stRejected
			// In a crowded column what upstream received wins: a later
			// rejection must not hide a request that went through.
			if g := c.get(a, 1); g != glyphSent && g != glyphQueued {
				c.set(a, 1, glyphRejected, st)
			}
		case queued(r):
			st = stQueued
			if d := sentCol(r, i, ax, acols); d >= a {
				c.set(d, 1, glyphQueued, st)
			} else if *r.SentMS < ax.t1 {
				c.set(a, 1, glyphQueued, st) // departs within the same column
			}
		default:
			c.set(a, 1, glyphSent, st)
		}
		c.set(a, 0, labMarker(r.Index), st)
	}
	// The cursor's request stands out (reverse video; ▼ marks it for NO_COLOR).
	if m.cursor >= 0 && m.cursor < len(res.Requests) && m.cursor < len(acols) && acols[m.cursor] >= 0 {
		r := res.Requests[m.cursor]
		a := acols[m.cursor]
		c.set(a, 0, labMarker(r.Index), stCursor)
		if r.Allowed && r.SentMS != nil && ax.in(*r.SentMS) && ax.col(*r.SentMS) > a {
			c.sts[1][ax.col(*r.SentMS)] = stCursor
		} else {
			c.sts[1][a] = stCursor
		}
	}
	gut := [3]string{"arr ", "up  ", "    "}
	out := make([]line, 3)
	for y := 0; y < 3; y++ {
		out[y] = append(sty(stDim, gut[y]), c.row(y)...)
	}
	return out
}

// queued reports whether r was allowed and sent later than it arrived.
func queued(r lab.Request) bool {
	return r.Allowed && r.SentMS != nil && *r.SentMS != r.ArrivalMS
}

// sentCol is the column where upstream received request i (its marker's
// column, or its departure's for a queued one), or -1: rejected, or sent
// off the plot.
func sentCol(r lab.Request, i int, ax timeAxis, acols []int) int {
	switch {
	case !r.Allowed || r.SentMS == nil || i >= len(acols):
		return -1
	case queued(r):
		if ax.in(*r.SentMS) {
			return max(ax.col(*r.SentMS), acols[i])
		}
		return -1
	}
	return acols[i]
}

// trackHeader is "left  fixed-window  allowed 6  rejected 2  max/W 6  over 3 …".
func trackHeader(m labModel, side int, w int) line {
	name := [2]string{"left  ", "right "}[side]
	l := sty(stLabel, name+uiFit(m.algo[side], max(17, uiWidth(m.algo[side])+1)))
	if m.runErr[side] != "" {
		return l.add(stError, "  this side cannot run this budget:")
	}
	mt := m.res[side].Metrics
	overSt := stNone
	if mt.Overshoot > 0 {
		overSt = stRejected
	}
	// Two spaces between the figures when they fit, one when they do not.
	for _, sp := range []string{"  ", " "} {
		out := l.add(stNone, fmt.Sprintf("allowed %d%srejected %d%smax/W %d%s", mt.Allowed, sp, mt.Rejected, sp, mt.MaxInWindow, sp))
		out = out.add(overSt, fmt.Sprintf("over %d", mt.Overshoot))
		out = out.add(stNone, fmt.Sprintf("%swait %dms%sstate %d", sp, mt.MaxWaitMS, sp, mt.StateValues))
		if uiWidth(out.plainText()) <= w || sp == " " {
			return out
		}
	}
	return l
}

// axisRow labels the time axis at a step that leaves room for the numbers.
func axisRow(ax timeAxis, w int64) line {
	c := newCanvas(ax.cols, 1)
	span := ax.t1 - ax.t0
	widest := len(strconv.FormatInt(ax.t1, 10)) + 2
	var steps []int64
	for s := int64(1); s <= w/10; s *= 10 { // 1-2-5 steps when zoomed in
		for _, k := range []int64{s, 2 * s, 5 * s} {
			if k <= w/10 {
				steps = append(steps, k)
			}
		}
	}
	steps = append(steps, w/4, w/2, w, 2*w, 5*w, 10*w, 20*w, 50*w, 100*w, 1000*w)
	fits := func(s int64) bool {
		return s > 0 && span/s > 0 && float64(ax.cols)*float64(s)/float64(span) >= float64(widest)
	}
	step := int64(0)
	for _, s := range steps {
		if fits(s) {
			step = s
			break
		}
	}
	for step == 0 || !fits(step) { // a very long run: coarser powers of ten
		if step == 0 {
			step = steps[len(steps)-1]
		}
		if step > span {
			break
		}
		step *= 10
	}
	for t := floorDiv(ax.t0+step-1, step) * step; t < ax.t1; t += step {
		x := ax.col(t)
		label := strconv.FormatInt(t, 10)
		if x+len(label) <= ax.cols {
			c.set(x, 0, '╵', stDim)
			c.text(x+1, 0, label, stDim)
		}
	}
	return append(sty(stDim, "ms  "), c.row(0)...)
}

// cursorRow puts ▼ over the current request and names it.
func cursorRow(m labModel, acols []int, cols int) line {
	if len(m.arrivals) == 0 || m.cursor >= len(acols) || acols[m.cursor] < 0 {
		return txt("")
	}
	c := newCanvas(cols, 1)
	x := acols[m.cursor]
	c.set(x, 0, glyphCursor, stLabel)
	label := fmt.Sprintf(" #%d at %d ms", m.cursor+1, m.arrivals[m.cursor])
	if x+1+uiRuneLen(label) <= cols {
		c.text(x+1, 0, label, stLabel)
	} else if left := label[1:] + " "; x-uiRuneLen(left) >= 0 {
		c.text(x-uiRuneLen(left), 0, left, stLabel)
	}
	return append(txt(strings.Repeat(" ", labGutter)), c.row(0)...)
}

// outcome is a request's decision in a few characters, shape first.
func outcome(r lab.Request) (string, styleID) {
	switch {
	case !r.Allowed:
		return string(glyphRejected) + " R", stRejected
	case r.SentMS != nil && *r.SentMS != r.ArrivalMS:
		return fmt.Sprintf("%c @%d", glyphQueued, *r.SentMS), stQueued
	}
	return string(glyphSent) + " A", stAllowed
}

// requestTable lists the requests around the cursor: #, arrival, left, right.
func requestTable(m labModel, rows, w int) []line {
	out := []line{sty(stDim, uiFit("   #  arr ms  left     right", w))}
	n := len(m.arrivals)
	body := rows - 1
	if body < 1 {
		return out[:rows]
	}
	start := 0
	if n > body {
		start = min(max(m.cursor-body/2, 0), n-body)
	}
	for i := start; i < n && i < start+body; i++ {
		ptr := " "
		st := stNone
		if i == m.cursor {
			ptr = string(glyphPointer)
			st = stSelected
		}
		l := line{{fmt.Sprintf("%s%3d %6d  ", ptr, i+1, m.arrivals[i]), st}} // 13 columns
		for s := 0; s < 2; s++ {
			text, ost := "", stDim
			if i < len(m.res[s].Requests) {
				text, ost = outcome(m.res[s].Requests[i])
			}
			if i == m.cursor {
				ost = stSelected
			}
			if s == 1 {
				l = l.add(stNone, " ")
			}
			l = l.add(ost, uiFit(text, 8))
		}
		out = append(out, l)
	}
	return out
}

// statePanel explains both sides at the cursor: decision, state, why. When
// rows are short it gives up, in this order, the heading (the cursor row and
// the table name the request too), all but one line of each state, then the
// ends of the longer "why", so both decisions and reasons stay on screen.
func statePanel(m labModel, rows, w int) []line {
	if len(m.arrivals) == 0 {
		return []line{sty(stDim, "no arrivals: press t and type some, e.g. 0,10,20")}
	}
	i := m.cursor
	head := sty(stLabel, fmt.Sprintf("#%d arrives at %d ms (%d of %d)", i+1, m.arrivals[i], i+1, len(m.arrivals)))
	var title [2]line
	var state, why [2][]string
	for s := 0; s < 2; s++ {
		name := [2]string{"left ", "right "}[s] + m.algo[s] + ": "
		if m.runErr[s] != "" || i >= len(m.res[s].Requests) {
			title[s] = sty(stError, name+"not run")
			continue
		}
		r := m.res[s].Requests[i]
		var what string
		st := stAllowed
		switch {
		case !r.Allowed:
			what, st = fmt.Sprintf("%c rejected", glyphRejected), stRejected
		case queued(r):
			what, st = fmt.Sprintf("%c queued %d ms, sent at %d", glyphQueued, *r.WaitMS, *r.SentMS), stQueued
		default:
			what = fmt.Sprintf("%c allowed, sent at once", glyphSent)
		}
		title[s] = line{{name, stLabel}, {what, st}}
		ex := m.res[s].Explain(i) // only the request on screen is put in words
		state[s] = uiWrap("state: "+ex.State, w-2)
		why[s] = uiWrap("why: "+ex.Why, w-2)
	}
	size := func() int { return 2 + len(state[0]) + len(state[1]) + len(why[0]) + len(why[1]) }
	withHead := size()+1 <= rows
	for s := 0; s < 2 && size() > rows; s++ {
		if len(state[s]) > 1 {
			state[s] = []string{uiEllipsis(state[s][0]+" "+state[s][1], w-2)}
		}
	}
	for size() > rows && len(why[0])+len(why[1]) > 0 {
		s := 0
		if len(why[1]) > len(why[0]) {
			s = 1
		}
		why[s] = why[s][:len(why[s])-1]
		if k := len(why[s]) - 1; k >= 0 {
			why[s][k] = uiEllipsis(why[s][k]+" …", w-2)
		}
	}
	var out []line
	if withHead {
		out = append(out, head)
	}
	for s := 0; s < 2; s++ {
		out = append(out, title[s])
		for _, l := range state[s] {
			out = append(out, txt("  "+l))
		}
		for _, l := range why[s] {
			out = append(out, sty(stDim, "  "+l))
		}
	}
	return out
}

// labView renders the whole lab screen at w×h.
func labView(m labModel, w, h int, th theme) string {
	cols := w - labGutter
	ax := newTimeAxis(m, cols)
	acols := arrivalCols(ax, m.arrivals, m.params.WindowMS)

	title := line{{"05 · Lab", stTitle}, {"   scenario ", stDim}, {m.scenarioName(), stLabel}}
	if m.playing {
		title = title.add(stQueued, "   ▶ playing")
	}
	if m.zoom > 0 {
		title = title.add(stDim, fmt.Sprintf("   zoom ×%d  %d–%d ms", 1<<m.zoom, ax.t0, ax.t1))
	} else if !m.custom() {
		title = title.add(stDim, uiEllipsis(" · "+lab.Scenarios[m.scen].Title, max(0, w-8-uiWidth(title.plainText()))))
	}
	title = titleBar(title, w)

	body := []line{title, cursorRow(m, acols, cols)}
	for s := 0; s < 2; s++ {
		body = append(body, trackHeader(m, s, w))
		if m.runErr[s] != "" {
			// The engine's message in the track's rows, whole.
			rows := wrapRows(m.runErr[s], w-labGutter, 3, stError)
			for len(rows) < 3 {
				rows = append(rows, txt(""))
			}
			for _, r := range rows {
				body = append(body, append(txt(strings.Repeat(" ", labGutter)), r...))
			}
			continue
		}
		body = append(body, trackRows(m, s, ax, acols)...)
	}
	body = append(body, axisRow(ax, max(m.params.WindowMS, 1)))

	footer := labFooter(m, w)
	rows := h - len(body) - len(footer)
	if path := labPath(); m.hint == 1 && path != "" && rows > 0 {
		// The README's suggested path replaces the table and the panel:
		// its heading leads the first line, and what does not fit ends in "…".
		const heading = "Suggested path (chapter 05 README):"
		text := uiWrap(heading+" "+strings.ReplaceAll(path, "\n\n", " "), w)
		if len(text) > rows {
			text = append(text[:rows-1], uiEllipsis(text[rows-1]+" …", w))
		}
		for i, l := range text {
			if i == 0 && strings.HasPrefix(l, heading) {
				body = append(body, line{{heading, stHeading}, {l[len(heading):], stNone}})
				continue
			}
			body = append(body, txt(l))
		}
		return compose(body, footer, w, h, th)
	}
	if rows > 0 {
		tw := 30
		pw := w - tw - 1
		table := requestTable(m, rows, tw)
		panel := statePanel(m, rows, pw)
		for i := 0; i < rows; i++ {
			var l line
			if i < len(table) {
				t := cutLine(table[i], tw)
				l = append(l, t...)
				l = append(l, seg{strings.Repeat(" ", max(0, tw-uiWidth(t.plainText()))), stNone})
			} else {
				l = txt(strings.Repeat(" ", tw))
			}
			l = l.add(stDim, "│")
			if i < len(panel) {
				l = append(l, cutLine(panel[i], pw)...)
			}
			body = append(body, l)
		}
	}
	return compose(body, footer, w, h, th)
}

// labFooter: fields, validation message (or the hint), keys.
func labFooter(m labModel, w int) []line {
	fields, starts := formRow(&m.form, w, lfArrivals, "")
	msgs := formMessage(&m.form, starts, w)
	hint := labHint(m)
	if len(msgs) == 0 {
		if m.note != "" {
			msgs = append(msgs, wrapRows(m.note, w, 2, stQueued)...)
		}
		// The hint takes two rows, a third if it needs one (the table
		// gives it up), and ends in "…" if even that is not enough.
		msgs = append(msgs, wrapRows(hint, w, 3-len(msgs), stDim)...)
	} else if hint != "" {
		msgs = append(msgs, sty(stDim, uiEllipsis(hint, w)))
	}
	for len(msgs) < 2 {
		msgs = append(msgs, txt(""))
	}
	keys := "←→ step  space play  s scenario  a/b algorithm  e edit  w worst  i path  esc"
	if m.editing {
		keys = "editing: type  tab/↑↓ next field  enter/esc done  (changes re-run both sides)"
	}
	return append(append([]line{fields}, msgs...), sty(stKey, keys))
}

// wrapRows wraps s into at most n rows of w columns, the last ending in "…"
// when something is left over.
func wrapRows(s string, w, n int, st styleID) []line {
	var out []line
	ls := uiWrap(s, w)
	for i, l := range ls {
		if i == n-1 && i < len(ls)-1 {
			out = append(out, sty(st, uiEllipsis(l+" …", w)))
			break
		}
		out = append(out, sty(st, l))
	}
	return out
}

// labPath is chapter 05's suggested path, parsed once.
var labPath = sync.OnceValue(func() string { return suggestedPath(chapters.README(5)) })

// labHint is the hint line: the scenario's lesson, or, while the path is
// shown, how its steps map to keys.
func labHint(m labModel) string {
	if m.hint == 1 && labPath() != "" {
		return "in the lab: s next scenario · a/A left algorithm (e.g. gcra) · C then type 6: capacity · i back"
	}
	if !m.custom() {
		return "hint: " + lab.Scenarios[m.scen].Lesson
	}
	return "custom sequence: t edits the arrivals, e the budget, s goes back to the prepared scenarios"
}
