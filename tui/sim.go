package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
)

const simUsage = `usage: tui sim --algo ALGO --arrivals 820,880,... [--window 1000] [--limit 3]
               [--capacity 3] [--rate 2] [--subwindows 1] [--costs 1,5,...] [--json]
       tui sim --scenario NAME [--left ALGO] [--right ALGO] [same budget flags] [--json]

Replays arrivals (integer ms, non-decreasing) through one algorithm, or a
prepared scenario through two side by side, and measures what went upstream:
the most requests sent inside any window [s, s+W).

algorithms: fixed-window fixed-window-ttl sliding-log sliding-counter
            token-bucket gcra leaky-queue
scenarios:  cross-boundary-spike prev-crowded-end prev-crowded-start
            instant-burst custom (custom takes --arrivals)
`

const worstUsage = `usage: tui worst --algo ALGO|all [--window 1000] [--limit 3] [--capacity 3]
                 [--rate 2] [--subwindows 1] [--json]

Searches arrival sequences for the one that gets the most requests upstream
inside one window of width W, and compares it with the textbook bound.
`

// simAccept says what each flag takes, for parse errors (the lab's own
// validation words the range errors).
var simAccept = map[string]string{
	"algo":       "one of " + strings.Join(lab.Algorithms, ", "),
	"scenario":   "one of " + strings.Join(scenarioNames(), ", "),
	"window":     "an integer number of ms > 0 (at most 1e12)",
	"limit":      "an integer >= 1",
	"capacity":   "an integer >= 1",
	"rate":       "a finite number > 0 (requests per second)",
	"subwindows": "an integer >= 1",
	"arrivals":   "integers from 0 to 1e12 in non-decreasing order (ms), comma-separated",
	"costs":      "comma-separated integers, one per arrival",
}

// simArgs is what the sim and worst flags hold after parsing.
type simArgs struct {
	p              lab.Params
	flags          *cliFlags
	algo, scenario string
	left, right    string
	arrivals       []int64
	costs          []int
	asJSON         bool
}

func (a simArgs) set(name string) bool { return a.flags.isSet(name) }

// parseSimFlags reads the sim flags, or with worst only the budget, --algo
// and --json. Every failure is an error whose text is the whole stderr line
// after the command name.
func parseSimFlags(cmd string, args []string) (simArgs, error) {
	a := simArgs{p: lab.DefaultParams(), flags: newCLIFlags(cmd)}
	c := a.flags
	sim := cmd == "sim"
	algoAccept := simAccept["algo"]
	if !sim {
		algoAccept = "all, or " + algoAccept
	}
	c.str("algo", algoAccept, &a.algo)
	if sim {
		c.value("arrivals", simAccept["arrivals"], func(s string) (err error) { a.arrivals, err = parseInts64(s); return err })
	}
	c.value("window", simAccept["window"], func(s string) (err error) { a.p.WindowMS, err = strconv.ParseInt(s, 10, 64); return err })
	c.integer("limit", simAccept["limit"], &a.p.Limit)
	c.integer("capacity", simAccept["capacity"], &a.p.Capacity)
	c.value("rate", simAccept["rate"], func(s string) (err error) { a.p.RatePerS, err = strconv.ParseFloat(s, 64); return err })
	c.integer("subwindows", simAccept["subwindows"], &a.p.SubWindows)
	if sim {
		c.value("costs", simAccept["costs"], func(s string) error {
			v, err := parseInts64(s)
			for _, x := range v {
				if int64(int(x)) != x {
					return strconv.ErrRange // only where int is 32 bits
				}
				a.costs = append(a.costs, int(x))
			}
			return err
		})
	}
	c.boolean("json", &a.asJSON)
	if sim {
		c.str("scenario", simAccept["scenario"], &a.scenario)
		c.str("left", simAccept["algo"], &a.left)
		c.str("right", simAccept["algo"], &a.right)
	}
	return a, c.parse(args)
}

