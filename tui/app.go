package main

import (
	"fmt"
	"io"
)

// runApp starts the interactive Bubble Tea course. Placeholder.
func runApp(stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "The interactive course is coming soon; try: go run ./tui sim --help")
	return 0
}
