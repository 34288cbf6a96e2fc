package mock

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// mockKeys: the timed mock interview.
type keyMap struct {
	Up, Down, Start, Tick, TickN, NextPhase, Pause, Again key.Binding
}

var keys = keyMap{
	Up:        widget.Bind([]string{"up", "k"}, "↑", "up"),
	Down:      widget.Bind([]string{"down", "j"}, "↓", "down"),
	Start:     widget.Bind([]string{"enter"}, "enter", "start"),
	Tick:      widget.Bind([]string{" ", "x"}, "space", "tick the point"),
	TickN:     widget.Bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "tick point N"),
	NextPhase: widget.Bind([]string{"n"}, "n", "next phase now"),
	Pause:     widget.Bind([]string{"p"}, "p", "pause the clock"),
	Again:     widget.Bind([]string{"r"}, "r", "same question again"),
}

// mockHelp is the mock interview's map in one of its three states.
type mockHelp struct{ state State }

func (h mockHelp) ShortHelp() []key.Binding {
	switch h.state {
	case OnClock:
		return []key.Binding{keys.TickN, keys.Tick, keys.NextPhase, keys.Pause, widget.Global.Back, widget.Global.Help}
	case Done:
		return []key.Binding{keys.Again, widget.Global.Back, widget.Global.Help}
	}
	return []key.Binding{keys.Down, keys.Start, widget.Global.Back, widget.Global.Help}
}

func (h mockHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{keys.Up, keys.Down, keys.Start},
		{keys.Tick, keys.TickN, keys.NextPhase, keys.Pause},
		{keys.Again, widget.Global.Back, widget.Global.Help, widget.Global.Quit},
	}
}
