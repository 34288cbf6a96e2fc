package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The lab view renders the model; it changes nothing.
//
//	row  1      title: scenario, zoom
//	row  2      cursor marker ▼ over the current request
//	rows 3–6    left track: header, arrivals, upstream, frame row
//	rows 7–10   right track
//	row  11     the time axis (ms)
//	rows 12–    request table | what each side did at the cursor
//	last rows   fields, message or hint, keys

const labGutter = 4 // "arr " / "up  " before the plot

// labMarker is request i's label: 1–9, then a–z (10–35), then A–Z (36–61),
// then '•'. The arrivals row shows it where a request arrived, the upstream
// row where a queued one left.
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

func newTimeAxis(w int64, arrivals []int64, res []lab.Result, zoom, cursor, cols int) timeAxis {
	if w <= 0 {
		w = 1000
	}
	lo, hi, first := int64(0), int64(0), true
	see := func(t int64) {
		if first {
			lo, hi, first = t, t, false
			return
		}
		lo, hi = min(lo, t), max(hi, t)
	}
	for _, a := range arrivals {
		see(a)
	}
	for _, r := range res {
		for _, q := range r.Requests {
			if q.SentMS != nil {
				see(*q.SentMS)
			}
		}
	}
	ax := timeAxis{t0: floorDiv(lo, w) * w, cols: max(cols, 1)}
	ax.t1 = (floorDiv(hi, w) + 1) * w
	// Zoom: halve the span per step around the cursor, down to about one
	// ms per column.
	if zoom > 0 && cursor >= 0 && cursor < len(arrivals) {
		span := max((ax.t1-ax.t0)>>min(zoom, 62), int64(ax.cols))
		if span < ax.t1-ax.t0 {
			t0 := arrivals[cursor] - span/2
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
func (a timeAxis) col(t int64) int { return min(max(a.rawCol(t), 0), a.cols-1) }

// in reports whether t is on the plot.
func (a timeAxis) in(t int64) bool { return t >= a.t0 && t < a.t1 }

// arrivalCols places the markers (-1: off the plot). Requests that land in
// the same column are nudged right by up to 6 columns so each stays visible,
// but never onto or past the next window boundary (multiples of W): there
// the cluster is pushed left instead, so no request appears to sit in a
// window it did not arrive in. shift is the most any marker moved: the
// title then says the row no longer matches the axis exactly.
func arrivalCols(ax timeAxis, arrivals []int64, w int64) (cols []int, shift int) {
	cols = make([]int, len(arrivals))
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
		// squeezed between two markers steps one column right, so the
		// boundary line stays visible.
		if w > 0 && i > 0 && prev == c-1 && arrivals[i-1] < floorDiv(t, w)*w &&
			c == ax.col(floorDiv(t, w)*w) && c+1 < ax.cols {
			c++
		}
		cols[i] = c
		prev = c
	}
	for i, c := range cols {
		if c >= 0 {
			d := c - ax.col(arrivals[i])
			shift = max(shift, d, -d)
		}
	}
	return cols, shift
}

// windowBoundaries are the window starts an algorithm counts in, or nil when
// it has none (the log and the buckets measure continuously). Chapter 05's
// engine does not report them, so the screen draws the chapters' documented
// windows: aligned multiples of W (of W/N for the counter's sub-windows), or
// for the TTL window the first request after the previous one expired.
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
			step = w / int64(p.SubWindows)
		}
		if (ax.t1-ax.t0)/step > int64(ax.cols) {
			return nil // denser than the columns: nothing useful to draw
		}
		for t := floorDiv(ax.t0+step-1, step) * step; t < ax.t1; t += step {
			out = append(out, t)
		}
	case "fixed-window-ttl":
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

// canvas is a grid of styled cells for the timelines and bars.
type canvas struct {
	w     int
	runes [][]rune
	sts   [][]styleID
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, runes: make([][]rune, h), sts: make([][]styleID, h)}
	for y := range c.runes {
		c.runes[y] = []rune(strings.Repeat(" ", w))
		c.sts[y] = make([]styleID, w)
	}
	return c
}

