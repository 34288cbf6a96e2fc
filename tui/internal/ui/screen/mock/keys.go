package mock

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the timed mock interview.
type keyMap struct {
	Up, Down, Start, Form, Tick, TickN, NextPhase, Pause, Again key.Binding
	Path, Strong, NextPush, PrevPush                            key.Binding
	Notes, DoneTyping, GoOn, Push                               key.Binding
}

var keys = keyMap{
	Up:        widget.Bind([]string{"up", "k"}, "↑", "up"),
	Down:      widget.Bind([]string{"down", "j"}, "↓", "down"),
	Start:     widget.Bind([]string{"enter"}, "enter", "start"),
	Form:      widget.Bind([]string{"f"}, "f", "45 or 15 minutes"),
	Tick:      widget.Bind([]string{" ", "x"}, "space", "tick the point"),
	TickN:     widget.Bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "tick point N"),
	NextPhase: widget.Bind([]string{"n"}, "n", "next phase now"),
	Pause:     widget.Bind([]string{"p"}, "p", "pause the clock"),
	Again:     widget.Bind([]string{"r"}, "r", "same question again"),
	Path:      widget.Bind([]string{"d"}, "d", "the request path"),
	Strong:    widget.Bind([]string{"a"}, "a", "a strong answer"),
	NextPush:  widget.Bind([]string{"right", "l"}, "→", "next pushback"),
	PrevPush:  widget.Bind([]string{"left", "h"}, "←", "previous"),
	// tab opens the phase's notes (the answer to the pushback shown, after b);
	// while they are open every other key is text.
	Notes:      widget.Bind([]string{"tab"}, "tab", "notes"),
	DoneTyping: widget.Bind([]string{"tab", "esc"}, "tab/esc", "done writing"),
	GoOn:       widget.Bind([]string{"enter", "n"}, "enter", "next phase"),
	Push:       widget.Bind([]string{"b"}, "b", "pushback"),
}

// mockHelp is the mock interview's map in one of its states: choosing,
// on the clock (a plain phase, the design phase with its diagram, the
// diagram shown, the pushback), or done.
type mockHelp struct {
	state  State
	kind   phaseKind
	path   bool // the request path is shown
	typing bool // the notes field has the keyboard
	push   bool // the phase has pushback to show (b)
}

func (h mockHelp) ShortHelp() []key.Binding {
	switch h.state {
	case OnClock:
		switch {
		case h.typing:
			return []key.Binding{keys.DoneTyping}
		case h.path:
			return []key.Binding{keys.Down, keys.Up, keys.Path, keys.Pause, widget.Global.Back, widget.Global.Help}
		case h.kind == designPhase:
			return []key.Binding{keys.Notes, keys.Push, keys.Path, keys.TickN, keys.NextPhase, keys.Pause, widget.Global.Back, widget.Global.Help}
		case h.kind == pushbackPhase:
			return []key.Binding{keys.Notes, keys.Strong, keys.Tick, keys.NextPush, keys.Push, keys.NextPhase, widget.Global.Back, widget.Global.Help}
		case h.push:
			return []key.Binding{keys.Notes, keys.Push, keys.TickN, keys.NextPhase, keys.Pause, widget.Global.Back, widget.Global.Help}
		}
		return []key.Binding{keys.Notes, keys.TickN, keys.Tick, keys.NextPhase, keys.Pause, widget.Global.Back, widget.Global.Help}
	case Between:
		return []key.Binding{keys.GoOn, keys.Down, keys.Up, widget.Global.Back, widget.Global.Help}
	case Done:
		return []key.Binding{keys.Down, keys.Again, widget.Global.Back, widget.Global.Help}
	}
	return []key.Binding{keys.Down, keys.Start, keys.Form, widget.Global.Back, widget.Global.Help}
}

func (h mockHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{keys.Up, keys.Down, keys.Start, keys.Form},
		{keys.Notes, keys.DoneTyping, keys.GoOn},
		{keys.Tick, keys.TickN, keys.NextPhase, keys.Pause},
		{keys.Path, keys.Push, keys.Strong, keys.NextPush, keys.PrevPush},
		{keys.Again, widget.Global.Back, widget.Global.Help, widget.Global.Quit},
	}
}
