package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// ---- text output for people, at most 80 columns ----

const (
	simLabelWidth = 17 // the row names of the timeline
	simCols       = 60 // the timeline's width in columns
)

func paramsLine(p lab.Params) string {
	return fmt.Sprintf("W %d ms, L %d, C %d, R %s/s, N %d", p.WindowMS, p.Limit, p.Capacity,
		strconv.FormatFloat(p.RatePerS, 'g', -1, 64), p.SubWindows)
}

// simScale picks a round number of ms per column (1, 2, 2.5 or 5 times a
// power of ten) so that [t0, t1] fits the timeline.
func simScale(t0, t1 int64) int64 {
	need := (t1 - t0 + simCols) / simCols
	if need <= 1 {
		return 1
	}
	for m := int64(1); ; m *= 10 {
		for _, f := range []int64{10, 20, 25, 50} {
			if s := f * m / 10; s >= need && s > 0 {
				return s
			}
		}
	}
}

type timeline struct {
	t0, scale, window int64
	cols              int
}

func newTimeline(window int64, results ...lab.Result) timeline {
	t0, t1 := int64(math.MaxInt64), int64(0)
	for _, r := range results {
		for _, q := range r.Requests {
			t0, t1 = min(t0, q.ArrivalMS), max(t1, q.ArrivalMS)
			if q.SentMS != nil {
				t1 = max(t1, *q.SentMS)
			}
		}
		if len(r.MaxWindows) > 0 { // frame the busiest W whole
			t1 = max(t1, r.MaxWindows[0][1]-1)
		}
	}
	if t0 > t1 {
		t0, t1 = 0, 0
	}
	scale := simScale(t0, t1)
	// Aligning t0 to the scale can push t1 one column past the edge; then
	// take the next round scale.
	for (t1-t0/scale*scale)/scale >= simCols {
		scale = simScale(0, scale*simCols)
	}
	t0 = t0 / scale * scale
	cols := int((t1-t0)/scale) + 1
	// Show a little of the window after the last request when there is room.
	cols = min(simCols, cols+2)
	return timeline{t0: t0, scale: scale, window: window, cols: cols}
}

func (tl timeline) col(t int64) int { return int((t - tl.t0) / tl.scale) }

// boundary reports whether column c holds a window boundary kW. When a
// column is wider than W every column would, so none is marked.
func (tl timeline) boundary(c int) bool {
	if tl.scale >= tl.window {
		return false
	}
	lo := tl.t0 + int64(c)*tl.scale
	hi := lo + tl.scale
	k := (lo + tl.window - 1) / tl.window * tl.window
	return k < hi
}

func (tl timeline) axis() (labels, ticks string) {
	lab := []byte(strings.Repeat(" ", 80-simLabelWidth))
	tick := []byte(strings.Repeat(" ", tl.cols))
	first := tl.cols // column of the first boundary label
	free := 0
	for c := range tl.cols {
		if !tl.boundary(c) {
			continue
		}
		tick[c] = '|'
		lo := tl.t0 + int64(c)*tl.scale
		s := strconv.FormatInt((lo+tl.window-1)/tl.window*tl.window, 10)
		if c >= free && c+len(s) <= len(lab) { // a cut label would show a wrong time
			copy(lab[c:], s)
			free = c + len(s) + 1
			first = min(first, c)
		}
	}
	// The start time too, when it fits before the first boundary label.
	if s := strconv.FormatInt(tl.t0, 10); first > len(s) {
		copy(lab, s)
	}
	return strings.TrimRight(string(lab), " "), strings.TrimRight(string(tick), " ")
}

// row draws one sequence: a digit per column for requests (sent, or
// arriving), x where only rejected requests arrived, ':' on a window
// boundary and '.' elsewhere.
func (tl timeline) row(times []int64, rejected []int64) string {
	n := make([]int, tl.cols)
	x := make([]bool, tl.cols)
	for _, t := range times {
		if c := tl.col(t); c >= 0 && c < tl.cols {
			n[c]++
		}
	}
	for _, t := range rejected {
		if c := tl.col(t); c >= 0 && c < tl.cols {
			x[c] = true
		}
	}
	var b strings.Builder
	for c := range tl.cols {
		switch {
		case n[c] > 9:
			b.WriteByte('+')
		case n[c] > 0:
			b.WriteByte(byte('0' + n[c]))
		case x[c]:
			b.WriteByte('x')
		case tl.boundary(c):
			b.WriteByte(':')
		default:
			b.WriteByte('.')
		}
	}
	return b.String()
}

// frame draws the busiest window [s, s+W) under a row.
func (tl timeline) frame(w [2]int64) string {
	a, z := tl.col(w[0]), tl.col(w[1]-1)
	if a >= tl.cols {
		return ""
	}
	b := []byte(strings.Repeat(" ", tl.cols))
	for c := a; c <= z && c < tl.cols; c++ {
		b[c] = '='
	}
	b[a] = '['
	switch {
	case z == a: // the whole W fits in one column
	case z < tl.cols:
		b[z] = ')'
	default:
		b[tl.cols-1] = '>'
	}
	return strings.TrimRight(string(b), " ")
}

func sentAndRejected(r lab.Result) (sent, rejected []int64) {
	for _, q := range r.Requests {
		if q.SentMS != nil {
			sent = append(sent, *q.SentMS)
		} else {
			rejected = append(rejected, q.ArrivalMS)
		}
	}
	return sent, rejected
}

func writeTimeline(w io.Writer, p lab.Params, results ...lab.Result) {
	tl := newTimeline(p.WindowMS, results...)
	labels, ticks := tl.axis()
	fmt.Fprintf(w, "timeline, one column = %d ms (| marks a window boundary)\n", tl.scale)
	fmt.Fprintf(w, "%-*s%s\n", simLabelWidth, "ms", labels)
	fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-*s%s", simLabelWidth, "", ticks), " "))
	var arrivals []int64
	for _, q := range results[0].Requests {
		arrivals = append(arrivals, q.ArrivalMS)
	}
	fmt.Fprintf(w, "%-*s%s\n", simLabelWidth, "arrivals", tl.row(arrivals, nil))
	for _, r := range results {
		sent, rejected := sentAndRejected(r)
		fmt.Fprintf(w, "%-*s%s\n", simLabelWidth, r.Algorithm, tl.row(sent, rejected))
		if len(r.MaxWindows) > 0 {
			fmt.Fprintf(w, "%-*s%s\n", simLabelWidth, busiestLabel(r.Metrics.MaxInWindow), tl.frame(r.MaxWindows[0]))
		}
	}
	fmt.Fprintln(w, "digits: requests sent upstream in that column, x: rejected, [==): the busiest W")
}

// busiestLabel names the frame row in the label column, leaving at least
// one space before the frame however large the count.
func busiestLabel(n int) string {
	for _, f := range []string{"  busiest W: %d", "busiest W: %d", "busiest: %d"} {
		if l := fmt.Sprintf(f, n); len(l) < simLabelWidth {
			return l
		}
	}
	return fmt.Sprint(n)
}
