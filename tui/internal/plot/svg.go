// Package plot draws a chapter 05 lab run as an SVG timeline, for the
// figures a reader sees in the chapter READMEs without running anything:
// the arrivals (allowed as a filled dot, rejected as a cross, so that shape
// and not only colour tells them apart), the window boundaries the
// algorithm counts in, the busiest window of width W with how many requests
// went upstream inside it, and for the leaky queue when each admitted
// request left. One or two algorithms share one time axis.
//
// The output is deterministic: no timestamps, coordinates rounded to a tenth
// of a pixel and printed the same way on every machine, so a committed
// figure can be checked for staleness by regenerating it (TestFiguresAreFresh).
// Command is the `tui plot` subcommand.
package plot

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// Chart is what one figure shows: a title, a line under it, and the runs,
// all over the same arrivals.
type Chart struct {
	Title    string
	Subtitle string
	Runs     []lab.Result
}

// Geometry, in px.
const (
	width      = 960
	gutter     = 96 // row labels on the left
	rightPad   = 28
	headerH    = 64
	laneH      = 150 // a lane without a departures row
	departureH = 52  // the extra row of the queue
	axisH      = 44
	legendH    = 30
	markR      = 5  // a dot's radius, and half a cross
	stackGap   = 11 // marks closer than this stack upwards
	stackStep  = 12 // how far a stacked mark rises
	labelGap   = 34 // time labels closer than this are left out
	maxStack   = 7  // the highest a stack grows; further marks overlap
	xLeft      = gutter
	xRight     = width - rightPad
)

// Colours; the marks differ in shape as well.
const (
	colAllowed  = "#237a3b"
	colRejected = "#c0392b"
	colSent     = "#1f5fa8"
	colBoundary = "#8a8a8a"
	colOver     = "#b03a2e"
	colWithin   = "#1f5fa8"
	colText     = "#222222"
	colMuted    = "#666666"
)

// axis maps ms to x.
type axis struct{ t0, t1 float64 }

func (a axis) x(ms float64) float64 {
	return xLeft + (ms-a.t0)/(a.t1-a.t0)*(xRight-xLeft)
}

// newAxis spans everything the runs put on the page (arrivals, departures,
// boundaries, the busiest windows), with a margin of 4 % on each side.
func newAxis(runs []lab.Result) axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	see := func(v int64) { lo, hi = min(lo, float64(v)), max(hi, float64(v)) }
	for _, r := range runs {
		for _, q := range r.Requests {
			see(q.ArrivalMS)
			if q.SentMS != nil {
				see(*q.SentMS)
			}
		}
		for _, b := range r.Boundaries {
			see(b)
		}
		if len(r.MaxWindows) > 0 {
			see(r.MaxWindows[0][0])
			see(r.MaxWindows[0][1])
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1000
	}
	span := hi - lo
	if span == 0 {
		span = 1000
	}
	pad := span * 0.04
	return axis{lo - pad, hi + pad}
}

// svg accumulates the document.
type svg struct{ b bytes.Buffer }

func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func (s *svg) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func (s *svg) text(x, y float64, size int, anchor, fill, weight, txt string) {
	w := ""
	if weight != "" {
		w = ` font-weight="` + weight + `"`
	}
	s.printf(`<text x="%s" y="%s" font-size="%d" text-anchor="%s" fill="%s"%s>%s</text>`+"\n",
		num(x), num(y), size, anchor, fill, w, escaper.Replace(txt))
}

