package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/chapters/07-interview/grade"
)

// gradeArgs are tui mock's flags for grading a file of notes:
// --grade FILE [--prompt ID] [--short] [--json].
type gradeArgs struct {
	file, prompt string
	short, json  bool
}

func (g *gradeArgs) register(c *cliFlags) {
	c.str("grade", "a file: a transcript the app saved, or notes with one \"## Phase N\" section per phase", &g.file)
	names := interview.MockNames()
	c.value("prompt", "one of "+strings.Join(names, ", "), func(s string) error {
		if !slices.Contains(names, s) {
			return errors.New("unknown prompt")
		}
		g.prompt = s
		return nil
	})
	c.boolean("short", &g.short)
	c.boolean("json", &g.json)
}

// others names a grading flag given without --grade, or "".
func (g *gradeArgs) others(c *cliFlags) string {
	for _, f := range []string{"prompt", "short", "json"} {
		if c.isSet(f) {
			return "--" + f
		}
	}
	return ""
}

// run grades the file and prints the feedback: 0, or 2 on bad input.
func (g *gradeArgs) run(c *cliFlags, stdout, stderr io.Writer) int {
	if !c.isSet("grade") {
		return badInput(stderr, "mock", fmt.Errorf("%s goes with --grade FILE", g.others(c)))
	}
	if g.file == "" {
		return badInput(stderr, "mock", errors.New("--grade needs a file name"))
	}
	b, err := os.ReadFile(g.file)
	if err != nil {
		return badInput(stderr, "mock", fmt.Errorf("--grade %s: cannot read it (%v)", g.file, errors.Unwrap(err)))
	}
	src, err := grade.Parse(string(b))
	if err != nil {
		return badInput(stderr, "mock", fmt.Errorf("--grade %s: %v", g.file, err))
	}
	if g.prompt == "" && src.Prompt == "" {
		return badInput(stderr, "mock", fmt.Errorf("--grade %s is not a transcript: give --prompt (one of %s)", g.file, strings.Join(interview.MockNames(), ", ")))
	}
	short := g.short
	if !c.isSet("short") && src.Form != "" {
		short = src.Form == grade.ShortForm
	}
	r, err := grade.Grade(src, g.prompt, short)
	if err != nil {
		hint := ""
		if short {
			hint = " (the 45-minute form has 5: drop --short?)"
		}
		return badInput(stderr, "mock", fmt.Errorf("--grade %s: %v%s", g.file, err, hint))
	}
	if g.json {
		out, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintln(stdout, string(out))
		return 0
	}
	p, _ := interview.MockPrompt(r.Prompt)
	fmt.Fprintf(stdout, "Feedback on %s: %s (%s), the %s form\n\n", g.file, p.Title, r.Prompt, r.Form)
	fmt.Fprintln(stdout, strings.Join(r.Lines(), "\n"))
	return 0
}
