package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
)

const mockUsage = `usage: tui mock --last | --list

The transcripts of the mock interviews you finished in the course (tui,
then M): what you wrote in each phase, the time you used, the points you
ticked and missed with their chapters, your answers to the pushback beside
the strong ones. They are Markdown files in %s.

  --last   print the latest transcript
  --list   list them, oldest first: when, the question, the file
`

// runMock prints the latest mock interview's transcript or lists them.
func runMock(args []string, stdout, stderr io.Writer) int {
	var last, list bool
	c := newCLIFlags("mock")
	c.boolean("last", &last)
	c.boolean("list", &list)
	err := c.parse(args)
	dir, dirErr := transcript.Dir()
	if dirErr != nil {
		dir = "your data directory (none found: " + dirErr.Error() + ")"
	}
	if isHelp(err) {
		fmt.Fprintf(stdout, mockUsage, dir)
		return 0
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