// parseInts64 reads "820,880,940". Empty items are an error.
func parseInts64(s string) ([]int64, error) {
	if s == "" {
		return nil, errors.New("empty list")
	}
	parts := strings.Split(s, ",")
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// simFail prints the one stderr line for bad input and returns exit code 2.
// The lab names the algorithm "algo"; in a scenario it is --left or --right.
func simFail(stderr io.Writer, cmd string, err error, algoFlag string) int {
	var pe *core.ParamError
	if errors.As(err, &pe) && pe.Param == "algo" && algoFlag != "" {
		pe.Param = algoFlag
	}
	return badInput(stderr, cmd, err)
}

// simScenarioJSON is the CONTRACT.md §4 shape of `sim --scenario --json`.
type simScenarioJSON struct {
	Scenario string     `json:"scenario"`
	Left     lab.Result `json:"left"`
	Right    lab.Result `json:"right"`
}

// runSim is the headless chapter 05 lab (CONTRACT.md §4).
func runSim(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("sim", args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, simUsage)
		return 0
	}
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	if a.set("scenario") {
		return runScenario(a, stdout, stderr)
	}
	switch {
	case a.set("left") || a.set("right"):
		return simFail(stderr, "sim", errors.New("--left and --right need --scenario: accepted "+
			strings.Join(scenarioNames(), ", ")), "")
	case !a.set("algo"):
		return simFail(stderr, "sim", errors.New("missing --algo (or --scenario): accepted "+
			strings.Join(lab.Algorithms, ", ")), "")
	case !a.set("arrivals"):
		return simFail(stderr, "sim", errors.New("missing --arrivals: accepted "+simAccept["arrivals"]), "")
	}
	res, err := lab.Run(a.algo, a.p, a.arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	if a.asJSON {
		out, _ := json.Marshal(res)
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	writeSimRun(stdout, res)
	return 0
}

func scenarioNames() []string { return append(lab.ScenarioNames(), "custom") }

func runScenario(a simArgs, stdout, stderr io.Writer) int {
	sc, ok := lab.ScenarioByName(a.scenario)
	switch {
	case a.scenario == "custom":
		if !a.set("arrivals") {
			return simFail(stderr, "sim", errors.New("--scenario custom needs --arrivals: accepted "+simAccept["arrivals"]), "")
		}
		sc = lab.Scenario{Name: "custom", Title: "your own arrivals", Arrivals: a.arrivals,
			Params: lab.DefaultParams(), Left: "fixed-window", Right: "sliding-log"}
	case !ok:
		return simFail(stderr, "sim", core.BadParam("scenario", strconv.Quote(a.scenario),
			strings.Join(scenarioNames(), ", ")), "")
	case a.set("arrivals"):
		return simFail(stderr, "sim", fmt.Errorf("--arrivals cannot change --scenario %s: accepted --scenario custom --arrivals ...", a.scenario), "")
	}
	if a.set("algo") {
		return simFail(stderr, "sim", errors.New("--algo cannot be combined with --scenario: accepted --left ALGO --right ALGO"), "")
	}
	// The scenario's budget, with any flag given on the command line on top.
	p := sc.Params
	if a.set("window") {
		p.WindowMS = a.p.WindowMS
	}
	if a.set("limit") {
		p.Limit = a.p.Limit
	}
	if a.set("capacity") {
		p.Capacity = a.p.Capacity
	}
	if a.set("rate") {
		p.RatePerS = a.p.RatePerS
	}
	if a.set("subwindows") {
		p.SubWindows = a.p.SubWindows
	}
	if a.set("left") {
		sc.Left = a.left
	}
	if a.set("right") {
		sc.Right = a.right
	}
	left, err := lab.Run(sc.Left, p, sc.Arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "left")
	}
	right, err := lab.Run(sc.Right, p, sc.Arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "right")
	}
	if a.asJSON {
		out, _ := json.Marshal(simScenarioJSON{Scenario: sc.Name, Left: left, Right: right})
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	writeSimScenario(stdout, sc, left, right)
	return 0
}

// runWorst is the headless worst-case search.
func runWorst(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("worst", args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, worstUsage)
		return 0
	}
	if err != nil {
		return simFail(stderr, "worst", err, "")
	}
	if !a.set("algo") {
		return simFail(stderr, "worst", errors.New("missing --algo: accepted all, "+strings.Join(lab.Algorithms, ", ")), "")
	}
	algos := []string{a.algo}
	if a.algo == "all" {
		algos = lab.Algorithms
	}
	var found []lab.WorstResult
	for _, algo := range algos {
		w, err := lab.Worst(algo, a.p)
		if err != nil {
			var pe *core.ParamError
			if errors.As(err, &pe) && pe.Param == "algo" {
				pe.Accept = "all, " + pe.Accept
			}
			return simFail(stderr, "worst", err, "")
		}
		found = append(found, w)
	}
	if a.asJSON {
		var out []byte
		if a.algo == "all" {
			out, _ = json.Marshal(found)
		} else {
			out, _ = json.Marshal(found[0])
		}
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	if a.algo == "all" {
		writeWorstTable(stdout, a.p, found)
	} else {
		writeWorst(stdout, found[0])
	}
	return 0
}

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
	writeWrapped(w, r.Algorithm+", "+paramsLine(r.Params))
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
	for _, q := range r.Requests {
		wait := ""
		if q.WaitMS != nil {
			wait = strconv.FormatInt(*q.WaitMS, 10)
		}
		fmt.Fprintf(w, "%*d %*d %*d  %s %*s  %s\n", iw, q.Index, aw, q.ArrivalMS, cw, q.Cost,
			sentText(q, sw), ww, wait, clip(q.State, stateW))
		fmt.Fprintf(w, "%16s%s\n", "", clip(q.Why, 64))
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
	need := func(r lab.Result) int {
		n := len(r.Algorithm)
		for _, q := range r.Requests {
			n = max(n, sw+1+len(q.State))
		}
		return n
	}
	leftW := min(need(left), 35, room-min(need(right), room/2))
	rightW := room - leftW
	fmt.Fprintf(w, "%*s | %-*s | %s\n", aw, "arrival", leftW, clip(left.Algorithm, leftW), clip(right.Algorithm, rightW))
	for i, q := range left.Requests {
		r := right.Requests[i]
		fmt.Fprintf(w, "%*d | %s %-*s | %s %s\n", aw, q.ArrivalMS,
			sentText(q, sw), leftW-sw-1, clip(q.State, leftW-sw-1), sentText(r, sw), clip(r.State, rightW-sw-1))
	}
	fmt.Fprintln(w, "A sent-at: allowed and sent upstream then; R: rejected; state after the request")
	fmt.Fprintln(w)
	writeMetrics(w, left, right)
	if sc.Lesson != "" {
		fmt.Fprintln(w)
		for _, l := range wrapWords(sc.Lesson, 78) {
			fmt.Fprintln(w, l)
		}
	}
}

// writeWrapped prints a heading, wrapped at 80 columns.
func writeWrapped(w io.Writer, s string) {
	for _, l := range wrapWords(s, 80) {
		fmt.Fprintln(w, l)
	}
}

func wrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur != "" && len(cur)+1+len(word) > width {
			lines = append(lines, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += word
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func arrivalsText(ts []int64) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = strconv.FormatInt(t, 10)
	}
	return strings.Join(s, " ")
}

func writeWorst(w io.Writer, r lab.WorstResult) {
	writeWrapped(w, "worst case found for "+r.Algorithm+", "+paramsLine(r.Params))
	fmt.Fprintf(w, "found: %d upstream in [%d,%d), overshoot %d over L\n",
		r.MaxInWindow, r.Window[0], r.Window[1], r.Overshoot)
	fmt.Fprintf(w, "textbook worst case: %s\n", r.Bound)
	for _, l := range wrapWords("arrivals: "+arrivalsText(r.Arrivals), 78) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	writeTimeline(w, r.Params, r.Run)
}

func writeWorstTable(w io.Writer, p lab.Params, found []lab.WorstResult) {
	writeWrapped(w, "worst cases found, "+paramsLine(p))
	fmt.Fprintln(w)
	win := func(r lab.WorstResult) string { return fmt.Sprintf("[%d,%d)", r.Window[0], r.Window[1]) }
	ww := 13
	for _, r := range found {
		ww = max(ww, len(win(r)))
	}
	fmt.Fprintf(w, "%-17s %5s  %-*s %s\n", "algorithm", "found", ww, "in W", "textbook")
	for _, r := range found {
		fmt.Fprintf(w, "%-17s %5d  %-*s %s\n", r.Algorithm, r.MaxInWindow, ww, win(r), clip(r.Bound, 80-26-ww))
		fmt.Fprintf(w, "%-17s %s\n", "", clip("arrivals "+arrivalsText(r.Arrivals), 62))
	}
}
