package mock

import (
	"fmt"
	"strings"
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

// Typed one key at a time or pasted in one burst, 1,500 characters stay
// in the field, in order, and the last word written is on screen all
// along: the field scrolls by the height it is drawn with. (The field was
// sized only in View's copy: from about 600 characters its rows scrolled
// away, and at 800 the box was blank.)
func TestMockNotesKeepLongTextOnScreen(t *testing.T) {
	var words []string
	for i := 0; len(strings.Join(words, " ")) < 1500; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	full := strings.Join(words, " ")
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := press(newModel(t).Resize(size[0], size[1]).(Model), "enter", "tab")
			for i, w := range words {
				if i > 0 {
					m = typeText(m, " ")
				}
				m = typeText(m, w)
				if i%25 == 0 || i == len(words)-1 {
					uitest.Want(t, m.View(), w)
				}
			}
			if got := press(m, "tab").notes[0]; got != full {
				t.Fatalf("typed %d characters, kept %d: %q…", len(full), len(got), got[:min(len(got), 40)])
			}

			m = press(newModel(t).Resize(size[0], size[1]).(Model), "enter", "tab")
			paste := "the limiter looks up the key\nthen moves up the count\n" + full
			m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(paste), Paste: true})
			uitest.Want(t, m.View(), words[len(words)-1])
			if got := press(m, "tab").notes[0]; got != paste {
				t.Fatalf("pasted %d characters, kept %d: %q…", len(paste), len(got), got[:min(len(got), 60)])
			}
		})
	}
}
