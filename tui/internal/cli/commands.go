// Package cli is the course's command line: the headless commands that
// scripts and tests run (CONTRACT-CLI.md §4). It draws nothing interactive:
// no Bubble Tea, no markdown renderer.
package cli

import (
	"fmt"
	"io"
	"strings"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/conform"
	"github.com/ratelimit-course/ratelimit/tui/internal/plot"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

// Command is one command of tui: its name, its line in the usage text, and
// what runs it. A command takes its arguments and writes to stdout / stderr;
// it returns the process exit code (0 ok, 1 failure, 2 bad input).
type Command struct {
	Name    string
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) int
}

// Commands is the command line, in the order the usage text lists it.
// Adding a command is adding its entry here.
var Commands = []Command{
	{"sim", "run the chapter 05 lab headless (--help for flags)", runSim},
	{"plot", "draw a scenario's timeline as SVG (the chapters' figures)", plot.Command},
	{"worst", "search for the worst-case arrival sequence", runWorst},
	{"prefetch", "simulate chapter 06 quota prefetch", runPrefetch},
	{"cluster", "chapter 06 part 3 (E21–E23) on a real Redis Cluster", runCluster},
	{"ring", "chapter 11's hash ring: ownership, and the keys a join or leave moves", runRing},
	{"drill", "the chapter 07 interview drill", runDrill},
	{"interview", "the plan of the chapter 07 timed mock interview", runInterview},
	{"mock", "the transcripts of your mock interviews: --last, --list", runMock},
	{"plan", "the study plans: one evening, one week", runPlan},
	{"progress", "what is done and what to review next, per topic", runProgress},
	{"serve", "chapter 10's rate limit service (Envoy's protocol, gRPC and /json)", service.Command},
	{"conform", "compare any RLS v3 server's answers with chapter 10's service (E33's sequence)", conform.Command},
	{"--reset-progress", "forget the saved drill scores, mock interviews and plan steps done", runResetProgress},
}

// Run runs the command line args. With no arguments it runs interactive,
// the course's app (which this package does not link).
func Run(args []string, stdout, stderr io.Writer, interactive func(stdout, stderr io.Writer) int) int {
	if len(args) == 0 {
		return interactive(stdout, stderr)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, Usage())
		return 0
	}
	for _, c := range Commands {
		if c.Name == args[0] {
			return c.Run(args[1:], stdout, stderr)
		}
	}
	names := make([]string, len(Commands))
	for i, c := range Commands {
		names[i] = c.Name
	}
	fmt.Fprintf(stderr, "unknown command %s: accepted %s (or no command for the interactive course)\n",
		quoteValue(args[0]), strings.Join(names, ", "))
	return 2
}

// Usage is the usage text, one line per command of Commands.
func Usage() string {
	lines := [][2]string{{"tui", "the interactive course (needs a terminal)"}}
	for _, c := range Commands {
		name := "tui " + c.Name
		if !strings.HasPrefix(c.Name, "-") {
			name += " ..."
		}
		lines = append(lines, [2]string{name, c.Summary})
	}
	width := 0
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, l[0], l[1])
	}
	return b.String()
}

// runResetProgress deletes the learner's saved progress.
func runResetProgress(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "--reset-progress: unexpected argument %s: accepted --reset-progress alone\n", quoteValue(args[0]))
		return 2
	}
	path, err := progress.Reset()
	if err != nil {
		fmt.Fprintln(stderr, "tui: could not reset the saved progress:", err)
		return 1
	}
	fmt.Fprintf(stdout, "saved progress reset (%s): drill scores, mock interviews and plan steps start fresh\n", path)
	// The transcripts are what the learner wrote, not a score: kept.
	if dir, err := transcript.Dir(); err == nil {
		fmt.Fprintf(stdout, "your mock transcripts are kept (%s): delete that folder to forget them\n", dir)
	}
	return 0
}
