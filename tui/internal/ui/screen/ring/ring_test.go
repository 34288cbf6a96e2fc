package ring

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

func press(m Model, k string) Model {
	s, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	return s.(Model)
}

// TestRingScreenAt80x24: the screen fits 80×24 and shows what chapter 11's
// ring computes: a join of 3 peers moves about a quarter of the keys, a
// leave of 4 about a quarter, and no change moves nothing.
func TestRingScreenAt80x24(t *testing.T) {
	m := New(widget.NewTheme()).Resize(80, 24).(Model)
	for _, c := range []struct {
		key, want string
	}{
		{"", "join: "},
		{"+", "join: "}, // 4 peers, a fifth joins: about 0.2 of the keys
		{"l", "leave: "},
		{"0", "No change"},
		{"-", "3 peers"},
	} {
		if c.key != "" {
			m = press(m, c.key)
		}
		v := m.View()
		rows := strings.Split(v, "\n")
		if len(rows) != 24 {
			t.Errorf("after %q: %d rows, want 24", c.key, len(rows))
		}
		for i, r := range rows {
			if w := lipgloss.Width(r); w > 80 {
				t.Errorf("after %q: row %d is %d wide", c.key, i, w)
			}
		}
		if m.ch.Event != "none" && (m.ch.Moved < 0.75*m.ch.Expected || m.ch.Moved > 1.25*m.ch.Expected) {
			t.Errorf("after %q: %s moved %.3f, want about %.3f", c.key, m.ch.Event, m.ch.Moved, m.ch.Expected)
		}
		if !strings.Contains(v, c.want) {
			t.Errorf("after %q: view lacks %q:\n%s", c.key, c.want, v)
		}
	}
	if m.ch.Peers != 3 || m.ch.Moved != 0 {
		t.Errorf("after 0 and -: %d peers, %.3f moved; want 3 and 0", m.ch.Peers, m.ch.Moved)
	}
}