func (s *svg) line(x1, y1, x2, y2 float64, stroke string, w float64, dash string) {
	d := ""
	if dash != "" {
		d = ` stroke-dasharray="` + dash + `"`
	}
	s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`+"\n",
		num(x1), num(y1), num(x2), num(y2), stroke, num(w), d)
}

func (s *svg) dot(x, y float64, fill string) {
	s.printf(`<circle cx="%s" cy="%s" r="%d" fill="%s"/>`+"\n", num(x), num(y), markR, fill)
}

func (s *svg) cross(x, y float64, stroke string) {
	s.printf(`<path d="M%s %sL%s %sM%s %sL%s %s" stroke="%s" stroke-width="2.2" fill="none"/>`+"\n",
		num(x-markR), num(y-markR), num(x+markR), num(y+markR),
		num(x-markR), num(y+markR), num(x+markR), num(y-markR), stroke)
}

// hasDepartures reports whether a run holds requests back (the queue).
func hasDepartures(r lab.Result) bool {
	if r.Algorithm == lab.LeakyQueue {
		return true
	}
	for _, q := range r.Requests {
		if q.WaitMS != nil && *q.WaitMS > 0 {
			return true
		}
	}
	return false
}

// counterEstimates is, for the sliding counter, the estimate each request
// was decided on, as the lab's explanation prints it ("… est 2.40"); nil
// for the other algorithms and for runs too long to label.
func counterEstimates(r lab.Result) []string {
	if r.Algorithm != lab.SlidingCounter || len(r.Requests) > 64 {
		return nil
	}
	out := make([]string, len(r.Requests))
	for i, ex := range r.Explanations() {
		if _, est, ok := strings.Cut(ex.State, " est "); ok {
			out[i] = est
		}
	}
	return out
}

// stacker lifts marks that would sit on top of each other: a mark within
// stackGap px of the previous one goes one step higher.
type stacker struct {
	lastX float64
	level int
	seen  bool
}

func (st *stacker) lift(x float64) int {
	if st.seen && x-st.lastX < stackGap {
		st.level = min(st.level+1, maxStack)
	} else {
		st.level = 0
	}
	st.lastX, st.seen = x, true
	return st.level
}

// labeler leaves out a time label that would overlap the one before it.
type labeler struct {
	lastX float64
	seen  bool
}

func (l *labeler) ok(x float64) bool {
	if l.seen && x-l.lastX < labelGap {
		return false
	}
	l.lastX, l.seen = x, true
	return true
}

// Write draws c as an SVG document.
func Write(w io.Writer, c Chart) error {
	ax := newAxis(c.Runs)
	height := headerH
	for _, r := range c.Runs {
		height += laneH
		if hasDepartures(r) {
			height += departureH
		}
	}
	height += axisH + legendH
	var s svg
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n",
		width, height, width, height)
	s.printf(`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	s.text(16, 26, 16, "start", colText, "bold", c.Title)
	s.text(16, 46, 12, "start", colMuted, "", c.Subtitle)
	y := float64(headerH)
	for i, r := range c.Runs {
		y = lane(&s, ax, r, y, i > 0)
	}
	bottomAxis(&s, ax, y)
	legend(&s, y+axisH+14)
	s.printf("</svg>\n")
	_, err := w.Write(s.b.Bytes())
	return err
}

// lane draws one run from y and returns where the next starts: its title
// line, the window boundaries, the arrivals, the departures for the queue,
// and the busiest window under them.
func lane(s *svg, ax axis, r lab.Result, y float64, separator bool) float64 {
	h := float64(laneH)
	queue := hasDepartures(r)
	if queue {
		h += departureH
	}
	if separator {
		s.line(16, y, width-16, y, "#dddddd", 1, "")
	}
	laneTitle(s, r, y)
	laneBoundaries(s, ax, r, y+30, y+h-30)
	rowA := y + 78
	lifted := laneArrivals(s, ax, r, rowA)
	rowLast := rowA
	if queue {
		rowLast = rowA + float64(departureH)
		laneDepartures(s, ax, r, rowLast, lifted)
	}
	if len(r.MaxWindows) > 0 {
		busiestWindow(s, ax, r, rowLast+36)
	}
	return y + h
}

// laneTitle writes the algorithm's name and how many requests it allowed
// and rejected.
func laneTitle(s *svg, r lab.Result, y float64) {
	m := r.Metrics
	s.text(16, y+20, 13, "start", colText, "bold", string(r.Algorithm))
	summary := fmt.Sprintf("%d allowed, %d rejected", m.Allowed, m.Rejected)
	if counterEstimates(r) != nil {
		summary += "; beside each mark, the estimate it was decided on"
	}
	s.text(16+float64(7*len(r.Algorithm))+22, y+20, 12, "start", colMuted, "", summary)
}

// laneBoundaries draws the boundaries of the windows the run counts in,
// from top to bottom, each labelled with its time at the top.
func laneBoundaries(s *svg, ax axis, r lab.Result, top, bottom float64) {
	var bl labeler
	for _, b := range r.Boundaries {
		x := ax.x(float64(b))
		s.line(x, top, x, bottom, colBoundary, 1, "4 3")
		if bl.ok(x) {
			s.text(x+3, top+9, 10, "start", colBoundary, "", strconv.FormatInt(b, 10))
		}
	}
}

// laneArrivals draws each arrival on the row at rowA, a dot if allowed and
// a cross if rejected, and returns the height each mark was lifted to so
// the departures can link to it.
func laneArrivals(s *svg, ax axis, r lab.Result, rowA float64) []float64 {
	s.text(xLeft-10, rowA+4, 11, "end", colMuted, "", "arrivals")
	var st stacker
	var tl labeler
	lifted := make([]float64, len(r.Requests))
	estimates := counterEstimates(r)
	for i, q := range r.Requests {
		x := ax.x(float64(q.ArrivalMS))
		my := rowA - float64(st.lift(x)*stackStep)
		lifted[i] = my
		if q.Allowed {
			s.dot(x, my, colAllowed)
		} else {
			s.cross(x, my, colRejected)
		}
		if estimates != nil {
			s.text(x+markR+3, my+3.5, 9, "start", colMuted, "", estimates[i])
		}
		if tl.ok(x) {
			s.text(x, rowA+20, 10, "middle", colMuted, "", strconv.FormatInt(q.ArrivalMS, 10))
		}
	}
	return lifted
}

