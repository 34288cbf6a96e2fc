package mock

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// pushbackKey is a key while the phase's pushback is shown (b): one at a
// time, a shows what a strong answer contains, space ticks it as
// answered, → and ← move between them.
func (m Model) pushbackKey(msg tea.KeyMsg) Model {
	j, n := m.phase, len(m.pushes(m.phase))
	switch {
	case key.Matches(msg, keys.Strong):
		m.strong[j][m.pcur] = !m.strong[j][m.pcur]
	case key.Matches(msg, keys.NextPush):
		m.pcur = min(m.pcur+1, n-1)
	case key.Matches(msg, keys.PrevPush):
		m.pcur = max(m.pcur-1, 0)
	case key.Matches(msg, keys.Tick):
		m.pushed[j][m.pcur] = !m.pushed[j][m.pcur]
	}
	return m
}