func (c *canvas) set(x, y int, r rune, st styleID) {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return
	}
	c.runes[y][x] = r
	c.sts[y][x] = st
}

func (c *canvas) get(x, y int) rune {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return 0
	}
	return c.runes[y][x]
}

// text writes s from column x, cell by cell.
func (c *canvas) text(x, y int, s string, st styleID) {
	for _, r := range s {
		c.set(x, y, r, st)
		x++
	}
}

// row paints one canvas row, one style run at a time.
func (c *canvas) row(th *theme, y int) string {
	var b strings.Builder
	rs, ss := c.runes[y], c.sts[y]
	start := 0
	for x := 1; x <= len(rs); x++ {
		if x == len(rs) || ss[x] != ss[start] {
			b.WriteString(th.paint(ss[start], string(rs[start:x])))
			start = x
		}
	}
	return b.String()
}

// track is what one side's timeline needs: the run, the budget, and the
// request under the cursor (-1: none).
type track struct {
	res      lab.Result
	algo     string
	params   lab.Params
	arrivals []int64
	cursor   int
}

// trackRows draws one side: arrivals, upstream and the frame row.
func trackRows(th *theme, tr track, ax timeAxis, acols []int) []string {
	c := newCanvas(ax.cols, 3)
	res := tr.res
	taken := make(map[int]bool, len(acols))
	for _, x := range acols {
		taken[x] = true
	}
	for _, b := range windowBoundaries(tr.algo, tr.params, tr.arrivals, ax) {
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
	// Over-limit windows (the engine's MaxWindows): framed on the third
	// row. Windows overlapping one already framed are counted in its label.
	if len(res.Requests) > 0 && res.Metrics.MaxInWindow > tr.params.Limit {
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
			x0, x1 := ax.col(win[0]), ax.col(win[1]-1) // half-open window: its last ms
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
			mx, l := res.Metrics.MaxInWindow, tr.params.Limit
			labels := []string{fmt.Sprintf(" %d in W > L=%d ", mx, l), fmt.Sprintf("%d>L", mx)}
			if extra[i] > 0 {
				labels = append([]string{fmt.Sprintf(" %d in W > L=%d (+%d overlapping) ", mx, l, extra[i])}, labels...)
			}
			for _, label := range labels {
				if n := len([]rune(label)); x1-x0-1 >= n {
					c.text(x0+1+(x1-x0-1-n)/2, 2, label, stFrame)
					break
				}
			}
		}
	}
	// Links of queued requests first, so markers sit on top of them.
	for i, r := range res.Requests {
		if i >= len(acols) || !queued(r) {
			continue
		}
		a := ax.rawCol(r.ArrivalMS)
		if acols[i] >= 0 {
			a = acols[i]
		}
		for x := max(a+1, 0); x < ax.rawCol(*r.SentMS) && x < ax.cols; x++ {
			if g := c.get(x, 1); g == ' ' || g == glyphBoundary {
				c.set(x, 1, glyphLink, stQueued)
			}
		}
	}
	// Where a queued request arrived (╰) comes before what upstream
	// received, so a departure sharing a column with a later arrival stays.
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
			if g := c.get(a, 1); g == ' ' || g == glyphBoundary || g == glyphLink || g == glyphRejected {
				c.set(a, 1, glyphRejected, st)
			}
		case queued(r):
			// A departure carries the request's label: in a dense queue
			// each waiting line ends at a number, so whose departure is
			// whose stays readable.
			st = stQueued
			if d := sentCol(r, i, ax, acols); d > a {
				c.set(d, 1, labMarker(r.Index), st)
			} else if *r.SentMS < ax.t1 {
				c.set(a, 1, glyphQueued, st) // departs within the same column
			}
		default:
			c.set(a, 1, glyphSent, st)
		}
		c.set(a, 0, labMarker(r.Index), st)
	}
	// The cursor's request stands out (reverse video; ▼ marks it for NO_COLOR).
	if k := tr.cursor; k >= 0 && k < len(res.Requests) && k < len(acols) && acols[k] >= 0 {
		r, a := res.Requests[k], acols[k]
		c.set(a, 0, labMarker(r.Index), stCursor)
		if d := sentCol(r, k, ax, acols); d > a {
			c.sts[1][d] = stCursor
		} else {
			c.sts[1][a] = stCursor
		}
	}
	gut := [3]string{"arr ", "up  ", "    "}
	out := make([]string, 3)
	for y := 0; y < 3; y++ {
		out[y] = th.paint(stDim, gut[y]) + c.row(th, y)
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
func trackHeader(th *theme, m labModel, side, w int) string {
	name := [2]string{"left  ", "right "}[side]
	head := th.paint(stLabel, name+fmt.Sprintf("%-*s", max(17, len(m.algo[side])+1), m.algo[side]))
	if m.runErr[side] != "" {
		return head + th.paint(stError, "  cannot run this budget:")
	}
	mt := m.res[side].Metrics
	overSt := stNone
	if mt.Overshoot > 0 {
		overSt = stRejected
	}
	// Two spaces between the figures when they fit, one when they do not.
	for _, sp := range []string{"  ", " "} {
		s := fmt.Sprintf("allowed %d%srejected %d%smax/W %d%s", mt.Allowed, sp, mt.Rejected, sp, mt.MaxInWindow, sp)
		tail := fmt.Sprintf("%swait %dms%skeeps %d", sp, mt.MaxWaitMS, sp, mt.StateValues)
		out := head + s + th.paint(overSt, fmt.Sprintf("over %d", mt.Overshoot)) + tail
		if lipgloss.Width(out) <= w || sp == " " {
			return out
		}
	}
	return head
}

// axisRow labels the time axis at a step that leaves room for the numbers.
func axisRow(th *theme, ax timeAxis, w int64) string {
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
		if step > span || step > math.MaxInt64/10 {
			break
		}
		step *= 10
	}
	for t := floorDiv(ax.t0+step-1, step) * step; step > 0 && t < ax.t1; t += step {
		x := ax.col(t)
		label := strconv.FormatInt(t, 10)
		if x+len(label) <= ax.cols {
			c.set(x, 0, '╵', stDim)
			c.text(x+1, 0, label, stDim)
		}
	}
	return th.paint(stDim, "ms  ") + c.row(th, 0)
}

