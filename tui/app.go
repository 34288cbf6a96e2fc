package main

import (
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// runApp starts the interactive course full-screen. It needs a terminal to
// draw on: without one it says so and points to the headless commands. Keys
// come from the controlling terminal, so redirected stdin does not matter.
func runApp(stdout, stderr io.Writer) int {
	out, ok := stdout.(*os.File)
	if !ok || !isTerminal(out) {
		fmt.Fprintln(stderr, "the interactive course needs a terminal; for scripts use: tui sim | worst | prefetch | drill (--help)")
		return 1
	}
	m := newAppModel(newTheme(lipgloss.NewRenderer(out)))
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(out), tea.WithInputTTY())
	if _, err := p.Run(); err != nil {
		fmt.Fprintln(stderr, "tui:", err)
		return 1
	}
	return 0
}

// isTerminal reports whether f is a character device (a terminal), without
// pulling in a terminal package for one check.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
