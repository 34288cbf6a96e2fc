// Command tui is the course's terminal app. With no arguments it starts the
// interactive course (package app); the commands of package cli run
// headless for scripts and tests (CONTRACT-CLI.md §4).
package main

import (
	"os"

	"github.com/ratelimit-course/ratelimit/tui/internal/cli"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/app"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, app.Run))
}
