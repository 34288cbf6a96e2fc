package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
)

const simUsage = `usage: tui sim --algo ALGO --arrivals 820,880,... [--window 1000] [--limit 3]
               [--capacity 3] [--rate 2] [--subwindows 1] [--costs 1,5,...]
               [--json [--explain]]
       tui sim --algo ALGO --arrivals-file PATH|- [same flags]
       tui sim --algo ALGO --traffic SHAPE [--seed 1] [same flags]
       tui sim --scenario NAME [--left ALGO] [--right ALGO] [same budget flags] [--json]

Replays arrivals (integer ms, non-decreasing) through one algorithm, or a
prepared scenario through two side by side, and measures what went upstream:
the most requests sent inside any window [s, s+W).

--arrivals-file reads the arrivals from a file (- for stdin): one per line or
  comma-separated, each line optionally followed by a space and its cost.
--traffic generates them: poisson:RATE:DURATION, steady:RATE:DURATION or
  bursts:SIZE:EVERY:DURATION (RATE per second; EVERY, the mean gap between
  bursts, and DURATION in ms or with a unit: poisson:1000:1000s is a million).
--json prints the numbers only; --explain adds each request's state and why.

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
	"arrivals-file": "a file (- for stdin) of arrivals one per line or comma-separated, " +
		"integer ms from 0 to 1e12 in non-decreasing order, each line optionally followed by a space and its cost",
	"traffic": "poisson:RATE:DURATION, steady:RATE:DURATION or bursts:SIZE:EVERY:DURATION " +
		"(RATE per second; EVERY and DURATION in ms or with a unit, e.g. poisson:100:60s)",
	"seed": "an integer from 0 to 2^64-1",
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
	explain        bool
	file, traffic  string // --arrivals-file and --traffic, read by loadArrivals
	seed           uint64
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
		c.str("arrivals-file", simAccept["arrivals-file"], &a.file)
		c.str("traffic", simAccept["traffic"], &a.traffic)
		a.seed = 1
		c.value("seed", simAccept["seed"], func(s string) (err error) { a.seed, err = strconv.ParseUint(s, 10, 64); return err })
		c.boolean("explain", &a.explain)
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

// runSim is the headless chapter 05 lab (CONTRACT.md §4).
func runSim(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("sim", args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, simUsage)
		return 0
	}
	if err == nil {
		err = a.checkCombinations()
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
	case a.source() == "":
		return simFail(stderr, "sim", errors.New("missing --arrivals (or --arrivals-file, --traffic): accepted "+
			simAccept["arrivals"]), "")
	}
	lines, err := a.loadArrivals()
	if err == nil {
		err = checkFileCosts(a, lines, a.algo)
	}
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	res, err := lab.Run(a.algo, a.p, a.arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	if a.asJSON {
		_ = res.WriteJSON(out, a.explain)
		out.WriteByte('\n')
		return 0
	}
	writeSimRun(out, res)
	return 0
}

func scenarioNames() []string { return append(lab.ScenarioNames(), "custom") }

// source is the flag that gives the arrivals, "" if none does.
func (a simArgs) source() string {
	for _, f := range []string{"arrivals", "arrivals-file", "traffic"} {
		if a.set(f) {
			return f
		}
	}
	return ""
}

// checkCombinations refuses flags that cannot go together: two sources of
// arrivals, --seed without generated traffic, --explain without --json.
func (a simArgs) checkCombinations() error {
	var given []string
	for _, f := range []string{"arrivals", "arrivals-file", "traffic"} {
		if a.set(f) {
			given = append(given, "--"+f)
		}
	}
	switch {
	case len(given) > 1:
		return fmt.Errorf("%s cannot be combined with %s: accepted one of --arrivals, --arrivals-file, --traffic",
			given[0], given[1])
	case a.set("seed") && !strings.HasPrefix(a.traffic, "poisson:") && !strings.HasPrefix(a.traffic, "bursts:"):
		return errors.New("--seed needs --traffic poisson:... or bursts:...: accepted --traffic poisson:RATE:DURATION --seed N")
	case a.explain && !a.asJSON:
		return errors.New("--explain needs --json (the text output explains every request anyway): accepted --json --explain")
	}
	return nil
}

func runScenario(a simArgs, stdout, stderr io.Writer) int {
	sc, ok := lab.ScenarioByName(a.scenario)
	switch {
	case a.scenario == "custom":
		if a.source() == "" {
			return simFail(stderr, "sim", errors.New("--scenario custom needs --arrivals (or --arrivals-file, --traffic): accepted "+simAccept["arrivals"]), "")
		}
	case !ok:
		return simFail(stderr, "sim", core.BadParam("scenario", strconv.Quote(a.scenario),
			strings.Join(scenarioNames(), ", ")), "")
	case a.source() != "":
		return simFail(stderr, "sim", fmt.Errorf("--%s cannot change --scenario %s: accepted --scenario custom --%s ...",
			a.source(), a.scenario, a.source()), "")
	}
	if a.set("algo") {
		return simFail(stderr, "sim", errors.New("--algo cannot be combined with --scenario: accepted --left ALGO --right ALGO"), "")
	}
	var lines []int
	if a.scenario == "custom" {
		var err error
		if lines, err = a.loadArrivals(); err != nil {
			return simFail(stderr, "sim", err, "")
		}
		sc = lab.Scenario{Name: "custom", Title: "your own arrivals", Arrivals: a.arrivals,
			Params: lab.DefaultParams(), Left: "fixed-window", Right: "sliding-log"}
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
	a.p = p
	if err := checkFileCosts(a, lines, sc.Left); err != nil {
		return simFail(stderr, "sim", err, "left")
	}
	if err := checkFileCosts(a, lines, sc.Right); err != nil {
		return simFail(stderr, "sim", err, "right")
	}
	left, err := lab.Run(sc.Left, p, sc.Arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "left")
	}
	right, err := lab.Run(sc.Right, p, sc.Arrivals, a.costs)
	if err != nil {
		return simFail(stderr, "sim", err, "right")
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	if a.asJSON {
		name, _ := json.Marshal(sc.Name)
		fmt.Fprintf(out, `{"scenario":%s,"left":`, name)
		_ = left.WriteJSON(out, a.explain)
		out.WriteString(`,"right":`)
		_ = right.WriteJSON(out, a.explain)
		out.WriteString("}\n")
		return 0
	}
	writeSimScenario(out, sc, left, right)
	return 0
}

// ---- arrivals from a file or a generator ----

// simStdin is what --arrivals-file - reads; tests replace it.
var simStdin io.Reader = os.Stdin

// maxFileBytes bounds what --arrivals-file reads: a million arrivals with
// costs take about 15 MB.
const maxFileBytes = 1 << 30

// loadArrivals fills a.arrivals (and a.costs from a file's cost column) from
// --arrivals-file or --traffic; --arrivals was parsed with the flags. With a
// cost column it returns each request's line number, for messages.
func (a *simArgs) loadArrivals() (lines []int, err error) {
	switch a.source() {
	case "arrivals-file":
		var costs []int
		a.arrivals, costs, lines, err = readArrivalsFile(a.file)
		if err == nil && costs != nil {
			if a.set("costs") {
				return nil, fmt.Errorf("--costs cannot be combined with the cost column of --arrivals-file %s: accepted one of them", a.file)
			}
			a.costs = costs
		}
		return lines, err
	case "traffic":
		a.arrivals, err = generateTraffic(a.traffic, a.seed)
	}
	return nil, err
}

// readArrivalsFile reads arrivals, one per line or comma-separated, each
// line optionally followed by whitespace and its cost (then every line
// has one). Blank lines and lines starting with # are skipped. A mistake
// is a *core.ParamError naming the line, the value and, if the line holds
// more, an excerpt of it.
func readArrivalsFile(path string) (arrivals []int64, costs []int, lines []int, err error) {
	name, r := fileName(path), simStdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, nil, core.BadParam("arrivals-file", strconv.Quote(path), "a readable file, or - for stdin ("+
				strings.TrimPrefix(err.Error(), "open "+path+": ")+")")
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, nil, nil, core.BadParam("arrivals-file", name, "a readable file, or - for stdin ("+err.Error()+")")
	}
	if len(data) > maxFileBytes {
		return nil, nil, nil, core.BadParam("arrivals-file", name, "a file of at most 1 GiB")
	}
	bad := func(line int, what, text, token string) error {
		if t := strings.TrimSpace(text); t != token {
			what += " in " + strconv.Quote(around(t, token))
		}
		return fileError(name, line, what, simAccept["arrivals-file"])
	}
	withCost, costLine := false, 0
	var prev int64
	for n, line := 1, ""; len(data) > 0; n++ {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = string(data[:i]), data[i+1:]
		} else {
			line, data = string(data), nil
		}
		text := strings.TrimSpace(line)
		if text == "" || text[0] == '#' {
			continue
		}
		items := []string{text}
		if strings.Contains(text, ",") {
			items = strings.Split(text, ",")
		}
		for _, item := range items {
			fields := strings.Fields(item)
			switch {
			case len(fields) == 0:
				return nil, nil, nil, bad(n, "an empty item", text, "")
			case len(fields) > 2 || len(fields) == 2 && len(items) > 1:
				return nil, nil, nil, bad(n, quoteClip(strings.TrimSpace(item))+" is more than an arrival and a cost", text, strings.TrimSpace(item))
			}
			t, err := strconv.ParseInt(fields[0], 10, 64)
			switch {
			case err != nil:
				return nil, nil, nil, bad(n, quoteClip(fields[0])+" is not an integer", text, fields[0])
			case t < 0 || t > 1_000_000_000_000:
				return nil, nil, nil, bad(n, fields[0]+" is outside 0 to 1e12", text, fields[0])
			case len(arrivals) > 0 && t < prev:
				return nil, nil, nil, bad(n, fmt.Sprintf("%d after %d", t, prev), text, fields[0])
			case len(arrivals) == lab.MaxArrivals:
				return nil, nil, nil, bad(n, "more than 1e7 arrivals", text, text)
			}
			if len(arrivals) == 0 {
				withCost, costLine = len(fields) == 2, n
			}
			if withCost != (len(fields) == 2) {
				what := fmt.Sprintf("a cost, but line %d has none", costLine)
				if withCost {
					what = fmt.Sprintf("no cost, but line %d has one (every line or none)", costLine)
				}
				return nil, nil, nil, bad(n, what, text, text)
			}
			if withCost {
				c, err := strconv.Atoi(fields[1])
				if err != nil || c < 1 {
					return nil, nil, nil, bad(n, "cost "+quoteClip(fields[1])+" is not an integer >= 1", text, fields[1])
				}
				costs, lines = append(costs, c), append(lines, n)
			}
			arrivals, prev = append(arrivals, t), t
		}
	}
	if len(arrivals) == 0 {
		return nil, nil, nil, fmt.Errorf("invalid --arrivals-file %s (no arrivals): accepted %s", printablePath(name), simAccept["arrivals-file"])
	}
	return arrivals, costs, lines, nil
}

// fileError is the one line for a mistake on a line of an arrivals file,
// worded as a *core.ParamError is but holding more than one value: the file,
// the line and what is wrong there.
func fileError(name string, line int, what, accept string) error {
	return fmt.Errorf("invalid --arrivals-file %s line %d: %s: accepted %s", printablePath(name), line, what, accept)
}

// printablePath is a file name for an error line: as it is, or quoted and
// cut to 40 bytes if it is long or holds what a terminal would not print.
func printablePath(name string) string {
	if q := strconv.Quote(name); q != `"`+name+`"` || strings.Contains(name, " ") || len(name) > 40 {
		return quoteClip(name)
	}
	return name
}

// fileName names a file in messages: stdin for -.
func fileName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// around is at most 40 bytes of text around token.
func around(text, token string) string {
	const most = 40
	if len(text) <= most {
		return text
	}
	i := max(0, strings.Index(text, token))
	from := max(0, min(i-most/2+len(token)/2, len(text)-most+4))
	out := text[from:min(len(text), from+most-4)]
	if from > 0 {
		out = ".." + out
	} else {
		out += ".."
	}
	if from > 0 && from+most-4 < len(text) {
		out += ".."
	}
	return out
}

// quoteClip quotes a token of a file, cut to 40 bytes.
func quoteClip(s string) string {
	if len(s) > 40 {
		s = s[:38] + ".."
	}
	return strconv.Quote(s)
}

// checkFileCosts checks a file's cost column against algo's largest cost,
// naming the line (costs from --costs are the lab's to check).
func checkFileCosts(a simArgs, lines []int, algo string) error {
	if lines == nil {
		return nil
	}
	most, name, err := lab.MaxCost(algo, a.p)
	if err != nil {
		return nil // lab.Run reports it
	}
	for i, c := range a.costs {
		if c > most {
			return fileError(fileName(a.file), lines[i], fmt.Sprintf("cost %d", c),
				fmt.Sprintf("costs from 1 to %s (%d) for %s", name, most, algo))
		}
	}
	return nil
}

// generateTraffic reads a --traffic shape and generates it (chapter 05's
// generators).
func generateTraffic(spec string, seed uint64) ([]int64, error) {
	bad := core.BadParam("traffic", strconv.Quote(spec), simAccept["traffic"])
	parts := strings.Split(spec, ":")
	num := func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	switch {
	case (parts[0] == "poisson" || parts[0] == "steady") && len(parts) == 3:
		rate, ok1 := num(parts[1])
		d, ok2 := msOf(parts[2])
		if !ok1 || !ok2 {
			return nil, bad
		}
		if parts[0] == "steady" {
			return lab.SteadyArrivals(rate, wholeMS(d))
		}
		return lab.PoissonArrivals(rate, wholeMS(d), seed)
	case parts[0] == "bursts" && len(parts) == 4:
		size, err := strconv.Atoi(parts[1])
		every, ok1 := msOf(parts[2])
		d, ok2 := msOf(parts[3])
		if err != nil || !ok1 || !ok2 {
			return nil, bad
		}
		return lab.BurstArrivals(size, every, wholeMS(d), seed)
	}
	return nil, bad
}

// wholeMS floors a duration in ms, any beyond the lab's range kept beyond it
// so that the generator names the range.
func wholeMS(d float64) int64 { return int64(max(-1, min(d, 2e12))) }

// msOf reads a time span: a number of ms ("1500", "0.5") or a Go duration
// ("60s", "2h").
func msOf(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	d, err := time.ParseDuration(s)
	return float64(d) / 1e6, err == nil
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
	fmt.Fprintf(w, "%*s | %-*s | %s\n", aw, "arrival", leftW, clip(left.Algorithm, leftW), clip(right.Algorithm, rightW))
	for i, q := range left.Requests {
		r := right.Requests[i]
		fmt.Fprintf(w, "%*d | %s %-*s | %s %s\n", aw, q.ArrivalMS,
			sentText(q, sw), leftW-sw-1, clip(lw[i].State, leftW-sw-1), sentText(r, sw), clip(rw[i].State, rightW-sw-1))
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
