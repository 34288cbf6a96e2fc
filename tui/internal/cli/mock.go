package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"

	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

const mockUsage = `usage: tui mock --last | --list
       tui mock --grade FILE [--prompt ID] [--short] [--json]

The transcripts of the mock interviews you finished in the course (tui,
then M): what you wrote in each phase, the time you used, the points you
ticked and missed with their chapters, your answers to the pushback beside
the strong ones. They are Markdown files in %s.

  --last   print the latest transcript
  --list   list them, oldest first: when, the question, the file

  --grade FILE   read the notes in FILE and say, per phase, which points
                 they show (with the words that showed each), which they
                 miss, the red flags, and a score. FILE is a transcript
                 (as --last prints it) or a plain file with one
                 "## Phase N" section per phase, N from 1.
  --prompt ID    the question to grade against (a plain file needs it):
                 %s
  --short        the 15-minute form (four phases); a transcript says its own
  --json         the same as JSON
`

// runMock prints the latest mock interview's transcript or lists them.
func runMock(args []string, stdout, stderr io.Writer) int {
	var last, list bool
	var g gradeArgs
	c := newCLIFlags("mock")
	c.boolean("last", &last)
	c.boolean("list", &list)
	g.register(c)
	err := c.parse(args)
	dir, dirErr := transcript.Dir()
	if dirErr != nil {
		dir = "your data directory (none found: " + dirErr.Error() + ")"
	}
	if isHelp(err) {
		fmt.Fprintf(stdout, mockUsage, dir, strings.Join(interview.MockNames(), ", "))
		return 0
	}
	if err == nil && (c.isSet("grade") || g.others(c) != "") {
		if last || list {
			return badInput(stderr, "mock", errors.New("--grade reads a file: give it without --last or --list"))
		}
		return g.run(c, stdout, stderr)
	}
	if err == nil && last == list {
		err = errors.New("give --last or --list (one of them)")
	}
	if err != nil {
		return badInput(stderr, "mock", err)
	}
	if dirErr != nil {
		fmt.Fprintln(stderr, "mock: no data directory for transcripts:", dirErr)
		return 1
	}
	es, err := transcript.List()
	if err != nil {
		fmt.Fprintln(stderr, "mock: could not read the transcripts:", err)
		return 1
	}
	if len(es) == 0 {
		fmt.Fprintf(stderr, "mock: no transcript yet in %s: finish a mock interview in the course (tui, then M)\n", dir)
		return 1
	}
	if list {
		for _, e := range es {
			fmt.Fprintf(stdout, "%s  %-13s %s\n", e.At.Format("2006-01-02 15:04:05 UTC"), e.Prompt, e.Path)
		}
		return 0
	}
	_, text, _, err := transcript.Latest()
	if err != nil {
		fmt.Fprintln(stderr, "mock: could not read the latest transcript:", err)
		return 1
	}
	fmt.Fprint(stdout, text)
	return 0
}
