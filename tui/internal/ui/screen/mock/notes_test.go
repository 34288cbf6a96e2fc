package mock

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

func typeText(m Model, s string) Model {
	for _, r := range s {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// The clock runs while the candidate writes; when it runs out mid-sentence
// the text is kept, shown in the review, and the next phase's notes start
// empty.
func TestMockNotesKeepTheClockRunning(t *testing.T) {
	m := press(newModel(t), "enter", "tab")
	m = typeText(m, "p pauses nothing here")
	if !m.clock.Running() || !m.Typing() {
		t.Fatalf("typing p paused the clock (%v) or closed the notes (%v)", m.clock.Running(), m.Typing())
	}
	m = runClock(t, m, 30*time.Second)
	uitest.Want(t, m.View(), "2:30 left", "p pauses nothing here")
	m = runClock(t, m, 5*time.Minute) // to its timeout
	if m.state != Between || m.Typing() || m.notes[0] != "p pauses nothing here" {
		t.Fatalf("timeout while writing: state %d, typing %v, notes %q", m.state, m.Typing(), m.notes[0])
	}
	uitest.Want(t, m.View(), "p pauses nothing here", "used 3:00 of 3:00")
	m = press(m, "enter", "tab")
	if m.phase != 1 || m.ta.Value() != "" {
		t.Fatalf("phase %d opens with notes %q", m.phase+1, m.ta.Value())
	}
	// Each phase keeps its own: back in the review of phase 2, phase 1's
	// notes are not shown as phase 2's.
	m = press(typeText(m, "design"), "tab", "n")
	uitest.Want(t, m.View(), "design")
	uitest.Lacks(t, m.View(), "p pauses nothing here")
}
