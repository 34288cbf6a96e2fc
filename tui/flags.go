package main

import (
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
			return c.fail(fmt.Errorf("--%s given twice (%q, then %q): accepted once", name, prev, s))
		}
		c.given[name] = s
		if err := set(strings.TrimSpace(s)); err != nil {
			var pe *core.ParamError
			if !errors.As(err, &pe) {
				err = core.BadParam(name, strconv.Quote(s), accept)
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
		return b.c.fail(fmt.Errorf("--%s given twice (%q, then %q): accepted once", b.name, prev, s))
	}
	b.c.given[b.name] = s
	v, err := strconv.ParseBool(s)
	if err != nil {
		return b.c.fail(core.BadParam(b.name, strconv.Quote(s), b.c.accept[b.name]))
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
		return fmt.Errorf("%v: accepted %s", err, c.list())
	}
	if c.fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: accepted %s", c.fs.Arg(0), c.list())
	}
	return nil
}

// printable keeps a name on one line: quoted if it holds anything a
// terminal would not print as is.
func printable(s string) string {
	if q := strconv.Quote(s); q != `"`+s+`"` {
		return q
	}
	return s
}

// isSet reports whether the flag was on the command line.
func (c *cliFlags) isSet(name string) bool {
	_, ok := c.given[name]
	return ok
}

// badInput prints the one stderr line for bad input and returns exit code
// 2. A *core.ParamError names its flag by the parameter's name.
func badInput(stderr io.Writer, cmd string, err error) int {
	var pe *core.ParamError
	if errors.As(err, &pe) {
		fmt.Fprintf(stderr, "%s: invalid --%s %s: accepted %s\n", cmd, pe.Param, pe.Value, pe.Accept)
	} else {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	}
	return 2
}
