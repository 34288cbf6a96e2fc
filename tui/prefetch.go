package main

import (
	"fmt"
	"io"
)

// runPrefetch is the headless chapter 06 prefetch simulation (SPEC §4). Placeholder.
func runPrefetch(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "prefetch: not implemented yet")
	return 1
}
