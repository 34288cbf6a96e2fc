package main

import (
	"fmt"
	"io"
)

// runSim is the headless chapter 05 lab (SPEC §4). Placeholder until the lab lands.
func runSim(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sim: not implemented yet")
	return 1
}

// runWorst is the headless worst-case search. Placeholder until the lab lands.
func runWorst(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "worst: not implemented yet")
	return 1
}
