package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/labflag"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const worstUsage = `usage: tui worst --algo ALGO|all [--window 1000] [--limit 3] [--capacity 3]
                 [--rate 2] [--subwindows 1] [--json]

Searches arrival sequences for the one that gets the most requests upstream
inside one window of width W, and compares it with the textbook bound.
`

// simAccept says what each flag takes, for parse errors (the lab's own

func runWorst(args []string, stdout, stderr io.Writer) int {
	a, err := parseSimFlags("worst", args)
	if isHelp(err) {
		fmt.Fprint(stdout, worstUsage)
		return 0
	}
	if err != nil {
		return simFail(stderr, "worst", err, "")
	}
	if !a.set("algo") {
		return simFail(stderr, "worst", errors.New("missing --algo: accepted all, "+strings.Join(lab.AlgorithmNames(), ", ")), "")
	}
	algos := lab.Algorithms
	if a.algo != "all" {
		algo, err := labflag.ParseAlgo(a.algo, a.p)
		if err != nil {
			var pe *core.ParamError
			if errors.As(err, &pe) && pe.Param == "algo" {
				pe.Accept = "all, " + pe.Accept
			}
			return simFail(stderr, "worst", err, "")
		}
		algos = []lab.Algorithm{algo}
	}
	var found []lab.WorstResult
	for _, algo := range algos {
		w, err := lab.Worst(algo, a.p)
		if err != nil {
			return simFail(stderr, "worst", err, "")
		}
		found = append(found, w)
	}
	if a.asJSON {
		if a.algo == "all" {
			writeJSON(stdout, found)
		} else {
			writeJSON(stdout, found[0])
		}
		return 0
	}
	if a.algo == "all" {
		writeWorstTable(stdout, a.p, found)
	} else {
		writeWorst(stdout, found[0])
	}
	return 0
}

func writeWorst(w io.Writer, r lab.WorstResult) {
	writeWrapped(w, "worst case found for "+string(r.Algorithm)+", "+paramsLine(r.Params))
	fmt.Fprintf(w, "found: %d upstream in [%d,%d), overshoot %d over L\n",
		r.MaxInWindow, r.Window[0], r.Window[1], r.Overshoot)
	fmt.Fprintf(w, "textbook worst case: %s\n", r.Bound)
	for _, l := range text.Wrap("arrivals: "+text.JoinInts(r.Arrivals, " "), 78) {
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
		fmt.Fprintf(w, "%-17s %s\n", "", clip("arrivals "+text.JoinInts(r.Arrivals, " "), 62))
	}
}
