package main

import (
	"fmt"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// worstView renders the worst-case search screen at w×h.
func worstView(m worstModel, w, h int, th theme) string {
	p := m.params
	title := line{{"05 · Worst case", stTitle},
		{fmt.Sprintf("   budget W %d  L %d  C %d  R %g  N %d", p.WindowMS, p.Limit, p.Capacity, p.RatePerS, p.SubWindows), stDim}}
	title = titleBar(title, w)
	body := []line{title}
	for _, l := range uiWrap("The search tries arrival sequences (bursts either side of a window boundary, "+
		"uneven splits, then a seeded local search) and keeps the one that gets the most requests "+
		"upstream inside one window W.", w) {
		body = append(body, sty(stDim, l))
	}
	body = append(body, txt(""), sty(stLabel, fmt.Sprintf("  %-18s %10s %5s  %s", "algorithm", "worst in W", "over", "textbook bound")))
	for i, a := range lab.Algorithms {
		ptr, st := "  ", stNone
		if i == m.sel {
			ptr, st = string(glyphPointer)+" ", stSelected
		}
		key := worstKey(a, p)
		found, bound, over := "·", "", ""
		switch e, ok := m.results[key]; {
		case m.running[key]:
			found = "searching…"
		case ok && e.err != "":
			found = "error"
		case ok:
			found, bound, over = fmt.Sprint(e.res.MaxInWindow), e.res.Bound, fmt.Sprint(e.res.Overshoot)
		}
		body = append(body, line{{uiFit(fmt.Sprintf("%s%-18s %10s %5s  %s", ptr, a, found, over, bound), w), st}})
	}
	body = append(body, txt(""))

	e, ok := m.current()
	switch {
	case !ok:
		body = append(body, sty(stDim, fmt.Sprintf("searching for the worst case of %s …", m.algo())))
	case e.err != "":
		for _, l := range uiWrap(e.err, w) {
			body = append(body, sty(stError, l))
		}
	default:
		r := e.res
		body = append(body, line{{r.Algorithm + ": ", stLabel},
			{fmt.Sprintf("%d requests upstream in [%d, %d), overshoot %d", r.MaxInWindow, r.Window[0], r.Window[1], r.Overshoot), stNone}})
		body = append(body, cutLine(line{{"arrivals ", stDim}, {uiEllipsis(joinInts(r.Arrivals), w-9), stNone}}, w))
		// The found run drawn as a lab track.
		lm := labModel{algo: [2]string{r.Algorithm, r.Algorithm}, params: r.Params, arrivals: r.Arrivals, player: player{cursor: -1}}
		lm.res[0] = r.Run
		cols := w - labGutter
		ax := newTimeAxis(lm, cols)
		body = append(body, trackRows(lm, 0, ax, arrivalCols(ax, r.Arrivals, r.Params.WindowMS))...)
		body = append(body, axisRow(ax, max(r.Params.WindowMS, 1)))
	}
	footer := []line{sty(stKey, "↑↓ algorithm  enter load into the lab  r search all  esc back  ? help")}
	return compose(body, footer, w, h, th)
}
