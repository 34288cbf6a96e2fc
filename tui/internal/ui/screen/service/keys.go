package service

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the service screen.
type keyMap struct {
	Send, Request, Example, Traffic, Run, Step, Second, Finish, Outage, Rules, Config key.Binding
	Up, Down                                                                          key.Binding
}

var keys = keyMap{
	Send:    widget.Bind([]string{"enter"}, "enter", "send"),
	Request: widget.Bind([]string{"e"}, "e", "request"),
	Example: widget.Bind([]string{"p"}, "p", "next example request"),
	Traffic: widget.Bind([]string{"t"}, "t", "edit traffic"),
	Run:     widget.Bind([]string{"r"}, "r", "run traffic"),
	Step:    widget.Bind([]string{"right", "l"}, "→", "+0.1 s"),
	Second:  widget.Bind([]string{"]"}, "]", "clock +1 s"),
	Finish:  widget.Bind([]string{"end", "G"}, "end", "traffic to its end"),
	Outage:  widget.Bind([]string{"x"}, "x", "store down/up"),
	Rules:   widget.Bind([]string{"v"}, "v", "rules"),
	Config:  widget.Bind([]string{"c"}, "c", "load a rules file"),
	Up:      widget.Bind([]string{"up", "k"}, "↑", "rules up"),
	Down:    widget.Bind([]string{"down", "j"}, "↓", "rules down"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Request, k.Run, k.Step, k.Outage, k.Rules}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Request, k.Example, k.Rules, k.Config, k.Up, k.Down},
		{k.Traffic, k.Run, k.Step, k.Second, k.Finish},
		{k.Outage, widget.FormKeys.NextField, widget.FormKeys.Done, widget.FormKeys.Cancel},
		{widget.Global.Back, widget.Global.Help, widget.Global.Quit},
	}
}
