package main

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
)

// Every key of the course is declared here once, as a key.Binding in the
// keyMap of the screen it belongs to. The footer's short help and the ?
// sheet are help.Model's rendering of these maps; the screens match keys
// with key.Matches against the same bindings.

func bind(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// keyName is how a binding's key is written in a sentence on screen.
func keyName(b key.Binding) string { return b.Help().Key }

// keyHint is "key desc", as the help line writes a binding.
func keyHint(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }

// globalKeys work on every screen (q and ? are text while a field is edited).
type globalKeys struct {
	Quit, ForceQuit, Help, Back key.Binding
}

var gkeys = globalKeys{
	Quit:      bind([]string{"q"}, "q", "quit"),
	ForceQuit: bind([]string{"ctrl+c"}, "ctrl+c", "quit"),
	Help:      bind([]string{"?"}, "?", "all keys"),
	Back:      bind([]string{"esc"}, "esc", "back"),
}

// menuKeys: the chapter list.
type menuKeys struct {
	Up, Down, Open, Jump, Filter                         key.Binding
	Lab, Worst, Prefetch, Cluster, Drill, Mock, Progress key.Binding
}

var mkeys = menuKeys{
	Up:       bind([]string{"up", "k"}, "↑/k", "up"),
	Down:     bind([]string{"down", "j"}, "↓/j", "down"),
	Open:     bind([]string{"enter"}, "enter", "open"),
	Jump:     bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "chapter"),
	Filter:   bind([]string{"/"}, "/", "filter"),
	Lab:      bind([]string{"L"}, "L", "lab"),
	Worst:    bind([]string{"W"}, "W", "worst case"),
	Prefetch: bind([]string{"P"}, "P", "prefetch"),
	Cluster:  bind([]string{"C"}, "C", "the cluster"),
	Drill:    bind([]string{"D"}, "D", "drill"),
	Mock:     bind([]string{"M"}, "M", "mock interview"),
	Progress: bind([]string{"ctrl+r"}, "ctrl+r", "reset saved progress"),
}

func (k menuKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Jump, k.Filter, k.Lab, k.Mock, gkeys.Help, gkeys.Quit}
}

func (k menuKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Open, k.Jump, k.Filter},
		{k.Lab, k.Worst, k.Prefetch, k.Cluster, k.Drill, k.Mock},
		{k.Progress, gkeys.Help, gkeys.Back, gkeys.Quit},
	}
}

// chapterKeys: reading a chapter. Links are the chapter's worked examples
// and views, one number key each (built per chapter).
type chapterKeys struct {
	Up, Down, PageDown, PageUp, Left, Right, Top, Bottom, Next, Prev key.Binding
	Links                                                            []key.Binding
}

var ckeys = chapterKeys{
	Up:       bind([]string{"up", "k"}, "↑", "up"),
	Down:     bind([]string{"down", "j"}, "↓", "down"),
	PageDown: bind([]string{"pgdown", " ", "f"}, "space", "page down"),
	PageUp:   bind([]string{"pgup", "b"}, "b", "page up"),
	Left:     bind([]string{"left", "h"}, "←", "scroll left"),
	Right:    bind([]string{"right", "l"}, "→", "scroll right (wide code)"),
	Top:      bind([]string{"home", "g"}, "g", "top"),
	Bottom:   bind([]string{"end", "G"}, "G", "bottom"),
	Next:     bind([]string{"n", "tab"}, "n", "next chapter"),
	Prev:     bind([]string{"N", "shift+tab"}, "N", "previous chapter"),
}

// withLinks is the map for a chapter whose links are labels: enter and 1
// open the first, 2–9 the others.
func (k chapterKeys) withLinks(labels []string) chapterKeys {
	k.Links = nil
	for i, l := range labels {
		if i >= 9 {
			break
		}
		keys := []string{fmt.Sprint(i + 1)}
		help := fmt.Sprint(i + 1)
		if i == 0 {
			keys, help = []string{"enter", "1"}, "enter"
		}
		k.Links = append(k.Links, bind(keys, help, l))
	}
	return k
}

func (k chapterKeys) ShortHelp() []key.Binding {
	out := append([]key.Binding{}, k.Links[:min(len(k.Links), 3)]...)
	return append(out, k.PageDown, gkeys.Back, gkeys.Help, k.Next)
}

func (k chapterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageDown, k.PageUp, k.Top, k.Bottom},
		{k.Left, k.Right, k.Next, k.Prev},
		append(append([]key.Binding{}, k.Links...), gkeys.Back, gkeys.Help, gkeys.Quit),
	}
}

// stepKeys move a cursor over positions (lab requests, prefetch steps).
type stepKeys struct {
	Prev, Next, First, Last, Play key.Binding
}

