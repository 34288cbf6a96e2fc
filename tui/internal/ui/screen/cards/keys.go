package cards

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the question cards, scored.
type keyMap struct {
	Reveal, Got, Missed, Next, Prev, NextChapter, Again key.Binding
	end                                                 bool // the end of the deck: only again and back work
}

var keys = keyMap{
	Reveal:      widget.Bind([]string{" ", "enter"}, "space", "reveal"),
	Got:         widget.Bind([]string{"y"}, "y", "got it"),
	Missed:      widget.Bind([]string{"m"}, "m", "missed it"),
	Next:        widget.Bind([]string{"right", "l"}, "→", "next card"),
	Prev:        widget.Bind([]string{"left", "h"}, "←", "previous card"),
	NextChapter: widget.Bind([]string{"c"}, "c", "next chapter's cards"),
	Again:       widget.Bind([]string{"r"}, "r", "deal the deck again"),
}

func (k keyMap) ShortHelp() []key.Binding {
	if k.end {
		return []key.Binding{k.Again, k.Prev, widget.Global.Back, widget.Global.Help}
	}
	return []key.Binding{k.Reveal, k.Got, k.Missed, k.Next, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Reveal, k.Got, k.Missed}, {k.Next, k.Prev, k.NextChapter, k.Again}, {widget.Global.Back, widget.Global.Help, widget.Global.Quit}}
}
