package plot

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/labflag"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const usage = `usage: tui plot --algo ALGO --arrivals 820,880,... [--window 1000] [--limit 3]
                [--capacity 3] [--rate 2] [--subwindows 1] [--costs 1,5,...]
                [--title TEXT] [--out FILE]
       tui plot --scenario NAME [--left ALGO] [--right ALGO] [same flags]
       tui plot --scenario custom --arrivals 820,880,... [--left ALGO] [--right ALGO] [same flags]

Draws the run that tui sim prints as an SVG timeline: arrivals (a dot when
allowed, a cross when rejected), the window boundaries the algorithm counts
in, the busiest window of width W, and for the leaky queue when each request
went upstream. Writes to --out, or to stdout.
`

// accept says what each flag takes, in the words of tui sim.
var accept = labflag.Accept(map[string]string{
	"out":   "a file to write the SVG to",
	"title": "the text to print above the figure",
})

// args is a parsed command line.
type args struct {
	p                lab.Params
	algo, scenario   string
	left, right, out string
	title            string
	arrivals         []int64
	costs            []int
	set              map[string]bool
	flagList         string
}

// Command is `tui plot`: it parses args as tui sim does, runs the lab and
// writes the SVG to --out or stdout. Bad input prints one line naming the
// flag on stderr, nothing on stdout, and returns 2; a file that cannot be
// written returns 1.
func Command(argv []string, stdout, stderr io.Writer) int {
	a, err := parse(argv)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	var c Chart
	if err == nil {
		c, err = a.chart()
	}
	if err != nil {
		fmt.Fprintln(stderr, errorLine(err))
		return 2
	}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		fmt.Fprintln(stderr, "plot:", err)
		return 1
	}
	if a.out == "" {
		_, err = stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(a.out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "plot: cannot write the figure:", err)
		return 1
	}
	return 0
}

// errorLine is the one stderr line for bad input, worded as tui sim words it.
func errorLine(err error) string {
	var pe *core.ParamError
	if errors.As(err, &pe) {
		return fmt.Sprintf("plot: invalid --%s %s: accepted %s", pe.Param, pe.Value, pe.Accept)
	}
	return "plot: " + strings.ReplaceAll(err.Error(), "\n", `\n`)
}

func parse(argv []string) (args, error) {
	a := args{p: lab.DefaultParams(), set: map[string]bool{}}
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var bad error
	value := func(name string, set func(string) error) {
		fs.Func(name, accept[name], func(s string) error {
			if a.set[name] {
				bad = fmt.Errorf("--%s given twice: accepted once", name)
				return bad
			}
			a.set[name] = true
			if err := set(strings.TrimSpace(s)); err != nil {
				bad = core.BadParam(name, strconv.Quote(s), accept[name])
				return bad
			}
			return nil
		})
	}
	str := func(name string, dst *string) { value(name, func(s string) error { *dst = s; return nil }) }
	integer := func(name string, dst *int) {
		value(name, func(s string) (err error) { *dst, err = strconv.Atoi(s); return err })
	}
	str("algo", &a.algo)
	str("scenario", &a.scenario)
	str("left", &a.left)
	str("right", &a.right)
	str("out", &a.out)
	str("title", &a.title)
	value("arrivals", func(s string) (err error) { a.arrivals, err = text.ParseInts(s); return err })
	value("costs", func(s string) error {
		v, err := text.ParseInts(s)
		for _, x := range v {
			a.costs = append(a.costs, int(x))
		}
		return err
	})
	value("window", func(s string) (err error) { a.p.WindowMS, err = strconv.ParseInt(s, 10, 64); return err })
	integer("limit", &a.p.Limit)
	integer("capacity", &a.p.Capacity)
	value("rate", func(s string) (err error) { a.p.RatePerS, err = strconv.ParseFloat(s, 64); return err })
	integer("subwindows", &a.p.SubWindows)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
	a.flagList = strings.Join(names, " ")
	if err := fs.Parse(argv); err != nil {
		return a, flagError(err, bad, a.flagList)
	}
	if fs.NArg() > 0 {
		return a, fmt.Errorf("unexpected argument %s: accepted %s", strconv.Quote(fs.Arg(0)), a.flagList)
	}
	return a, nil
}

// flagError turns an error from the flag package into the message the
// command prints. Help passes through unchanged, and a value rejected by
// one of parse's setters (bad) wins over the flag package's wording.
func flagError(err, bad error, flagList string) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if bad != nil {
		return bad
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Errorf("unknown flag %s: accepted %s", strconv.Quote("--"+strings.TrimLeft(f, "-")), flagList)
	}
	if f, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		f = strings.TrimLeft(f, "-")
		return fmt.Errorf("--%s needs a value: accepted %s", f, accept[f])
	}
	return fmt.Errorf("%s: accepted %s", strconv.Quote(msg), flagList)
}

// chart runs the lab for a parsed command line, with the checks of tui sim.
func (a args) chart() (c Chart, err error) {
	defer func() {
		if err == nil && a.set["title"] {
			c.Title = a.title
		}
	}()
	if a.set["scenario"] {
		return a.scenarioChart()
	}
	switch {
	case a.set["left"] || a.set["right"]:
		return Chart{}, errors.New("--left and --right need --scenario: accepted " + strings.Join(labflag.ScenarioNames(), ", "))
	case !a.set["algo"]:
		return Chart{}, errors.New("missing --algo (or --scenario): accepted " + strings.Join(lab.AlgorithmNames(), ", "))
	case !a.set["arrivals"]:
		return Chart{}, errors.New("missing --arrivals: accepted " + accept["arrivals"])
	}
	algo, err := labflag.ParseAlgo(a.algo, a.p)
	if err != nil {
		return Chart{}, err
	}
	r, err := lab.Run(algo, a.p, a.arrivals, a.costs)
	if err != nil {
		return Chart{}, err
	}
	return Chart{Title: string(algo), Subtitle: subtitle(a.p, a.arrivals, r), Runs: []lab.Result{r}}, nil
}

func (a args) scenarioChart() (Chart, error) {
	sc, ok := lab.ScenarioByName(a.scenario)
	switch {
	case a.set["algo"]:
		return Chart{}, errors.New("--algo cannot be combined with --scenario: accepted --left ALGO --right ALGO")
	case a.scenario == "custom":
		if !a.set["arrivals"] {
			return Chart{}, errors.New("--scenario custom needs --arrivals: accepted " + accept["arrivals"])
		}
		sc = lab.Scenario{Name: "custom", Title: "your own arrivals", Arrivals: a.arrivals,
			Params: lab.DefaultParams(), Left: lab.FixedWindow, Right: lab.SlidingLog}
	case !ok:
		return Chart{}, core.BadParam("scenario", strconv.Quote(a.scenario), strings.Join(labflag.ScenarioNames(), ", "))
	case a.set["arrivals"]:
		return Chart{}, fmt.Errorf("--arrivals cannot change --scenario %s: accepted --scenario custom with --arrivals", a.scenario)
	}
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
	left, err := a.runSide("left", sc.Left, p, sc.Arrivals)
	if err != nil {
		return Chart{}, renamed(err, "left")
	}
	right, err := a.runSide("right", sc.Right, p, sc.Arrivals)
	if err != nil {
		return Chart{}, renamed(err, "right")
	}
	title := sc.Name
	if sc.Example != "" {
		title = sc.Example + " · " + sc.Name + ": " + sc.Title
	}
	return Chart{Title: title, Subtitle: subtitle(p, sc.Arrivals, left, right), Runs: []lab.Result{left, right}}, nil
}

// runSide runs one side of a scenario: the algorithm named by the flag side
// (--left or --right) if it was given, else the scenario's own.
func (a args) runSide(side string, algo lab.Algorithm, p lab.Params, arrivals []int64) (lab.Result, error) {
	if a.set[side] {
		name := a.left
		if side == "right" {
			name = a.right
		}
		var err error
		if algo, err = labflag.ParseAlgo(name, p); err != nil {
			return lab.Result{}, err
		}
	}
	return lab.Run(algo, p, arrivals, a.costs)
}

// renamed names --left or --right where the lab says "algo".
func renamed(err error, flagName string) error {
	var pe *core.ParamError
	if errors.As(err, &pe) && pe.Param == "algo" {
		pe.Param = flagName
	}
	return err
}

// subtitle states the budget the runs read and the arrivals.
func subtitle(p lab.Params, arrivals []int64, runs ...lab.Result) string {
	var windows, buckets, sub bool
	for _, r := range runs {
		switch r.Algorithm {
		case lab.TokenBucket, lab.GCRA, lab.LeakyQueue:
			buckets = true
		default:
			windows = true
			sub = sub || r.Algorithm == lab.SlidingCounter && p.SubWindows > 1
		}
	}
	var parts []string
	if windows {
		s := fmt.Sprintf("W = %d ms, L = %d", p.WindowMS, p.Limit)
		if sub {
			s += fmt.Sprintf(", N = %d", p.SubWindows)
		}
		parts = append(parts, s)
	}
	if buckets {
		parts = append(parts, fmt.Sprintf("C = %d, R = %s/s (the ruler's W = %d ms)",
			p.Capacity, strconv.FormatFloat(p.RatePerS, 'f', -1, 64), p.WindowMS))
	}
	shown := arrivals[:min(len(arrivals), 24)]
	list := text.JoinInts(shown, " ")
	if len(shown) < len(arrivals) {
		list += fmt.Sprintf(" … (%d)", len(arrivals))
	}
	return strings.Join(parts, "; ") + " · arrivals " + list
}
