package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

const drillUsage = `usage: tui drill [--n N] [--shuffle] [--seed S] [--answers=false]
                 [--chapter 01..08] [--width 80]

Prints the chapter 07 interview drill: questions with model answers, wrapped
to the width. Answer each question aloud before reading the model answer.

  --n N          print only N questions (default: all)
  --shuffle      random order; --seed S makes it repeatable (default: random)
  --answers      show the model answers (default true; --answers=false quizzes)
  --chapter CH   only the questions of one chapter, e.g. 06
  --width W      wrap at W columns, 40 to 200 (default 80)
`

const drillFlags = "--n --shuffle --seed --answers --chapter --width"

// drillOptions is what the drill flags hold after parsing.
type drillOptions struct {
	n       int // 0 = all
	shuffle bool
	seed    uint64
	seeded  bool
	answers bool
	chapter string
	width   int
}

func parseDrillFlags(args []string) (drillOptions, error) {
	o := drillOptions{answers: true, width: 80}
	var bad error
	fs := flag.NewFlagSet("drill", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	intFlag := func(name, accept string, dst *int) {
		fs.Func(name, "", func(s string) error {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil && bad == nil {
				bad = fmt.Errorf("invalid --%s %q: accepted %s", name, s, accept)
			}
			*dst = v
			return err
		})
	}
	intFlag("n", "an integer >= 1", &o.n)
	intFlag("width", "an integer from 40 to 200", &o.width)
	fs.Func("seed", "", func(s string) error {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil && bad == nil {
			bad = fmt.Errorf("invalid --seed %q: accepted a non-negative integer", s)
		}
		o.seed, o.seeded = v, true
		return err
	})
	boolFlag := func(name string, dst *bool) {
		fs.Var(drillBool{dst, func(v string) {
			if bad == nil {
				bad = fmt.Errorf("invalid --%s %q: accepted true or false", name, v)
			}
		}}, name, "")
	}
	boolFlag("shuffle", &o.shuffle)
	boolFlag("answers", &o.answers)
	fs.StringVar(&o.chapter, "chapter", "", "")
	if err := fs.Parse(args); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return o, err
		case bad != nil:
			return o, bad
		case strings.HasPrefix(err.Error(), "flag provided but not defined: "):
			f := strings.TrimLeft(strings.TrimPrefix(err.Error(), "flag provided but not defined: "), "-")
			return o, fmt.Errorf("unknown flag --%s: accepted %s", f, drillFlags)
		default:
			return o, fmt.Errorf("%v: accepted %s", err, drillFlags)
		}
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: accepted %s", fs.Arg(0), drillFlags)
	}
	if o.width < 40 || o.width > 200 {
		return o, fmt.Errorf("invalid --width %d: accepted an integer from 40 to 200", o.width)
	}
	chapters := interview.DrillChapters()
	if o.chapter != "" {
		if len(o.chapter) == 1 {
			o.chapter = "0" + o.chapter
		}
		found := false
		for _, c := range chapters {
			found = found || c == o.chapter
		}
		if !found {
			return o, fmt.Errorf("invalid --chapter %q: accepted one of %s", o.chapter, strings.Join(chapters, ", "))
		}
	}
	if o.n < 0 || (o.n == 0 && flagGiven(fs, "n")) {
		return o, fmt.Errorf("invalid --n %d: accepted an integer >= 1", o.n)
	}
	return o, nil
}

// drillBool is a bool flag that reports a bad value in our own words.
type drillBool struct {
	dst *bool
	bad func(string)
}

func (b drillBool) IsBoolFlag() bool { return true }
func (b drillBool) String() string {
	if b.dst == nil {
		return "false"
	}
	return strconv.FormatBool(*b.dst)
}
func (b drillBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		b.bad(s)
		return err
	}
	*b.dst = v
	return nil
}

func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// drillSelect applies the chapter filter, the shuffle and --n.
func drillSelect(o drillOptions) []interview.Question {
	var qs []interview.Question
	for _, q := range interview.Drill {
		if o.chapter == "" || q.Chapter == o.chapter {
			qs = append(qs, q)
		}
	}
	if o.shuffle {
		seed := o.seed
		if !o.seeded {
			seed = uint64(time.Now().UnixNano()) // the TUI is an edge: it may read the clock
		}
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	}
	if o.n > 0 && o.n < len(qs) {
		qs = qs[:o.n]
	}
	return qs
}

// writeDrill prints the cards, each wrapped to o.width columns.
func writeDrill(w io.Writer, o drillOptions, qs []interview.Question) {
	mode := "model answers follow each question"
	if !o.answers {
		mode = "answers hidden; run again without --answers=false to compare"
	}
	print := func(lines []string) {
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	print(drillWrap(fmt.Sprintf("Interview drill: %d of %d questions (%s).", len(qs), len(interview.Drill), mode), o.width, "", ""))
	const indent = "    "
	for i, q := range qs {
		fmt.Fprintln(w)
		print(drillWrap(fmt.Sprintf("Q%d. [ch %s, %s] %s", i+1, q.Chapter, q.Topic, q.Q), o.width, "", indent))
		if o.answers {
			fmt.Fprintln(w)
			print(drillWrap("A: "+q.A, o.width, indent, indent))
		}
	}
}

// drillWrap breaks s into lines of at most width runes, the first starting
// with first and the others with rest. A word longer than a line is cut.
func drillWrap(s string, width int, first, rest string) []string {
	var lines []string
	line, prefix := first, first
	n := utf8.RuneCountInString
	for _, word := range strings.Fields(s) {
		for {
			room := width - n(line)
			if line != prefix {
				room-- // the space before the word
			}
			if n(word) <= room {
				if line != prefix {
					line += " "
				}
				line += word
				break
			}
			if line != prefix { // start a fresh line and try again
				lines = append(lines, line)
				line, prefix = rest, rest
				continue
			}
			r := []rune(word) // longer than a whole line: cut it
			lines = append(lines, line+string(r[:room]))
			word = string(r[room:])
			line, prefix = rest, rest
		}
	}
	if line != prefix {
		lines = append(lines, line)
	}
	return lines
}

// runDrill prints the chapter 07 interview drill.
func runDrill(args []string, stdout, stderr io.Writer) int {
	o, err := parseDrillFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, drillUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "drill: %v\n", err)
		return 2
	}
	writeDrill(stdout, o, drillSelect(o))
	return 0
}
