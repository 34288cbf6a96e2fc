package cli

import (
	"fmt"
	"io"
)

// run is the command line as the tests run it: no interactive course.
func run(args []string, stdout, stderr io.Writer) int {
	return Run(args, stdout, stderr, func(_, stderr io.Writer) int {
		fmt.Fprintln(stderr, "the interactive course needs a terminal")
		return 1
	})
}
