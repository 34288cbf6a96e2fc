package mock

import (
	"fmt"
	"os"
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

// longText is 1,500 characters of numbered words with "up", "tab", "esc"
// and "enter" among them: key names a burst of runes must not become.
func longText() string {
	var words []string
	names := []string{"up", "tab", "esc", "enter", "down"}
	for i := 0; len(strings.Join(words, " ")) < 1500; i++ {
		if i%7 == 3 {
			words = append(words, names[i/7%len(names)])
			continue
		}
		words = append(words, fmt.Sprintf("w%d", i))
	}
	return strings.Join(words, " ")[:1500]
}

// boxText is what the open field shows from its first row to its last,
// read as a learner reads it: the cursor to the start (alt+<), then down a
// row at a time, each row drawn collected once, the rows joined by spaces
// (the field wraps at spaces).
func boxText(t *testing.T, m Model) string {
	t.Helper()
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'<'}, Alt: true})
	var rows []string
	seen := map[string]bool{}
	// The rows the text wraps to at half the width: past its end.
	for range len(m.ta.Value())/(m.w/2) + 5 {
		for _, l := range strings.Split(m.View(), "\n") {
			if r, ok := strings.CutPrefix(strings.TrimSpace(l), "│ "); ok && !seen[r] {
				seen[r] = true
				rows = append(rows, strings.TrimSpace(r))
			}
		}
		m = press(m, "down")
	}
	return strings.Join(strings.Fields(strings.Join(rows, " ")), " ")
}

// Typed one key at a time, pasted (bracketed) or arriving as a burst of
// runes read together (a terminal read of a fast typist or a plain
// paste), 1,500 characters stay in the field in order, the last written
// on screen, all of them there when the field is read from its top, and
// all of them in the saved transcript. (The field was sized only in
// View's copy: from about 600 characters its rows scrolled away, and at
// 800 the box was blank. A burst "up" moved the cursor a row up, and the
// text typed after went in the middle.)
func TestMockNotesKeepLongTextOnScreen(t *testing.T) {
	full := longText()
	burst := func(s string, n int, paste bool) []tea.Msg {
		var out []tea.Msg
		for r := []rune(s); len(r) > 0; r = r[min(n, len(r)):] {
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: r[:min(n, len(r))], Paste: paste})
		}
		return out
	}
	var words []tea.Msg // a word at a time: "up" alone in a message
	for i, w := range strings.Split(full, " ") {
		if i > 0 {
			words = append(words, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{' '}})
		}
		words = append(words, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(w)})
	}
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		for _, tc := range []struct {
			name string
			msgs []tea.Msg
		}{
			{"typed one key at a time", burst(full, 1, false)},
			{"pasted", burst(full, len(full), true)},
			{"a burst of runes", burst(full, len(full), false)},
			{"a word per read", words},
		} {
			if size[0] != 80 && (tc.name == "typed one key at a time" || tc.name == "a burst of runes") {
				continue // the same path as at 80x24, and slow under -race: the two reads that differ suffice
			}
			t.Run(fmt.Sprintf("%dx%d %s", size[0], size[1], tc.name), func(t *testing.T) {
				m := press(newModel(t).Resize(size[0], size[1]).(Model), "enter", "tab")
				for i, msg := range tc.msgs {
					m = send(m, msg)
					if i%200 == 0 && !m.Typing() {
						t.Fatalf("the field closed after %d messages", i+1)
					}
				}
				uitest.Want(t, m.View(), full[len(full)-12:])
				if got := boxText(t, m); got != full {
					t.Fatalf("wrote %d characters, the field shows %d: %q…", len(full), len(got), got[:min(len(got), 60)])
				}
				m = press(m, "tab")
				if got := m.notes[0]; got != full {
					t.Fatalf("wrote %d characters, kept %d: %q…", len(full), len(got), got[:min(len(got), 60)])
				}
				m = press(m, "esc", "esc")
				if m.kept == "" {
					t.Fatalf("no transcript saved (note %q)", m.note)
				}
				md, err := os.ReadFile(m.kept)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(md), "> "+full+"\n") {
					t.Fatalf("the transcript lacks the %d characters written", len(full))
				}
			})
		}
	}
}
