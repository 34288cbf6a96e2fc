package reader

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: reading a chapter. Links are the chapter's worked examples
// and views, one number key each (built per chapter).
type keyMap struct {
	Up, Down, PageDown, PageUp, Left, Right, Top, Bottom, Next, Prev key.Binding
	NextSection, PrevSection                                         key.Binding
	Links                                                            []key.Binding
}

var keys = keyMap{
	Up:       widget.Bind([]string{"up", "k"}, "↑", "up"),
	Down:     widget.Bind([]string{"down", "j"}, "↓", "down"),
	PageDown: widget.Bind([]string{"pgdown", " ", "f"}, "space", "page down"),
	PageUp:   widget.Bind([]string{"pgup", "b"}, "b", "page up"),
	Left:     widget.Bind([]string{"left", "h"}, "←", "scroll left"),
	Right:    widget.Bind([]string{"right", "l"}, "→", "scroll right (wide code)"),
	Top:      widget.Bind([]string{"home", "g"}, "g", "top"),
	Bottom:   widget.Bind([]string{"end", "G"}, "G", "bottom"),
	Next:     widget.Bind([]string{"n", "tab"}, "n/tab", "next chapter"),
	Prev:     widget.Bind([]string{"N", "shift+tab"}, "N/shift+tab", "previous chapter"),
	// A chapter runs to hundreds of lines: its headings are the way through.
	NextSection: widget.Bind([]string{"]", "}"}, "]", "next section"),
	PrevSection: widget.Bind([]string{"[", "{"}, "[", "previous section"),
}

// withLinks is the map for a chapter whose links are labels: enter and 1
// open the first, 2–9 the others.
func (k keyMap) withLinks(labels []string) keyMap {
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
		k.Links = append(k.Links, widget.Bind(keys, help, l))
	}
	return k
}

func (k keyMap) ShortHelp() []key.Binding {
	out := append([]key.Binding{}, k.Links[:min(len(k.Links), 3)]...)
	return append(out, k.PageDown, widget.Global.Back, widget.Global.Help, k.Next)
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageDown, k.PageUp, k.Top, k.Bottom},
		{k.NextSection, k.PrevSection, k.Left, k.Right, k.Next, k.Prev},
		append(append([]key.Binding{}, k.Links...), widget.Global.Back, widget.Global.Help, widget.Global.Quit),
	}
}
