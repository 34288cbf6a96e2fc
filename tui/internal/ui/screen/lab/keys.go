package lab

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the chapter 05 lab.
type keyMap struct {
	ZoomIn, ZoomOut, ZoomReset                             key.Binding
	Scenario, ScenarioBack                                 key.Binding
	LeftAlgo, LeftAlgoBack, RightAlgo, RightAlgoBack, Swap key.Binding
	Edit, Fields, Arrivals, Worst, Path                    key.Binding
}

var keys = keyMap{
	ZoomIn:        widget.Bind([]string{"+", "="}, "+", "zoom in"),
	ZoomOut:       widget.Bind([]string{"-"}, "-", "zoom out"),
	ZoomReset:     widget.Bind([]string{"0"}, "0", "whole run"),
	Scenario:      widget.Bind([]string{"s"}, "s", "next scenario"),
	ScenarioBack:  widget.Bind([]string{"S"}, "S", "previous scenario"),
	LeftAlgo:      widget.Bind([]string{"a"}, "a", "left algorithm"),
	LeftAlgoBack:  widget.Bind([]string{"A"}, "A", "left, back"),
	RightAlgo:     widget.Bind([]string{"b"}, "b", "right algorithm"),
	RightAlgoBack: widget.Bind([]string{"B"}, "B", "right, back"),
	Swap:          widget.Bind([]string{"x"}, "x", "swap sides"),
	Edit:          widget.Bind([]string{"e", "tab"}, "e", "edit"),
	Fields:        widget.Bind([]string{"W", "L", "C", "R", "N"}, "W L C R N", "edit that field"),
	Arrivals:      widget.Bind([]string{"t"}, "t", "edit the arrival times"),
	Worst:         widget.Bind([]string{"w"}, "w", "worst case"),
	Path:          widget.Bind([]string{"i"}, "i", "suggested path (chapter 05)"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{widget.Step.Next, widget.Step.Play, k.Scenario, k.LeftAlgo, k.Edit, k.ZoomIn, k.Worst, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{widget.Step.Prev, widget.Step.Next, widget.Step.First, widget.Step.Last, widget.Step.Play},
		{k.ZoomIn, k.ZoomOut, k.ZoomReset, k.Scenario, k.ScenarioBack},
		{k.LeftAlgo, k.LeftAlgoBack, k.RightAlgo, k.RightAlgoBack, k.Swap},
		{k.Edit, k.Fields, k.Arrivals, k.Worst, k.Path},
		{widget.FormKeys.NextField, widget.FormKeys.Done, widget.FormKeys.Cancel, widget.Global.Back, widget.Global.Quit},
	}
}
