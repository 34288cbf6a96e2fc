// Package timeline draws chapter 05's runs on one time axis: the lab's two
// tracks, the worst-case screen's run, and the axis under them.
package timeline

import (
	"math"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// Gutter is the width of the row names ("arr " / "up  ") before the plot.
const Gutter = 4

// Axis maps ms to plot columns over whole windows covering every arrival
// and every send time.
type Axis struct {
	T0, T1 int64
	Cols   int
}

// FloorDiv is a / b rounded toward minus infinity (Go's / rounds toward
// zero), so a negative time falls in the window before 0. b must not be 0.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// NewAxis is the axis for windows of w ms (1000 if w <= 0) over the
// arrivals and the send times in res, cols columns wide. At zoom > 0 each
// step halves the span, centred on the arrival at index cursor, down to
// about one ms per column.
func NewAxis(w int64, arrivals []int64, res []lab.Result, zoom, cursor, cols int) Axis {
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
	ax := Axis{T0: FloorDiv(lo, w) * w, Cols: max(cols, 1)}
	ax.T1 = (FloorDiv(hi, w) + 1) * w
	// Zoom: halve the span per step around the cursor, down to about one
	// ms per column.
	if zoom > 0 && cursor >= 0 && cursor < len(arrivals) {
		span := max((ax.T1-ax.T0)>>min(zoom, 62), int64(ax.Cols))
		if span < ax.T1-ax.T0 {
			t0 := arrivals[cursor] - span/2
			t0 = min(max(t0, ax.T0), ax.T1-span)
			ax.T0, ax.T1 = t0, t0+span
		}
	}
	return ax
}

// rawCol is t's column, possibly outside [0, cols) when zoomed in. Float
// arithmetic: ms up to 1e12 times a few hundred columns must not overflow.
func (a Axis) rawCol(t int64) int {
	c := math.Floor((float64(t) - float64(a.T0)) * float64(a.Cols) / float64(a.T1-a.T0))
	return int(max(min(c, float64(a.Cols+1)), -2))
}

// Col is t's column clamped to the plot.
func (a Axis) Col(t int64) int { return min(max(a.rawCol(t), 0), a.Cols-1) }

// in reports whether t is on the plot.
func (a Axis) in(t int64) bool { return t >= a.T0 && t < a.T1 }

// ArrivalCols places the markers (-1: off the plot). Requests that land in
// the same column are nudged right by up to 6 columns so each stays visible,
// but never onto or past the next window boundary (multiples of W): there
// the cluster is pushed left instead, so no request appears to sit in a
// window it did not arrive in. shift is the most any marker moved: the
// title then says the row no longer matches the axis exactly.
func ArrivalCols(ax Axis, arrivals []int64, w int64) (cols []int, shift int) {
	cols = make([]int, len(arrivals))
	prev := -1
	for i, t := range arrivals {
		if !ax.in(t) {
			cols[i] = -1
			continue
		}
		c := ax.Col(t)
		if c <= prev && prev+1 <= c+6 && prev+1 < ax.Cols {
			c = prev + 1
		}
		if w > 0 {
			next := (FloorDiv(t, w) + 1) * w
			if limit := ax.rawCol(next); next < ax.T1 && c >= limit && ax.Col(t) < limit {
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
		if w > 0 && i > 0 && prev == c-1 && arrivals[i-1] < FloorDiv(t, w)*w &&
			c == ax.Col(FloorDiv(t, w)*w) && c+1 < ax.Cols {
			c++
		}
		cols[i] = c
		prev = c
	}
	for i, c := range cols {
		if c >= 0 {
			d := c - ax.Col(arrivals[i])
			shift = max(shift, d, -d)
		}
	}
	return cols, shift
}

// boundaries are the window boundaries on the plot: where the windows the
// engine counted the requests in begin and end (Result.Boundaries: none for
// the log and the buckets), or none when they are denser than the columns.
func boundaries(r lab.Result, ax Axis) []int64 {
	var out []int64
	for _, b := range r.Boundaries {
		if ax.in(b) {
			out = append(out, b)
		}
	}
	if len(out) > ax.Cols/2 {
		return nil // denser than the columns: nothing useful to draw
	}
	return out
}
