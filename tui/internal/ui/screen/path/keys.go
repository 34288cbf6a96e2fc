package path

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the request path, scrolled.
type keyMap struct {
	Up, Down, PageUp, PageDown key.Binding
}

var keys = keyMap{
	Up:       widget.Bind([]string{"up", "k"}, "↑", "scroll up"),
	Down:     widget.Bind([]string{"down", "j"}, "↓", "scroll down"),
	PageUp:   widget.Bind([]string{"pgup", "b"}, "pgup", "page up"),
	PageDown: widget.Bind([]string{"pgdown", " ", "f"}, "pgdn", "page down"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Up, k.PageDown, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {widget.Global.Back, widget.Global.Help, widget.Global.Quit}}
}
