package prefetch

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the chapter 06 prefetch lab.
type keyMap struct {
	Edit, Nodes, PerNode, Limit, Batch, RTT, Order, BatchToggle key.Binding
}

var keys = keyMap{
	Edit:        widget.Bind([]string{"e", "tab"}, "e", "edit"),
	Nodes:       widget.Bind([]string{"n"}, "n", "nodes"),
	PerNode:     widget.Bind([]string{"p"}, "p", "requests per node"),
	Limit:       widget.Bind([]string{"L"}, "L", "limit"),
	Batch:       widget.Bind([]string{"b"}, "b", "batch"),
	RTT:         widget.Bind([]string{"r"}, "r", "round trip ms"),
	Order:       widget.Bind([]string{"o"}, "o", "arrival order"),
	BatchToggle: widget.Bind([]string{"1"}, "1", "batch 1 ↔ 8"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{widget.Step.Next, widget.Step.Play, k.Edit, k.RTT, k.BatchToggle, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{widget.Step.Prev, widget.Step.Next, widget.Step.First, widget.Step.Last, widget.Step.Play},
		{k.Edit, k.Nodes, k.PerNode, k.Limit, k.Batch, k.RTT, k.Order},
		{k.BatchToggle, widget.FormKeys.Done, widget.FormKeys.Cancel, widget.Global.Back, widget.Global.Quit},
	}
}
