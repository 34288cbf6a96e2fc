package timeline

import (
	"fmt"
	"math"
	"strconv"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Track is what one side's timeline needs: the run, the budget, and the
// request under the cursor (-1: none).
type Track struct {
	Res      lab.Result
	Algo     lab.Algorithm
	Params   lab.Params
	Arrivals []int64
	Cursor   int
}

// TrackRows draws one side: arrivals, upstream and the frame row. The
// layers go down in order, each drawn over the one before: window
// boundaries, over-limit frames, queue links, request markers, and last
// the cursor.
func TrackRows(th *widget.Theme, tr Track, ax Axis, acols []int) []string {
	c := widget.NewCanvas(ax.Cols, 3)
	drawBoundaries(c, tr.Res, ax, acols)
	if len(tr.Res.Requests) > 0 && tr.Res.Metrics.MaxInWindow > tr.Params.Limit {
		drawOverLimit(c, tr, ax, acols)
	}
	drawQueueLinks(c, tr.Res, ax, acols)
	drawMarkers(c, tr.Res, ax, acols)
	drawCursor(c, tr, ax, acols)
	gut := [3]string{"arr ", "up  ", "    "}
	out := make([]string, 3)
	for y := 0; y < 3; y++ {
		out[y] = th.Paint(widget.StDim, gut[y]) + c.Row(th, y)
	}
	return out
}

// drawBoundaries draws each window boundary down all three rows.
func drawBoundaries(c *widget.Canvas, res lab.Result, ax Axis, acols []int) {
	taken := make(map[int]bool, len(acols))
	for _, x := range acols {
		taken[x] = true
	}
	for _, b := range boundaries(res, ax) {
		// A request arriving exactly on the boundary would hide it (E1's
		// 1000): the line then goes one column left, still between the two
		// windows' requests.
		x := ax.Col(b)
		if taken[x] && x > 0 && !taken[x-1] {
			x--
		}
		for y := 0; y < 3; y++ {
			c.Set(x, y, widget.GlyphBoundary, widget.StBoundary)
		}
	}
}

// drawOverLimit frames the over-limit windows (the engine's MaxWindows)
// on the third row, each labelled with the count that broke the limit.
func drawOverLimit(c *widget.Canvas, tr Track, ax Axis, acols []int) {
	res := tr.Res
	drawn, extra := separateWindows(res.MaxWindows)
	for i, win := range drawn {
		if win[1] <= ax.T0 || win[0] >= ax.T1 {
			continue
		}
		x0, x1 := ax.Col(win[0]), ax.Col(win[1]-1) // half-open window: its last ms
		// The frame spans every request it counts, also one whose
		// marker was nudged out of its column.
		for i, r := range res.Requests {
			if x := sentCol(r, i, ax, acols); x >= 0 && *r.SentMS >= win[0] && *r.SentMS < win[1] {
				x0, x1 = min(x0, x), max(x1, x)
			}
		}
		for x := x0; x <= x1; x++ {
			c.Set(x, 2, widget.GlyphFrame, widget.StFrame)
		}
		c.Set(x0, 2, widget.GlyphFrameL, widget.StFrame)
		c.Set(x1, 2, widget.GlyphFrameR, widget.StFrame)
		mx, l := res.Metrics.MaxInWindow, tr.Params.Limit
		labels := []string{fmt.Sprintf(" %d in W > L=%d ", mx, l), fmt.Sprintf("%d>L", mx)}
		if extra[i] > 0 {
			labels = append([]string{fmt.Sprintf(" %d in W > L=%d (+%d overlapping) ", mx, l, extra[i])}, labels...)
		}
		for _, label := range labels {
			if n := len([]rune(label)); x1-x0-1 >= n {
				c.Text(x0+1+(x1-x0-1-n)/2, 2, label, widget.StFrame)
				break
			}
		}
	}
}

// separateWindows keeps the windows that overlap none kept before them;
// extra counts, by index in drawn, the windows folded into each one, which
// its label then mentions.
func separateWindows(windows [][2]int64) (drawn [][2]int64, extra map[int]int) {
	extra = map[int]int{}
	for _, win := range windows {
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
	return drawn, extra
}

// drawQueueLinks draws on the upstream row the line from each queued
// request's arrival to its departure. It runs before drawMarkers so the
// markers sit on top of the links.
func drawQueueLinks(c *widget.Canvas, res lab.Result, ax Axis, acols []int) {
	for i, r := range res.Requests {
		if i >= len(acols) || !Queued(r) {
			continue
		}
		a := ax.rawCol(r.ArrivalMS)
		if acols[i] >= 0 {
			a = acols[i]
		}
		for x := max(a+1, 0); x < ax.rawCol(*r.SentMS) && x < ax.Cols; x++ {
			if g := c.Get(x, 1); g == ' ' || g == widget.GlyphBoundary {
				c.Set(x, 1, widget.GlyphLink, widget.StQueued)
			}
		}
	}
	// Where a queued request arrived (╰) comes before what upstream
	// received, so a departure sharing a column with a later arrival stays.
	for i, r := range res.Requests {
		if i >= len(acols) || !Queued(r) {
			continue
		}
		if d := sentCol(r, i, ax, acols); d > acols[i] || (d < 0 && *r.SentMS >= ax.T1) {
			c.Set(acols[i], 1, widget.GlyphLinkStart, widget.StQueued)
		}
	}
}

// drawMarkers puts each request's label on the arrivals row and, on the
// upstream row, what became of it: sent, rejected, or queued and sent
// later.
func drawMarkers(c *widget.Canvas, res lab.Result, ax Axis, acols []int) {
	for i, r := range res.Requests {
		if i >= len(acols) {
			break
		}
		a := acols[i] // -1 when off the plot: c.set ignores it
		st := widget.StAllowed
		switch {
		case !r.Allowed:
			st = widget.StRejected
			// In a crowded column what upstream received wins: a later
			// rejection must not hide a request that went through.
			if g := c.Get(a, 1); g == ' ' || g == widget.GlyphBoundary || g == widget.GlyphLink || g == widget.GlyphRejected {
				c.Set(a, 1, widget.GlyphRejected, st)
			}
		case Queued(r):
			// A departure carries the request's label: in a dense queue
			// each waiting line ends at a number, so whose departure is
			// whose stays readable.
			st = widget.StQueued
			if d := sentCol(r, i, ax, acols); d > a {
				c.Set(d, 1, widget.Marker(r.Index), st)
			} else if *r.SentMS < ax.T1 {
				c.Set(a, 1, widget.GlyphQueued, st) // departs within the same column
			}
		default:
			c.Set(a, 1, widget.GlyphSent, st)
		}
		c.Set(a, 0, widget.Marker(r.Index), st)
	}
}

// drawCursor makes the cursor's request stand out (reverse video; ▼ marks
// it for NO_COLOR), on both its arrival and where upstream received it.
func drawCursor(c *widget.Canvas, tr Track, ax Axis, acols []int) {
	res := tr.Res
	k := tr.Cursor
	if k < 0 || k >= len(res.Requests) || k >= len(acols) || acols[k] < 0 {
		return
	}
	r, a := res.Requests[k], acols[k]
	c.Set(a, 0, widget.Marker(r.Index), widget.StCursor)
	if d := sentCol(r, k, ax, acols); d > a {
		c.Style(d, 1, widget.StCursor)
	} else {
		c.Style(a, 1, widget.StCursor)
	}
}

// Queued reports whether r was allowed and sent later than it arrived.
func Queued(r lab.Request) bool {
	return r.Allowed && r.SentMS != nil && *r.SentMS != r.ArrivalMS
}

// sentCol is the column where upstream received request i (its marker's
// column, or its departure's for a queued one), or -1: rejected, or sent
// off the plot.
func sentCol(r lab.Request, i int, ax Axis, acols []int) int {
	switch {
	case !r.Allowed || r.SentMS == nil || i >= len(acols):
		return -1
	case Queued(r):
		if ax.in(*r.SentMS) {
			return max(ax.Col(*r.SentMS), acols[i])
		}
		return -1
	}
	return acols[i]
}

// AxisRow labels the time axis at a step that leaves room for the numbers.
func AxisRow(th *widget.Theme, ax Axis, w int64) string {
	c := widget.NewCanvas(ax.Cols, 1)
	span := ax.T1 - ax.T0
	widest := len(strconv.FormatInt(ax.T1, 10)) + 2
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
		return s > 0 && span/s > 0 && float64(ax.Cols)*float64(s)/float64(span) >= float64(widest)
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
	for t := FloorDiv(ax.T0+step-1, step) * step; step > 0 && t < ax.T1; t += step {
		x := ax.Col(t)
		label := strconv.FormatInt(t, 10)
		if x+len(label) <= ax.Cols {
			c.Set(x, 0, '╵', widget.StDim)
			c.Text(x+1, 0, label, widget.StDim)
		}
	}
	return th.Paint(widget.StDim, "ms  ") + c.Row(th, 0)
}