var skeys = stepKeys{
	Prev:  bind([]string{"left", "h"}, "←", "previous"),
	Next:  bind([]string{"right", "l"}, "→", "next"),
	First: bind([]string{"home", "g"}, "home", "first"),
	Last:  bind([]string{"end", "G"}, "end", "last"),
	Play:  bind([]string{" "}, "space", "play/pause"),
}

// formKeys move between the fields of a form while one is edited.
type formKeys struct {
	NextField, PrevField, Done, Cancel key.Binding
}

var fkeys = formKeys{
	NextField: bind([]string{"tab", "down"}, "tab/↓", "next field"),
	PrevField: bind([]string{"shift+tab", "up"}, "↑", "previous field"),
	Done:      bind([]string{"enter"}, "enter", "keep"),
	Cancel:    bind([]string{"esc"}, "esc", "cancel the edit"),
}

func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.NextField, k.PrevField, k.Done, k.Cancel}
}

func (k formKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// labKeys: the chapter 05 lab.
type labKeys struct {
	ZoomIn, ZoomOut, ZoomReset                             key.Binding
	Scenario, ScenarioBack                                 key.Binding
	LeftAlgo, LeftAlgoBack, RightAlgo, RightAlgoBack, Swap key.Binding
	Edit, Fields, Arrivals, Worst, Path                    key.Binding
}

var lkeys = labKeys{
	ZoomIn:        bind([]string{"+", "="}, "+", "zoom in"),
	ZoomOut:       bind([]string{"-"}, "-", "zoom out"),
	ZoomReset:     bind([]string{"0"}, "0", "whole run"),
	Scenario:      bind([]string{"s"}, "s", "next scenario"),
	ScenarioBack:  bind([]string{"S"}, "S", "previous scenario"),
	LeftAlgo:      bind([]string{"a"}, "a", "left algorithm"),
	LeftAlgoBack:  bind([]string{"A"}, "A", "left, back"),
	RightAlgo:     bind([]string{"b"}, "b", "right algorithm"),
	RightAlgoBack: bind([]string{"B"}, "B", "right, back"),
	Swap:          bind([]string{"x"}, "x", "swap sides"),
	Edit:          bind([]string{"e", "tab"}, "e", "edit"),
	Fields:        bind([]string{"W", "L", "C", "R", "N"}, "W L C R N", "edit that field"),
	Arrivals:      bind([]string{"t"}, "t", "edit the arrival times"),
	Worst:         bind([]string{"w"}, "w", "worst case"),
	Path:          bind([]string{"i"}, "i", "suggested path (chapter 05)"),
}

func (k labKeys) ShortHelp() []key.Binding {
	return []key.Binding{skeys.Next, skeys.Play, k.Scenario, k.LeftAlgo, k.Edit, k.ZoomIn, k.Worst, gkeys.Back, gkeys.Help}
}

func (k labKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{skeys.Prev, skeys.Next, skeys.First, skeys.Last, skeys.Play},
		{k.ZoomIn, k.ZoomOut, k.ZoomReset, k.Scenario, k.ScenarioBack},
		{k.LeftAlgo, k.LeftAlgoBack, k.RightAlgo, k.RightAlgoBack, k.Swap},
		{k.Edit, k.Fields, k.Arrivals, k.Worst, k.Path},
		{fkeys.NextField, fkeys.Done, fkeys.Cancel, gkeys.Back, gkeys.Quit},
	}
}

// worstKeys: the worst-case search table.
type worstKeys struct {
	Up, Down, Load, SearchAll key.Binding
}

var wkeys = worstKeys{
	Up:        bind([]string{"up", "k"}, "↑", "up"),
	Down:      bind([]string{"down", "j"}, "↓", "down"),
	Load:      bind([]string{"enter"}, "enter", "load into the lab"),
	SearchAll: bind([]string{"r"}, "r", "search every algorithm"),
}

func (k worstKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Load, k.SearchAll, gkeys.Back, gkeys.Help}
}

func (k worstKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Load, k.SearchAll}, {gkeys.Back, gkeys.Help, gkeys.Quit}}
}

// pfKeys: the chapter 06 prefetch lab.
type pfKeys struct {
	Edit, Nodes, PerNode, Limit, Batch, RTT, Order, BatchToggle key.Binding
}

var pkeys = pfKeys{
	Edit:        bind([]string{"e", "tab"}, "e", "edit"),
	Nodes:       bind([]string{"n"}, "n", "nodes"),
	PerNode:     bind([]string{"p"}, "p", "requests per node"),
	Limit:       bind([]string{"L"}, "L", "limit"),
	Batch:       bind([]string{"b"}, "b", "batch"),
	RTT:         bind([]string{"r"}, "r", "round trip ms"),
	Order:       bind([]string{"o"}, "o", "arrival order"),
	BatchToggle: bind([]string{"1"}, "1", "batch 1 ↔ 8"),
}