// laneDepartures draws, on the row at rowD, when each sent request left
// the queue, linked by a line to its arrival mark (lifted, by request).
func laneDepartures(s *svg, ax axis, r lab.Result, rowD float64, lifted []float64) {
	s.text(xLeft-10, rowD+4, 11, "end", colMuted, "", "upstream")
	var sd stacker
	var dl labeler
	for i, q := range r.Requests {
		if q.SentMS == nil {
			continue
		}
		xa, xs := ax.x(float64(q.ArrivalMS)), ax.x(float64(*q.SentMS))
		dy := rowD - float64(sd.lift(xs)*stackStep)
		s.line(xa, lifted[i]+markR+1, xs, dy-markR-1, "#9bb7d9", 1, "")
		s.printf(`<circle cx="%s" cy="%s" r="%d" fill="#ffffff" stroke="%s" stroke-width="2"/>`+"\n",
			num(xs), num(dy), markR, colSent)
		if dl.ok(xs) {
			s.text(xs, rowD+20, 10, "middle", colMuted, "", strconv.FormatInt(*q.SentMS, 10))
		}
	}
}

// busiestWindow draws the run's busiest window of width W as a bracket at
// yb, under the marks, with how many requests went upstream in it and
// whether that broke the limit.
func busiestWindow(s *svg, ax axis, r lab.Result, yb float64) {
	m := r.Metrics
	win := r.MaxWindows[0]
	x0, x1 := ax.x(float64(win[0])), ax.x(float64(win[1]))
	col := colWithin
	verdict := fmt.Sprintf("<= L = %d", r.Params.Limit)
	if m.MaxInWindow > r.Params.Limit {
		col = colOver
		verdict = fmt.Sprintf("> L = %d, overshoot %d", r.Params.Limit, m.Overshoot)
	}
	s.line(x0, yb, x1, yb, col, 2, "")
	s.line(x0, yb-7, x0, yb, col, 2, "")
	s.line(x1, yb-7, x1, yb, col, 2, "")
	label := fmt.Sprintf("busiest W: %d upstream in [%d, %d) %s", m.MaxInWindow, win[0], win[1], verdict)
	if more := len(r.MaxWindows) - 1; more > 0 {
		label += fmt.Sprintf(" (+%d more such W)", more)
	}
	anchor, lx := "middle", (x0+x1)/2
	switch {
	case lx < xLeft+180:
		anchor, lx = "start", x0
	case lx > xRight-180:
		anchor, lx = "end", x1
	}
	s.text(lx, yb+15, 11, anchor, col, "", label)
}

// bottomAxis draws the time axis in ms with round ticks.
func bottomAxis(s *svg, ax axis, y float64) {
	ay := y + 8
	s.line(xLeft, ay, xRight, ay, colText, 1, "")
	step := tickStep(ax.t1 - ax.t0)
	for t := math.Ceil(ax.t0/step) * step; t <= ax.t1; t += step {
		x := ax.x(t)
		s.line(x, ay, x, ay+5, colText, 1, "")
		s.text(x, ay+18, 10, "middle", colText, "", strconv.FormatFloat(t+0, 'f', -1, 64)) // +0: no "-0"
	}
	s.text(xRight, ay+32, 10, "end", colMuted, "", "time (ms); marks that would overlap are stacked")
}

// tickStep is 1, 2 or 5 times a power of ten, giving at most 10 ticks.
func tickStep(span float64) float64 {
	step := math.Pow(10, math.Floor(math.Log10(span/10)))
	for _, f := range []float64{1, 2, 5, 10} {
		if span/(step*f) <= 10 {
			return step * f
		}
	}
	return step * 10
}

func legend(s *svg, y float64) {
	x := float64(xLeft)
	s.dot(x, y-4, colAllowed)
	s.text(x+10, y, 11, "start", colText, "", "allowed")
	x += 80
	s.cross(x, y-4, colRejected)
	s.text(x+10, y, 11, "start", colText, "", "rejected")
	x += 86
	s.printf(`<circle cx="%s" cy="%s" r="%d" fill="#ffffff" stroke="%s" stroke-width="2"/>`+"\n", num(x), num(y-4), markR, colSent)
	s.text(x+10, y, 11, "start", colText, "", "sent upstream (queue)")
	x += 168
	s.line(x, y-11, x, y+2, colBoundary, 1, "4 3")
	s.text(x+8, y, 11, "start", colText, "", "window boundary")
	x += 128
	s.line(x, y-4, x+26, y-4, colOver, 2, "")
	s.line(x, y-10, x, y-4, colOver, 2, "")
	s.line(x+26, y-10, x+26, y-4, colOver, 2, "")
	s.text(x+34, y, 11, "start", colText, "", "busiest window of width W")
}
