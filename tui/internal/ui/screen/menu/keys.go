package menu

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the chapter list.
type keyMap struct {
	Up, Down, Open, Jump, Filter                               key.Binding
	Lab, Worst, Prefetch, Cluster, Drill, Mock, Path, Progress key.Binding
	Service, Plan, Ready                                       key.Binding
}

var keys = keyMap{
	Up:       widget.Bind([]string{"up", "k"}, "↑/k", "up"),
	Down:     widget.Bind([]string{"down", "j"}, "↓/j", "down"),
	Open:     widget.Bind([]string{"enter"}, "enter", "open"),
	Jump:     widget.Bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}, "1-9 0", "chapter (0 is 10)"),
	Filter:   widget.Bind([]string{"/"}, "/", "filter"),
	Lab:      widget.Bind([]string{"L"}, "L", "lab"),
	Worst:    widget.Bind([]string{"W"}, "W", "worst case"),
	Prefetch: widget.Bind([]string{"P"}, "P", "prefetch"),
	Cluster:  widget.Bind([]string{"C"}, "C", "the cluster"),
	Drill:    widget.Bind([]string{"D"}, "D", "drill"),
	Mock:     widget.Bind([]string{"M"}, "M", "mock interview"),
	Path:     widget.Bind([]string{"R"}, "R", "the request path"),
	Progress: widget.Bind([]string{"ctrl+r"}, "ctrl+r", "reset saved progress"),
	Service:  widget.Bind([]string{"S"}, "S", "the service"),
	Plan:     widget.Bind([]string{"G"}, "G", "study plans"),
	Ready:    widget.Bind([]string{"Y"}, "Y", "ready?"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Jump, k.Filter, k.Lab, k.Mock, widget.Global.Help, widget.Global.Quit}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Open, k.Jump, k.Filter},
		{k.Lab, k.Worst, k.Prefetch, k.Cluster, k.Drill, k.Mock, k.Path, k.Service, k.Plan, k.Ready},
		{k.Progress, widget.Global.Help, widget.Global.Back, widget.Global.Quit},
	}
}
