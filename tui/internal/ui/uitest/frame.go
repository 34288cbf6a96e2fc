// Package uitest holds what the app's tests and a screen's own tests share
// to drive a model and read its frames as a person would: keys by name, and
// checks on a plain frame. Only _test files import it, so the binary links
// none of it.
package uitest

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Key is the key message a terminal sends for a named key ("enter", "esc",
// "ctrl+c", "pgdown", …) or, for anything else, for typing s.
func Key(s string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "space": tea.KeySpace,
		"ctrl+c": tea.KeyCtrlC, "ctrl+r": tea.KeyCtrlR, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp,
	}
	if k, ok := named[s]; ok {
		if k == tea.KeySpace {
			return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: k}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// CheckFrame asserts the frame is h rows, none wider than w, plain text.
func CheckFrame(t testing.TB, frame string, w, h int) {
	t.Helper()
	rows := strings.Split(frame, "\n")
	if len(rows) != h {
		t.Fatalf("frame has %d rows, want %d:\n%s", len(rows), h, frame)
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > w {
			t.Fatalf("row %d is %d columns wide, more than %d: %q", i+1, n, w, r)
		}
	}
	if strings.Contains(frame, "\x1b") {
		t.Fatalf("a plain frame contains escape sequences:\n%q", frame)
	}
}

// Want reports each of wants the frame lacks.
func Want(t testing.TB, frame string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(frame, w) {
			t.Errorf("screen lacks %q:\n%s", w, frame)
		}
	}
}

// Lacks reports each of lacks the frame shows.
func Lacks(t testing.TB, frame string, lacks ...string) {
	t.Helper()
	for _, w := range lacks {
		if strings.Contains(frame, w) {
			t.Errorf("screen shows %q:\n%s", w, frame)
		}
	}
}

// Row is the first row of the frame containing s, or "".
func Row(frame, s string) string {
	for _, r := range strings.Split(frame, "\n") {
		if strings.Contains(r, s) {
			return r
		}
	}
	return ""
}

// RowStarting is the first row of the frame that starts with s, or "".
func RowStarting(frame, s string) string {
	for _, r := range strings.Split(frame, "\n") {
		if strings.HasPrefix(r, s) {
			return r
		}
	}
	return ""
}

// IsQuit reports whether cmd quits the program. A sequence's commands
// run first, in order, each with every command it batches, as the runtime
// runs them (what a screen saves before the app quits is then written).
func IsQuit(cmd tea.Cmd) bool { return runQuits(cmd, false) }

// runQuits runs cmd and every command it sequences, and with batches every
// command it batches too, each inner one with all it batches, and reports
// whether one quits.
func runQuits(cmd tea.Cmd, batches bool) bool {
	if cmd == nil {
		return false
	}
	msg := cmd()
	_, batch := msg.(tea.BatchMsg)
	if cmds, ok := Cmds(msg); ok && (batches || !batch) {
		quits := false
		for _, c := range cmds {
			quits = runQuits(c, true) || quits
		}
		return quits
	}
	_, ok := msg.(tea.QuitMsg)
	return ok
}

// Flat joins whitespace runs, so wrapped text compares with its source.
func Flat(s string) string { return strings.Join(strings.Fields(s), " ") }
