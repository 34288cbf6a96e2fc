package worst

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the worst-case search table.
type keyMap struct {
	Up, Down, Load, SearchAll key.Binding
}

var keys = keyMap{
	Up:        widget.Bind([]string{"up", "k"}, "↑", "up"),
	Down:      widget.Bind([]string{"down", "j"}, "↓", "down"),
	Load:      widget.Bind([]string{"enter"}, "enter", "load into the lab"),
	SearchAll: widget.Bind([]string{"r"}, "r", "search every algorithm"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Load, k.SearchAll, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Load, k.SearchAll}, {widget.Global.Back, widget.Global.Help, widget.Global.Quit}}
}