// cursorRow puts ▼ over the current request and names it.
func cursorRow(th *theme, m labModel, acols []int, cols int) string {
	if len(m.arrivals) == 0 || m.cursor >= len(acols) || acols[m.cursor] < 0 {
		return ""
	}
	c := newCanvas(cols, 1)
	x := acols[m.cursor]
	c.set(x, 0, glyphCursor, stLabel)
	label := fmt.Sprintf(" #%d at %d ms", m.cursor+1, m.arrivals[m.cursor])
	n := len([]rune(label))
	if x+1+n <= cols {
		c.text(x+1, 0, label, stLabel)
	} else if left := label[1:] + " "; x-n >= 0 {
		c.text(x-n, 0, left, stLabel)
	}
	return strings.Repeat(" ", labGutter) + c.row(th, 0)
}

// outcome is a request's decision in a few characters, shape first.
func outcome(r lab.Request) (string, styleID) {
	switch {
	case !r.Allowed:
		return string(glyphRejected) + " R", stRejected
	case queued(r):
		return fmt.Sprintf("%c @%d", glyphQueued, *r.SentMS), stQueued
	}
	return string(glyphSent) + " A", stAllowed
}

// requestTable lists the requests around the cursor: #, arrival, left, right.
func requestTable(th *theme, m labModel, rows, w int) string {
	n := len(m.arrivals)
	body := max(rows-1, 1)
	start := 0
	if n > body {
		start = min(max(m.cursor-body/2, 0), n-body)
	}
	end := min(n, start+body)
	var data [][]string
	var sts [][2]styleID
	for i := start; i < end; i++ {
		ptr := " "
		if i == m.cursor {
			ptr = string(glyphPointer)
		}
		row := []string{fmt.Sprintf("%s%3d", ptr, i+1), strconv.FormatInt(m.arrivals[i], 10)}
		var st [2]styleID
		for s := 0; s < 2; s++ {
			text := ""
			st[s] = stDim
			if i < len(m.res[s].Requests) {
				text, st[s] = outcome(m.res[s].Requests[i])
			}
			row = append(row, text)
		}
		data, sts = append(data, row), append(sts, st)
	}
	cur := m.cursor - start
	t := table.New().Headers("   #", "arr ms", "left", "right").Rows(data...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(false).Width(w).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := th.s[stNone].PaddingRight(1)
			switch {
			case row == table.HeaderRow:
				return th.s[stDim].PaddingRight(1)
			case row == cur:
				s = th.s[stSelected].PaddingRight(1)
			case col >= 2 && row < len(sts):
				s = th.s[sts[row][col-2]].PaddingRight(1)
			}
			if col == 1 {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	return t.String()
}

// statePanel says what both sides did at the cursor: the decision, the
// key's state and why. Its first line always names the request; when rows
// are short it gives up first the second line of each state, then the ends
// of the longer "why", so both decisions and reasons stay on screen.
func statePanel(th *theme, m labModel, rows, w int) []string {
	if len(m.arrivals) == 0 {
		return []string{th.paint(stDim, "no arrivals: press "+keyName(lkeys.Arrivals)+" and type some, e.g. 0,10,20")}
	}
	i := m.cursor
	head := th.paint(stLabel, fmt.Sprintf("#%d arrives at %d ms (%d of %d)", i+1, m.arrivals[i], i+1, len(m.arrivals)))
	var title [2]string
	var state, why [2][]string
	wrap := func(s string) []string { return strings.Split(ansi.Wrap(s, w-2, ""), "\n") }
	for s := 0; s < 2; s++ {
		name := [2]string{"left ", "right "}[s] + m.algo[s] + ": "
		if m.runErr[s] != "" || i >= len(m.res[s].Requests) {
			title[s] = th.paint(stError, name+"not run")
			continue
		}
		r := m.res[s].Requests[i]
		what, st := fmt.Sprintf("%c allowed, sent at once", glyphSent), stAllowed
		switch {
		case !r.Allowed:
			what, st = fmt.Sprintf("%c rejected", glyphRejected), stRejected
		case queued(r):
			what, st = fmt.Sprintf("%c queued %d ms, sent at %d", glyphQueued, *r.WaitMS, *r.SentMS), stQueued
		}
		title[s] = th.paint(stLabel, name) + th.paint(st, what)
		ex := m.res[s].Explain(i)
		state[s], why[s] = wrap("state: "+ex.State), wrap("why: "+ex.Why)
	}
	size := func() int { return 3 + len(state[0]) + len(state[1]) + len(why[0]) + len(why[1]) }
	for s := 0; s < 2 && size() > rows; s++ {
		if len(state[s]) > 1 {
			state[s] = []string{ansi.Truncate(strings.Join(state[s], " "), w-2, "…")}
		}
	}
	for size() > rows && len(why[0])+len(why[1]) > 0 {
		s := 0
		if len(why[1]) > len(why[0]) {
			s = 1
		}
		why[s] = why[s][:len(why[s])-1]
		if k := len(why[s]) - 1; k >= 0 {
			why[s][k] = ansi.Truncate(why[s][k]+" …", w-2, "…")
		}
	}
	out := []string{head}
	for s := 0; s < 2; s++ {
		out = append(out, title[s])
		for _, l := range state[s] {
			out = append(out, "  "+l)
		}
		for _, l := range why[s] {
			out = append(out, th.paint(stDim, "  "+l))
		}
	}
	return out
}

// View renders the lab screen at its size, its short help last.
func (m labModel) View() string { return m.view(helpLine(m.help, m.keyMap(), m.w)) }

func (m labModel) view(helpLine string) string {
	th, w, h := m.th, m.w, m.h
	cols := w - labGutter
	ax := newTimeAxis(m.params.WindowMS, m.arrivals, m.res[:], m.zoom, m.cursor, cols)
	acols, shift := arrivalCols(ax, m.arrivals, m.params.WindowMS)

	title := th.paint(stTitle, "05 · Lab") + th.paint(stDim, "   scenario ") + th.paint(stLabel, m.scenarioName())
	if m.playing {
		title += th.paint(stQueued, "   ▶ playing")
	}
	switch {
	case m.zoom > 0:
		title += th.paint(stDim, fmt.Sprintf("   zoom ×%d  %d–%d ms (%s: whole run)", uint64(1)<<min(m.zoom, 62), ax.t0, ax.t1, keyName(lkeys.ZoomReset)))
	case shift > 0:
		title += th.paint(stDim, fmt.Sprintf("   markers moved ±%d cols: %s zooms", shift, keyName(lkeys.ZoomIn)))
	case !m.custom():
		title += th.paint(stDim, " · "+lab.Scenarios[m.scen].Title)
	}
	body := []string{titleBar(th, title, w), cursorRow(th, m, acols, cols)}
	for s := 0; s < 2; s++ {
		body = append(body, trackHeader(th, m, s, w))
		if m.runErr[s] != "" {
			rows := wrapRows(th, stError, m.runErr[s], w-labGutter, 3)
			for len(rows) < 3 {
				rows = append(rows, "")
			}
			for _, r := range rows {
				body = append(body, strings.Repeat(" ", labGutter)+r)
			}
			continue
		}
		tr := track{res: m.res[s], algo: m.algo[s], params: m.params, arrivals: m.arrivals, cursor: m.cursor}
		body = append(body, trackRows(th, tr, ax, acols)...)
	}
	body = append(body, axisRow(th, ax, max(m.params.WindowMS, 1)))

	footer := m.footer(w)
	if helpLine != "" {
		footer = append(footer, helpLine)
	}
	if rows := h - len(body) - len(footer); rows > 0 {
		const tw = 30
		pw := w - tw - 1
		tbl := strings.Split(requestTable(th, m, rows, tw), "\n")
		panel := statePanel(th, m, rows, pw)
		bar := th.paint(stDim, "│")
		for i := 0; i < rows; i++ {
			l, r := "", ""
			if i < len(tbl) {
				l = tbl[i]
			}
			if i < len(panel) {
				r = panel[i]
			}
			body = append(body, lipgloss.NewStyle().Width(tw).MaxWidth(tw).Render(l)+bar+r)
		}
	}
	return frame(body, footer, w, h)
}

// footer is the fields row and its message, or the note, or the hint.
func (m labModel) footer(w int) []string {
	th := m.th
	row, starts := m.row(th, w)
	msgs := m.message(th, starts, w, 2)
	hint := fmt.Sprintf("hint: custom sequence: %s edits the arrivals, %s the budget, %s goes back to the prepared scenarios",
		keyName(lkeys.Arrivals), keyName(lkeys.Edit), keyName(lkeys.Scenario))
	if !m.custom() {
		hint = "hint: " + lab.Scenarios[m.scen].Lesson
	}
	if len(msgs) == 0 {
		if m.note != "" {
			msgs = wrapRows(th, stQueued, m.note, w, 2)
		}
		msgs = append(msgs, wrapRows(th, stDim, hint, w, 2-len(msgs))...)
	}
	for len(msgs) < 2 {
		msgs = append(msgs, "")
	}
	return append([]string{row}, msgs...)
}
