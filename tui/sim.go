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

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
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

const (
	simFlags   = "--algo --arrivals --window --limit --capacity --rate --subwindows --costs --json --scenario --left --right"
	worstFlags = "--algo --window --limit --capacity --rate --subwindows --json"
)

// simAccept says what each flag takes, for parse errors (the lab's own
// validation words the range errors).
var simAccept = map[string]string{
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
	p                     lab.Params
	set                   map[string]bool // flags given on the command line
	algo, scenario        string
	left, right           string
	arrivals              []int64
	costs                 []int
	asJSON                bool
	arrivalsRaw, costsRaw string
}

// parseSimFlags reads the flags named in allowed. Every failure is an error
// whose text is the whole stderr line after the command name.
func parseSimFlags(name string, args []string, allowed string) (simArgs, error) {
	a := simArgs{p: lab.DefaultParams(), set: map[string]bool{}}
	var bad error // the first malformed value, kept with our own wording
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	has := func(f string) bool { return strings.Contains(" "+allowed+" ", " --"+f+" ") }
	value := func(f string, parse func(string) error) {
		if !has(f) {
			return
		}
		fs.Func(f, "", func(s string) error {
			if err := parse(strings.TrimSpace(s)); err != nil {
				if bad == nil {
					bad = framing.BadParam(f, strconv.Quote(s), simAccept[f])
				}
				return bad
			}
			return nil
		})
	}
	intInto := func(dst *int) func(string) error {
		return func(s string) (err error) { *dst, err = strconv.Atoi(s); return err }
	}
	value("window", func(s string) (err error) { a.p.WindowMS, err = strconv.ParseInt(s, 10, 64); return err })
	value("limit", intInto(&a.p.Limit))
	value("capacity", intInto(&a.p.Capacity))
	value("subwindows", intInto(&a.p.SubWindows))
	value("rate", func(s string) (err error) { a.p.RatePerS, err = strconv.ParseFloat(s, 64); return err })
	value("arrivals", func(s string) (err error) { a.arrivalsRaw = s; a.arrivals, err = parseInts64(s); return err })
	value("costs", func(s string) (err error) {
		a.costsRaw = s
		v, err := parseInts64(s)
		for _, c := range v {
			a.costs = append(a.costs, int(max(math.MinInt32, min(c, math.MaxInt32))))
		}
		return err
	})
	for _, f := range []struct {
		name string
		dst  *string
	}{{"algo", &a.algo}, {"scenario", &a.scenario}, {"left", &a.left}, {"right", &a.right}} {
		if has(f.name) {
			fs.StringVar(f.dst, f.name, "", "")
		}
	}
	fs.BoolVar(&a.asJSON, "json", false, "")
	if err := fs.Parse(args); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return a, err
		case bad != nil:
			return a, bad
		case strings.HasPrefix(err.Error(), "flag provided but not defined: "):
			f := strings.TrimLeft(strings.TrimPrefix(err.Error(), "flag provided but not defined: "), "-")
			return a, fmt.Errorf("unknown flag --%s: accepted %s", f, allowed)
		default:
			return a, fmt.Errorf("%v: accepted %s", err, allowed)
		}
	}
	if fs.NArg() > 0 {
		return a, fmt.Errorf("unexpected argument %q: accepted %s", fs.Arg(0), allowed)
	}
	fs.Visit(func(f *flag.Flag) { a.set[f.Name] = true })
	return a, nil
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
// A *framing.ParamError names its flag; left and right rename "algo".
func simFail(stderr io.Writer, cmd string, err error, algoFlag string) int {
	var pe *framing.ParamError
	if errors.As(err, &pe) {
		f := pe.Param
		if f == "algo" && algoFlag != "" {
			f = algoFlag
		}
		fmt.Fprintf(stderr, "%s: invalid --%s %s: accepted %s\n", cmd, f, pe.Value, pe.Accept)
	} else {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	}
	return 2
}

// simScenarioJSON is the SPEC §4 shape of `sim --scenario --json`.
type simScenarioJSON struct {
	Scenario string     `json:"scenario"`
	Left     lab.Result `json:"left"`
	Right    lab.Result `json:"right"`
}