func (k pfKeys) ShortHelp() []key.Binding {
	return []key.Binding{skeys.Next, skeys.Play, k.Edit, k.RTT, k.BatchToggle, gkeys.Back, gkeys.Help}
}

func (k pfKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{skeys.Prev, skeys.Next, skeys.First, skeys.Last, skeys.Play},
		{k.Edit, k.Nodes, k.PerNode, k.Limit, k.Batch, k.RTT, k.Order},
		{k.BatchToggle, fkeys.Done, fkeys.Cancel, gkeys.Back, gkeys.Quit},
	}
}

// clusterKeys: chapter 06's run on a real Redis Cluster.
type clusterKeys struct {
	Prev, Next, Part, Again, Stop key.Binding
}

var xkeys = clusterKeys{
	Prev:  bind([]string{"left", "h", "shift+tab"}, "←", "previous part"),
	Next:  bind([]string{"right", "l", "tab"}, "→", "next part"),
	Part:  bind([]string{"1", "2", "3"}, "1-3", "that part"),
	Again: bind([]string{"r"}, "r", "run again"),
	Stop:  bind([]string{"esc"}, "esc", "stop the cluster, back"), // gkeys.Back while a run is under way
}

// clusterHelp is the cluster screen's map, running or not.
type clusterHelp struct{ running bool }

func (h clusterHelp) ShortHelp() []key.Binding {
	if h.running {
		return []key.Binding{xkeys.Next, xkeys.Part, xkeys.Stop, gkeys.Help}
	}
	return []key.Binding{xkeys.Next, xkeys.Part, xkeys.Again, gkeys.Back, gkeys.Help}
}

func (h clusterHelp) FullHelp() [][]key.Binding {
	back := gkeys.Back
	if h.running {
		back = xkeys.Stop
	}
	return [][]key.Binding{{xkeys.Prev, xkeys.Next, xkeys.Part}, {xkeys.Again, back, gkeys.Help, gkeys.Quit}}
}

// drillKeys: the question cards, scored.
type drillKeys struct {
	Reveal, Got, Missed, Next, Prev, NextChapter key.Binding
}

var dkeys = drillKeys{
	Reveal:      bind([]string{" ", "enter"}, "space", "show the answer"),
	Got:         bind([]string{"y"}, "y", "got it"),
	Missed:      bind([]string{"m"}, "m", "missed it"),
	Next:        bind([]string{"right", "l"}, "→", "next card"),
	Prev:        bind([]string{"left", "h"}, "←", "previous card"),
	NextChapter: bind([]string{"c"}, "c", "next chapter's cards"),
}

func (k drillKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Reveal, k.Got, k.Missed, k.Next, gkeys.Back, gkeys.Help}
}

func (k drillKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Reveal, k.Got, k.Missed}, {k.Next, k.Prev, k.NextChapter}, {gkeys.Back, gkeys.Help, gkeys.Quit}}
}

// mockKeys: the timed mock interview.
type mockKeys struct {
	Up, Down, Start, Tick, TickN, NextPhase, Pause, Again key.Binding
}

var okeys = mockKeys{
	Up:        bind([]string{"up", "k"}, "↑", "up"),
	Down:      bind([]string{"down", "j"}, "↓", "down"),
	Start:     bind([]string{"enter"}, "enter", "start"),
	Tick:      bind([]string{" ", "x"}, "space", "tick the point"),
	TickN:     bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "tick point N"),
	NextPhase: bind([]string{"n"}, "n", "next phase now"),
	Pause:     bind([]string{"p"}, "p", "pause the clock"),
	Again:     bind([]string{"r"}, "r", "same question again"),
}

// mockHelp is the mock interview's map in one of its three states.
type mockHelp struct{ state mockState }

func (h mockHelp) ShortHelp() []key.Binding {
	switch h.state {
	case mockRunning:
		return []key.Binding{okeys.TickN, okeys.Tick, okeys.NextPhase, okeys.Pause, gkeys.Back, gkeys.Help}
	case mockDone:
		return []key.Binding{okeys.Again, gkeys.Back, gkeys.Help}
	}
	return []key.Binding{okeys.Down, okeys.Start, gkeys.Back, gkeys.Help}
}

func (h mockHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{okeys.Up, okeys.Down, okeys.Start},
		{okeys.Tick, okeys.TickN, okeys.NextPhase, okeys.Pause},
		{okeys.Again, gkeys.Back, gkeys.Help, gkeys.Quit},
	}
}
