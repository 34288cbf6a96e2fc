package plan

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: a plan's steps.
type keyMap struct {
	Up, Down, Open, Switch, Mark key.Binding
}

var keys = keyMap{
	Up:     widget.Bind([]string{"up", "k"}, "↑", "previous step"),
	Down:   widget.Bind([]string{"down", "j"}, "↓", "next step"),
	Open:   widget.Bind([]string{"enter"}, "enter", "open the step"),
	Switch: widget.Bind([]string{"tab"}, "tab", "other plan"),
	Mark:   widget.Bind([]string{"x"}, "x", "exercise written"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Open, k.Switch, k.Mark, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open, k.Switch, k.Mark}, {widget.Global.Back, widget.Global.Help, widget.Global.Quit}}
}
