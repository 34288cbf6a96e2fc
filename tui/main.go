// Command tui is the course's terminal app. With no arguments it starts the
// interactive course; the subcommands run headless for scripts and tests
// (CONTRACT.md §4).
package main

import (
	"fmt"
	"io"
	"os"
)

// A subcommand takes its arguments and writes to stdout / stderr; it returns
// the process exit code (0 ok, 1 failure, 2 bad input).
type subcommand func(args []string, stdout, stderr io.Writer) int

var subcommands = map[string]subcommand{
	"sim":       runSim,       // sim.go: chapter 05 lab, one algorithm or a scenario pair
	"worst":     runWorst,     // sim.go: chapter 05 worst-case search
	"prefetch":  runPrefetch,  // prefetch.go: chapter 06 quota prefetch simulation
	"drill":     runDrill,     // drill.go: chapter 07 interview drill
	"interview": runInterview, // interview.go: chapter 07 mock interview plan
	"cluster":   runCluster,   // cluster.go: chapter 06 part 3 on a real Redis Cluster
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runApp(stdout, stderr)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	if args[0] == "--reset-progress" && len(args) == 1 {
		return runResetProgress(stdout, stderr)
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "unknown command %q: accepted sim, worst, prefetch, drill, interview, cluster, --reset-progress (or no command for the interactive course)\n", args[0])
		return 2
	}
	return cmd(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  tui                 the interactive course (needs a terminal)
  tui sim ...         run the chapter 05 lab headless (--help for flags)
  tui worst ...       search for the worst-case arrival sequence
  tui prefetch ...    simulate chapter 06 quota prefetch
  tui drill           the chapter 07 interview drill
  tui interview       the plan of the chapter 07 timed mock interview
  tui --reset-progress  forget the saved drill scores and mock interviews
`)
}

// runResetProgress deletes the learner's saved progress.
func runResetProgress(stdout, stderr io.Writer) int {
	path, err := resetProgress()
	if err != nil {
		fmt.Fprintln(stderr, "tui: could not reset the saved progress:", err)
		return 1
	}
	fmt.Fprintf(stdout, "saved progress reset (%s): drill scores and mock interviews start fresh\n", path)
	return 0
}
