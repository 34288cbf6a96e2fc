package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/labflag"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
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

// simAccept says what each of sim's flags takes, in the words its range errors use.
var simAccept = labflag.Accept(map[string]string{
	"arrivals-file": "a file (- for stdin) of arrivals one per line or comma-separated, " +
		"integer ms from 0 to 1e12 in non-decreasing order, each line optionally followed by a space and its cost",
	"traffic": "poisson:RATE:DURATION, steady:RATE:DURATION or bursts:SIZE:EVERY:DURATION " +
		"(RATE per second; EVERY and DURATION in ms or with a unit, e.g. poisson:100:60s)",
	"seed": "an integer from 0 to 2^64-1",
})

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
		c.value("arrivals", simAccept["arrivals"], func(s string) (err error) { a.arrivals, err = text.ParseInts(s); return err })
	}
	c.value("window", simAccept["window"], func(s string) (err error) { a.p.WindowMS, err = strconv.ParseInt(s, 10, 64); return err })
	c.integer("limit", simAccept["limit"], &a.p.Limit)
	c.integer("capacity", simAccept["capacity"], &a.p.Capacity)
	c.value("rate", simAccept["rate"], func(s string) (err error) { a.p.RatePerS, err = strconv.ParseFloat(s, 64); return err })
	c.integer("subwindows", simAccept["subwindows"], &a.p.SubWindows)
	if sim {
		c.value("costs", simAccept["costs"], func(s string) error {
			v, err := text.ParseInts(s)
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

// simFail prints the one stderr line for bad input and returns exit code 2.
// The lab names the algorithm "algo"; in a scenario it is --left or --right.
func simFail(stderr io.Writer, cmd string, err error, algoFlag string) int {
	var pe *core.ParamError
	if errors.As(err, &pe) && pe.Param == "algo" && algoFlag != "" {
		pe.Param = algoFlag
	}
	return badInput(stderr, cmd, err)
}

// runSim is the headless chapter 05 lab (CONTRACT-CLI.md §4).
func runSim(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("sim", args)
	if isHelp(err) {
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
			strings.Join(labflag.ScenarioNames(), ", ")), "")
	case !a.set("algo"):
		return simFail(stderr, "sim", errors.New("missing --algo (or --scenario): accepted "+
			strings.Join(lab.AlgorithmNames(), ", ")), "")
	case a.source() == "":
		return simFail(stderr, "sim", errors.New("missing --arrivals (or --arrivals-file, --traffic): accepted "+
			simAccept["arrivals"]), "")
	}
	lines, err := a.loadArrivals()
	var algo lab.Algorithm
	if err == nil {
		algo, err = labflag.ParseAlgo(a.algo, a.p)
	}
	if err == nil {
		err = checkFileCosts(a, lines, algo)
	}
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	res, err := lab.Run(algo, a.p, a.arrivals, a.costs)
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
	sc, lines, err := a.pickScenario()
	if err != nil {
		return simFail(stderr, "sim", err, "")
	}
	a.p = a.budgetOver(sc.Params)
	left, right, side, err := a.runSides(sc, lines)
	if err != nil {
		return simFail(stderr, "sim", err, side)
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

// pickScenario is the named scenario, or "custom" built from the arrivals given
// (with the lines of the arrivals file, for its errors), checked against
// the flags it cannot be combined with.
func (a *simArgs) pickScenario() (lab.Scenario, []int, error) {
	sc, ok := lab.ScenarioByName(a.scenario)
	switch {
	case a.scenario == "custom":
		if a.source() == "" {
			return sc, nil, errors.New("--scenario custom needs --arrivals (or --arrivals-file, --traffic): accepted " + simAccept["arrivals"])
		}
	case !ok:
		return sc, nil, core.BadParam("scenario", strconv.Quote(a.scenario), strings.Join(labflag.ScenarioNames(), ", "))
	case a.source() != "":
		return sc, nil, fmt.Errorf("--%s cannot change --scenario %s: accepted --scenario custom with --%s",
			a.source(), a.scenario, a.source())
	}
	if a.set("algo") {
		return sc, nil, errors.New("--algo cannot be combined with --scenario: accepted --left ALGO --right ALGO")
	}
	if a.scenario != "custom" {
		return sc, nil, nil
	}
	lines, err := a.loadArrivals()
	if err != nil {
		return sc, nil, err
	}
	return lab.Scenario{Name: "custom", Title: "your own arrivals", Arrivals: a.arrivals,
		Params: lab.DefaultParams(), Left: lab.FixedWindow, Right: lab.SlidingLog}, lines, nil
}

// budgetOver is the scenario's budget p with each budget flag given on the
// command line on top.
func (a simArgs) budgetOver(p lab.Params) lab.Params {
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
	return p
}

// runSides runs the scenario's two algorithms (or --left and --right) on its
// arrivals, and names the side an error belongs to. The errors come in the
// order a run meets them: the arrivals file's costs for each side whose
// name parsed, then the left side (its name, then its run), then the right.
func (a simArgs) runSides(sc lab.Scenario, lines []int) (left, right lab.Result, side string, err error) {
	var leftErr, rightErr error
	if a.set("left") {
		sc.Left, leftErr = labflag.ParseAlgo(a.left, a.p)
	}
	if a.set("right") {
		sc.Right, rightErr = labflag.ParseAlgo(a.right, a.p)
	}
	if leftErr == nil {
		if err := checkFileCosts(a, lines, sc.Left); err != nil {
			return left, right, "left", err
		}
	}
	if rightErr == nil {
		if err := checkFileCosts(a, lines, sc.Right); err != nil {
			return left, right, "right", err
		}
	}
	if leftErr != nil {
		return left, right, "left", leftErr
	}
	if left, err = lab.Run(sc.Left, a.p, sc.Arrivals, a.costs); err != nil {
		return left, right, "left", err
	}
	if rightErr != nil {
		return left, right, "right", rightErr
	}
	right, err = lab.Run(sc.Right, a.p, sc.Arrivals, a.costs)
	return left, right, "right", err
}
