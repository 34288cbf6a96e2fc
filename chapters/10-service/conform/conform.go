// Package conform is `tui conform`: E33's comparison with any server that
// speaks Envoy's rate limit protocol (RLS v3). It writes E33's rules for the
// target to load, then sends the target a seeded random sequence of
// requests and compares each answer with this course's service, run in
// this process on the in-memory store with the same rules and the same
// wall clock, inside one minute (every rule counts per minute, hour or
// day). The rules, the sequence and the comparison are package peer's, the
// very ones E33 runs against envoyproxy/ratelimit; it links no test code.
package conform

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
)

// config is what the flags say.
type config struct {
	target, writeDir, rulesDir string
	json, headers              bool
	requests                   int
	seed                       uint64
}

// clock is the wall clock, or a test's: when it is, and how to wait.
type clock struct {
	now   func() time.Time
	sleep func(time.Duration)
}

// Command is `tui conform`: exit 0 when the target answered every request
// as this service does, 1 when any answer differs, 2 on a bad flag, rules
// that cannot be read or written, or a target that does not answer.
//
//	conform --write-rules DIR
//	conform --target HOST:PORT [--rules-dir DIR] [--json] [--response-headers] [--requests N] [--seed N]
func Command(args []string, stdout, stderr io.Writer) int {
	return command(args, stdout, stderr, clock{now: time.Now, sleep: time.Sleep})
}

func command(args []string, stdout, stderr io.Writer, clk clock) int {
	var c config
	fs := flags(&c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stdout)
			return 0
		}
		fmt.Fprintln(stderr, "conform: "+err.Error())
		usage(fs, stderr)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "conform: unexpected argument %q (flags only)\n", fs.Arg(0))
	case (c.target == "") == (c.writeDir == ""):
		fmt.Fprintln(stderr, "conform: give --write-rules DIR (write the rules for the target) or --target HOST:PORT (compare), one of them")
	case c.requests < 1 || c.requests > 100_000:
		fmt.Fprintf(stderr, "conform: --requests %d: accepted 1 to 100000\n", c.requests)
	case c.writeDir != "":
		return write(c.writeDir, clk, stdout, stderr)
	default:
		return compare(c, clk, stdout, stderr)
	}
	return 2
}

// flags defines conform's flags on c.
func flags(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.writeDir, "write-rules", "", "write E33's rules into DIR for the target to load, with fresh domain names, and exit")
	fs.StringVar(&c.target, "target", "", "host:port of the target's gRPC listener (envoy.service.ratelimit.v3.RateLimitService)")
	fs.StringVar(&c.rulesDir, "rules-dir", "", "the directory --write-rules wrote, which the target loaded (default: peer/rules as they are, domains edge and internal)")
	fs.BoolVar(&c.json, "json", false, "print the report as one JSON object")
	fs.BoolVar(&c.headers, "response-headers", false, "the target adds RateLimit-* headers (LIMIT_RESPONSE_HEADERS_ENABLED=true): compare them too")
	fs.IntVar(&c.requests, "requests", 3000, "requests in the sequence (1 to 100000); it stops early 2 s before the minute ends")
	fs.Uint64Var(&c.seed, "seed", 33, "the sequence's seed")
	return fs
}

func usage(fs *flag.FlagSet, w io.Writer) {
	service.Usage(fs, w, "usage: tui conform --write-rules DIR | --target HOST:PORT [flags]   (a flag takes one dash or two)")
}

// write is --write-rules: the rules, with a suffix of the clock's seconds.
func write(dir string, clk clock, stdout, stderr io.Writer) int {
	suffix := "-" + strconv.FormatInt(clk.now().Unix(), 36)
	if err := writeRules(dir, suffix); err != nil {
		fmt.Fprintln(stderr, "conform: "+err.Error())
		return 2
	}
	fmt.Fprintf(stdout, "rules written to %s: domains edge%s, internal%s\n", dir, suffix, suffix)
	fmt.Fprintf(stdout, "load them in the target, then: tui conform --target HOST:PORT --rules-dir %s\n", dir)
	return 0
}
