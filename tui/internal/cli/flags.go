package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ratelimit-course/ratelimit/core"
)

// cliFlags is the flag parsing the headless subcommands (sim, worst,
// prefetch, drill) share. Every mistake on a command line becomes one error
// that names the flag and what it accepts: a malformed value, a flag given
// twice (the standard package would keep the last silently), a flag
// without its value, an unknown flag, a stray argument.
type cliFlags struct {
	fs     *flag.FlagSet
	names  []string          // "--algo", … in registration order, for messages
	accept map[string]string // what each flag takes
	given  map[string]string // flag → the raw value it was given
	bad    error             // the first mistake, in our own words
}

func newCLIFlags(cmd string) *cliFlags {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &cliFlags{fs: fs, accept: map[string]string{}, given: map[string]string{}}
}

func (c *cliFlags) fail(err error) error {
	if c.bad == nil {
		c.bad = err
	}
	return c.bad
}

// value registers a flag that takes a value. set receives it with the
// surrounding spaces trimmed; an error from set is reported as a
// *core.ParamError naming the flag (set may return its own).
func (c *cliFlags) value(name, accept string, set func(string) error) {
	c.names = append(c.names, "--"+name)
	c.accept[name] = accept
	c.fs.Func(name, "", func(s string) error {
		if prev, twice := c.given[name]; twice {
			return c.fail(fmt.Errorf("--%s given twice (%s, then %s): accepted once", name, quoteValue(prev), quoteValue(s)))
		}
		c.given[name] = s
		if err := set(strings.TrimSpace(s)); err != nil {
			var pe *core.ParamError
			if !errors.As(err, &pe) {
				err = core.BadParam(name, quoteValue(s), accept)
			}
			return c.fail(err)
		}
		return nil
	})
}

// str registers a flag that takes any text; the caller validates it.
func (c *cliFlags) str(name, accept string, dst *string) {
	c.value(name, accept, func(s string) error { *dst = s; return nil })
}

// integer registers an int flag.
func (c *cliFlags) integer(name, accept string, dst *int) {
	c.value(name, accept, func(s string) (err error) { *dst, err = strconv.Atoi(s); return err })
}

// boolean registers a flag that stands alone (--json) or takes =true or
// =false.
func (c *cliFlags) boolean(name string, dst *bool) {
	c.names = append(c.names, "--"+name)
	c.accept[name] = "true or false (--" + name + " alone means true)"
	c.fs.Var(boolValue{c, name, dst}, name, "")
}

type boolValue struct {
	c    *cliFlags
	name string
	dst  *bool
}

func (b boolValue) IsBoolFlag() bool { return true }

func (b boolValue) String() string {
	if b.dst == nil {
		return "false"
	}
	return strconv.FormatBool(*b.dst)
}

func (b boolValue) Set(s string) error {
	if prev, twice := b.c.given[b.name]; twice {
		return b.c.fail(fmt.Errorf("--%s given twice (%s, then %s): accepted once", b.name, quoteValue(prev), quoteValue(s)))
	}
	b.c.given[b.name] = s
	v, err := strconv.ParseBool(s)
	if err != nil {
		return b.c.fail(core.BadParam(b.name, quoteValue(s), b.c.accept[b.name]))
	}
	*b.dst = v
	return nil
}

// list names every flag, for messages: "--algo --arrivals …".
func (c *cliFlags) list() string { return strings.Join(c.names, " ") }

// parse reads args; flag.ErrHelp comes back as is for --help.
func (c *cliFlags) parse(args []string) error {
	err := c.fs.Parse(args)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		return err
	case c.bad != nil:
		return c.bad
	default:
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			return fmt.Errorf("unknown flag %s: accepted %s", printable("--"+strings.TrimLeft(f, "-")), c.list())
		}
		if f, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
			f = strings.TrimLeft(f, "-")
			return fmt.Errorf("--%s needs a value: accepted %s", f, c.accept[f])
		}
		if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
			return fmt.Errorf("bad flag syntax %s: accepted %s", quoteValue(arg), c.list())
		}
		return fmt.Errorf("%s: accepted %s", quoteValue(msg), c.list())
	}
	if c.fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %s: accepted %s", quoteValue(c.fs.Arg(0)), c.list())
	}
	return nil
}

// quoteRunes is how much of a bad value an error line quotes.
const quoteRunes = 40

// quoteValue quotes s for an error line, at most its first 40 characters: a
// value of any length (a list of a million items) stays a short line.
// What was left out is counted: "1,2,1,2,2,1,2,1,2,2,1,2,1,2,2,1,2,1,2,2"… (6888889 bytes).
func quoteValue(s string) string {
	cut := runesEnd(s, quoteRunes)
	if cut == len(s) {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// runesEnd is the byte offset after the first n characters of s (len(s) if
// s is shorter).
func runesEnd(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// printable keeps a name on one line and short: quoted (and cut, as
// quoteValue) if it holds anything a terminal would not print as is or is long.
func printable(s string) string {
	if q := strconv.Quote(s); q != `"`+s+`"` || runesEnd(s, quoteRunes) < len(s) {
		return quoteValue(s)
	}
	return s
}

// parseAll parses args for a command that checks nothing more before it
// runs: ok is false when the command is done, after --help (its usage on
// stdout, exit code 0) or bad input (the stderr line, exit code 2).
func (c *cliFlags) parseAll(args []string, stdout, stderr io.Writer, usage string) (code int, ok bool) {
	err := c.parse(args)
	if isHelp(err) {
		fmt.Fprint(stdout, usage)
		return 0, false
	}
	if err != nil {
		return badInput(stderr, c.fs.Name(), err), false
	}
	return 0, true
}

// isHelp reports whether parse stopped at --help: the command then prints
// its usage to stdout and exits 0.
func isHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }

// writeJSON prints v as one line of JSON, the --json output of every
// command but ring's.
func writeJSON(stdout io.Writer, v any) {
	out, _ := json.Marshal(v)
	fmt.Fprintf(stdout, "%s\n", out)
}

// isSet reports whether the flag was on the command line.
func (c *cliFlags) isSet(name string) bool {
	_, ok := c.given[name]
	return ok
}

// maxErrLine bounds the stderr line of bad input, in bytes.
const maxErrLine = 400

// badInput prints the one stderr line for bad input and returns exit code
// 2. A *core.ParamError names its flag by the parameter's name. Whatever
// the error holds, the line stays one short line: a long quoted value is cut
// as quoteValue cuts it, a newline is escaped, and the line is at most
// maxErrLine bytes.
func badInput(stderr io.Writer, cmd string, err error) int {
	var pe *core.ParamError
	var line string
	if errors.As(err, &pe) {
		v := pe.Value
		if uq, err := strconv.Unquote(v); err == nil && runesEnd(uq, quoteRunes) < len(uq) {
			v = quoteValue(uq) // a quoted value: quote its excerpt
		} else if cut := runesEnd(v, 2*quoteRunes); cut < len(v) {
			v = v[:cut] + "…"
		}
		line = fmt.Sprintf("%s: invalid --%s %s: accepted %s", cmd, pe.Param, v, pe.Accept)
	} else {
		line = fmt.Sprintf("%s: %v", cmd, err)
	}
	line = strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(line)
	if len(line) > maxErrLine {
		line = strings.ToValidUTF8(line[:maxErrLine-len("…")], "") + "…"
	}
	fmt.Fprintln(stderr, line)
	return 2
}