// runSim is the headless chapter 05 lab (SPEC §4).
func runSim(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("sim", args, simFlags)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, simUsage)
		return 0
	}
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	if a.set["scenario"] {
		return runScenario(a, stdout, stderr)
	}
	switch {
	case a.set["left"] || a.set["right"]:
		return simFail(stderr, "sim", errors.New("--left and --right need --scenario: accepted "+
			strings.Join(scenarioNames(), ", ")), "")
	case !a.set["algo"]:
		return simFail(stderr, "sim", errors.New("missing --algo (or --scenario): accepted "+
			strings.Join(lab.Algorithms, ", ")), "")
	case !a.set["arrivals"]:
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
		if !a.set["arrivals"] {
			return simFail(stderr, "sim", errors.New("--scenario custom needs --arrivals: accepted "+simAccept["arrivals"]), "")
		}
		sc = lab.Scenario{Name: "custom", Title: "your own arrivals", Arrivals: a.arrivals,
			Params: lab.DefaultParams(), Left: "fixed-window", Right: "sliding-log"}
	case !ok:
		return simFail(stderr, "sim", framing.BadParam("scenario", strconv.Quote(a.scenario),
			strings.Join(scenarioNames(), ", ")), "")
	case a.set["arrivals"]:
		return simFail(stderr, "sim", fmt.Errorf("--arrivals cannot change --scenario %s: accepted --scenario custom --arrivals ...", a.scenario), "")
	}
	if a.set["algo"] {
		return simFail(stderr, "sim", errors.New("--algo cannot be combined with --scenario: accepted --left ALGO --right ALGO"), "")
	}
	// The scenario's budget, with any flag given on the command line on top.
	p := sc.Params
	if a.set["window"] {
		p.WindowMS = a.p.WindowMS
	}
	if a.set["limit"] {
		p.Limit = a.p.Limit
	}
	if a.set["capacity"] {
		p.Capacity = a.p.Capacity
	}
	if a.set["rate"] {
		p.RatePerS = a.p.RatePerS
	}
	if a.set["subwindows"] {
		p.SubWindows = a.p.SubWindows
	}
	if a.set["left"] {
		sc.Left = a.left
	}
	if a.set["right"] {
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
	a, err := parseSimFlags("worst", args, worstFlags)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, worstUsage)
		return 0
	}
	if err != nil {
		return simFail(stderr, "worst", err, "")
	}
	if !a.set["algo"] {
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
			var pe *framing.ParamError
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
	lab := []byte(strings.Repeat(" ", tl.cols+8))
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
		if c >= free {
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
			fmt.Fprintf(w, "%-*s%s\n", simLabelWidth, fmt.Sprintf("  busiest W: %d", r.Metrics.MaxInWindow),
				tl.frame(r.MaxWindows[0]))
		}
	}
	fmt.Fprintln(w, "digits: requests sent upstream in that column, x: rejected, [==): the busiest W")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-2] + ".."
}

func sentText(q lab.Request) string {
	if q.SentMS == nil {
		return "R      "
	}
	return fmt.Sprintf("A %-5d", *q.SentMS)
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
		return fmt.Sprintf("[%d,%d)", r.MaxWindows[0][0], r.MaxWindows[0][1])
	})
	line("overshoot (over L)", func(r lab.Result) string { return itoa(r.Metrics.Overshoot) })
	line("longest wait (ms)", func(r lab.Result) string { return strconv.FormatInt(r.Metrics.MaxWaitMS, 10) })
	line("state values (peak)", func(r lab.Result) string { return itoa(r.Metrics.StateValues) })
}

func writeSimRun(w io.Writer, r lab.Result) {
	fmt.Fprintf(w, "%s, %s\n\n", r.Algorithm, paramsLine(r.Params))
	writeTimeline(w, r.Params, r)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%3s %7s %4s  %-7s %5s  %s\n", "#", "arrival", "cost", "sent", "wait", "state after")
	for _, q := range r.Requests {
		wait := ""
		if q.WaitMS != nil {
			wait = strconv.FormatInt(*q.WaitMS, 10)
		}
		fmt.Fprintf(w, "%3d %7d %4d  %s %5s  %s\n", q.Index, q.ArrivalMS, q.Cost, sentText(q), wait, clip(q.State, 48))
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
	fmt.Fprintf(w, "%s: %s\n%s\n\n", title, sc.Title, paramsLine(left.Params))
	writeTimeline(w, left.Params, left, right)
	fmt.Fprintln(w)
	// The left column takes what it needs, the right one the rest of 80.
	leftW := len(left.Algorithm)
	for _, q := range left.Requests {
		leftW = max(leftW, 8+len(q.State))
	}
	leftW = min(leftW, 35)
	rightW := 80 - 7 - 3 - leftW - 3
	fmt.Fprintf(w, "%7s | %-*s | %s\n", "arrival", leftW, clip(left.Algorithm, leftW), clip(right.Algorithm, rightW))
	for i, q := range left.Requests {
		r := right.Requests[i]
		fmt.Fprintf(w, "%7d | %s %-*s | %s %s\n", q.ArrivalMS,
			sentText(q), leftW-8, clip(q.State, leftW-8), sentText(r), clip(r.State, rightW-8))
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
	fmt.Fprintf(w, "worst case found for %s, %s\n", r.Algorithm, paramsLine(r.Params))
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
	fmt.Fprintf(w, "worst cases found, %s\n\n", paramsLine(p))
	fmt.Fprintf(w, "%-17s %5s  %-13s %s\n", "algorithm", "found", "in W", "textbook")
	for _, r := range found {
		fmt.Fprintf(w, "%-17s %5d  %-13s %s\n", r.Algorithm, r.MaxInWindow,
			fmt.Sprintf("[%d,%d)", r.Window[0], r.Window[1]), clip(r.Bound, 42))
		fmt.Fprintf(w, "%-17s %s\n", "", clip("arrivals "+arrivalsText(r.Arrivals), 62))
	}
}
