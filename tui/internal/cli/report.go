package cli

import (
	"fmt"
	"io"
	"strconv"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-2] + ".."
}

// sentText is "A <sent>" or "R", padded to width (at least 7).
func sentText(q lab.Request, width int) string {
	if q.SentMS == nil {
		return fmt.Sprintf("%-*s", width, "R")
	}
	return fmt.Sprintf("A %-*d", width-2, *q.SentMS)
}

// sentWidth is the width sentText needs for every request of the results.
func sentWidth(results ...lab.Result) int {
	w := 7
	for _, r := range results {
		for _, q := range r.Requests {
			if q.SentMS != nil {
				w = max(w, 2+digits(*q.SentMS))
			}
		}
	}
	return w
}

func digits(v int64) int { return len(strconv.FormatInt(v, 10)) }

// column is the width a right-aligned number column needs: its header or
// its widest value.
func column(header string, values ...int64) int {
	w := len(header)
	for _, v := range values {
		w = max(w, digits(v))
	}
	return w
}

func writeMetrics(w io.Writer, results ...lab.Result) {
	fmt.Fprintf(w, "%-24s", "")
	for _, r := range results {
		fmt.Fprintf(w, "%20s", r.Algorithm)
	}
	fmt.Fprintln(w)
	line := func(name string, f func(lab.Result) string) {
		fmt.Fprintf(w, "%-24s", name)
		for _, r := range results {
			fmt.Fprintf(w, "%20s", f(r))
		}
		fmt.Fprintln(w)
	}
	itoa := strconv.Itoa
	line("allowed", func(r lab.Result) string { return itoa(r.Metrics.Allowed) })
	line("rejected", func(r lab.Result) string { return itoa(r.Metrics.Rejected) })
	line("max upstream in any W", func(r lab.Result) string { return itoa(r.Metrics.MaxInWindow) })
	line("  first such W", func(r lab.Result) string {
		if len(r.MaxWindows) == 0 {
			return "-"
		}
		if win := fmt.Sprintf("[%d,%d)", r.MaxWindows[0][0], r.MaxWindows[0][1]); len(win) < 20 {
			return win
		}
		return fmt.Sprintf("from %d", r.MaxWindows[0][0])
	})
	line("overshoot (over L)", func(r lab.Result) string { return itoa(r.Metrics.Overshoot) })
	line("longest wait (ms)", func(r lab.Result) string { return strconv.FormatInt(r.Metrics.MaxWaitMS, 10) })
	line("state values (peak)", func(r lab.Result) string { return itoa(r.Metrics.StateValues) })
}

func writeSimRun(w io.Writer, r lab.Result) {
	writeWrapped(w, string(r.Algorithm)+", "+paramsLine(r.Params))
	fmt.Fprintln(w)
	writeTimeline(w, r.Params, r)
	fmt.Fprintln(w)
	// The columns widen for large numbers; the state takes the rest of 80.
	var idx, arr, cost, wait []int64
	for _, q := range r.Requests {
		idx, arr, cost = append(idx, int64(q.Index)), append(arr, q.ArrivalMS), append(cost, int64(q.Cost))
		if q.WaitMS != nil {
			wait = append(wait, *q.WaitMS)
		}
	}
	iw, aw, cw, ww := max(3, column("#", idx...)), column("arrival", arr...), column("cost", cost...), column(" wait", wait...)
	sw := sentWidth(r)
	stateW := 80 - (iw + 1 + aw + 1 + cw + 2 + sw + 1 + ww + 2)
	fmt.Fprintf(w, "%*s %*s %*s  %-*s %*s  %s\n", iw, "#", aw, "arrival", cw, "cost", sw, "sent", ww, "wait", "state after")
	words := r.Explanations()
	for i, q := range r.Requests {
		wait := ""
		if q.WaitMS != nil {
			wait = strconv.FormatInt(*q.WaitMS, 10)
		}
		fmt.Fprintf(w, "%*d %*d %*d  %s %*s  %s\n", iw, q.Index, aw, q.ArrivalMS, cw, q.Cost,
			sentText(q, sw), ww, wait, clip(words[i].State, stateW))
		fmt.Fprintf(w, "%16s%s\n", "", clip(words[i].Why, 64))
	}
	fmt.Fprintln(w)
	writeMetrics(w, r)
}

func writeSimScenario(w io.Writer, sc lab.Scenario, left, right lab.Result) {
	title := sc.Name
	if sc.Example != "" {
		title += " (" + sc.Example + ")"
	}
	writeWrapped(w, title+": "+sc.Title)
	writeWrapped(w, paramsLine(left.Params))
	fmt.Fprintln(w)
	writeTimeline(w, left.Params, left, right)
	fmt.Fprintln(w)
	// The left column takes what it needs, up to 35 columns and leaving the
	// right one at least half of what is left of 80.
	var arr []int64
	for _, q := range left.Requests {
		arr = append(arr, q.ArrivalMS)
	}
	aw, sw := column("arrival", arr...), sentWidth(left, right)
	room := 80 - aw - 6
	lw, rw := left.Explanations(), right.Explanations()
	need := func(r lab.Result, words []lab.Explanation) int {
		n := len(r.Algorithm)
		for _, ex := range words {
			n = max(n, sw+1+len(ex.State))
		}
		return n
	}
	leftW := min(need(left, lw), 35, room-min(need(right, rw), room/2))
	rightW := room - leftW
	fmt.Fprintf(w, "%*s | %-*s | %s\n", aw, "arrival", leftW, clip(string(left.Algorithm), leftW), clip(string(right.Algorithm), rightW))
	for i, q := range left.Requests {
		r := right.Requests[i]
		fmt.Fprintf(w, "%*d | %s %-*s | %s %s\n", aw, q.ArrivalMS,
			sentText(q, sw), leftW-sw-1, clip(lw[i].State, leftW-sw-1), sentText(r, sw), clip(rw[i].State, rightW-sw-1))
	}
	fmt.Fprintln(w, "A sent-at: allowed and sent upstream then; R: rejected; state after the request")
	fmt.Fprintln(w)
	writeMetrics(w, left, right)
	if lesson := sc.LessonFor(left.Algorithm, right.Algorithm, left.Params); lesson != "" {
		fmt.Fprintln(w)
		for _, l := range text.Wrap(lesson, 78) {
			fmt.Fprintln(w, l)
		}
	}
}

// writeWrapped prints a heading, wrapped at 80 columns.
func writeWrapped(w io.Writer, s string) {
	for _, l := range text.Wrap(s, 80) {
		fmt.Fprintln(w, l)
	}
}
