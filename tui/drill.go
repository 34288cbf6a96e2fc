package main

import (
	"fmt"
	"io"
)

// runDrill prints the chapter 07 interview drill. Placeholder.
func runDrill(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "drill: not implemented yet")
	return 1
}
