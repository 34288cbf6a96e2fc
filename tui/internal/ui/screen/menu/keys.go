package menu

import (
	"cmp"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the chapter list, then one key per screen of the app's registry
// (Screens, in the menu's order).
type keyMap struct {
	Up, Down, Open, Jump, Filter, Progress key.Binding
	Screens                                []key.Binding
	footer                                 []key.Binding // the screens' keys the footer shows
}

var keys = keyMap{
	Up:       widget.Bind([]string{"up", "k"}, "↑/k", "up"),
	Down:     widget.Bind([]string{"down", "j"}, "↓/j", "down"),
	Open:     widget.Bind([]string{"enter"}, "enter", "open"),
	Jump:     widget.Bind([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}, "1-9 0", "chapter (0 is 10)"),
	Filter:   widget.Bind([]string{"/"}, "/", "filter"),
	Progress: widget.Bind([]string{"ctrl+r"}, "ctrl+r", "reset saved progress"),
}

// withScreens is the key map with the registry's screens' keys: in the ?
// sheet by chapter, the screens of no chapter last; in the footer, those
// with a place there.
func (k keyMap) withScreens(entries []Entry) keyMap {
	k.Screens, k.footer = nil, nil
	byChapter := slices.Clone(entries)
	last := func(e Entry) int { // no chapter: after every chapter
		if e.Chapter == 0 {
			return 1 << 30
		}
		return e.Chapter
	}
	slices.SortStableFunc(byChapter, func(a, b Entry) int { return cmp.Compare(last(a), last(b)) })
	for _, e := range byChapter {
		k.Screens = append(k.Screens, widget.Bind([]string{e.Key}, e.Key, e.Help))
	}
	for place := 1; place <= len(entries); place++ {
		for _, e := range entries {
			if e.Footer == place {
				k.footer = append(k.footer, widget.Bind([]string{e.Key}, e.Key, e.Help))
			}
		}
	}
	return k
}

func (k keyMap) ShortHelp() []key.Binding {
	out := []key.Binding{k.Open, k.Jump, k.Filter}
	return append(append(out, k.footer...), widget.Global.Help, widget.Global.Quit)
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Open, k.Jump, k.Filter},
		k.Screens,
		{k.Progress, widget.Global.Help, widget.Global.Back, widget.Global.Quit},
	}
}
