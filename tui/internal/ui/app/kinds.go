package app

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
)

// entry is one screen of the registry (screens.go).
type entry struct {
	menu  menu.Entry // its kind, its row and key on the menu, its chapter
	label string     // its chapter's link's label
	is    func(screen.Screen) bool
	make  func(m Model) screen.Screen
	open  func(m Model, s screen.Screen, l screen.Link) (screen.Screen, tea.Cmd)
}

// reg is the entry of a screen of type S: made by build, and, if open is
// not nil, readied by it each time a link opens it.
func reg[S screen.Screen](e menu.Entry, chapter int, label string, build func(Model) S,
	open func(Model, S, screen.Link) (S, tea.Cmd)) entry {
	e.Chapter = chapter
	return entry{
		menu: e, label: label,
		is:   func(s screen.Screen) bool { _, ok := s.(S); return ok },
		make: func(m Model) screen.Screen { return build(m) },
		open: func(m Model, s screen.Screen, l screen.Link) (screen.Screen, tea.Cmd) {
			if open == nil {
				return s, nil
			}
			return open(m, s.(S), l)
		},
	}
}

// registered is the registry's entry for kind k.
func registered(k screen.Kind) (entry, bool) {
	for _, e := range screens {
		if e.menu.Kind == k {
			return e, true
		}
	}
	return entry{}, false
}

// kindOf is the Kind the app finds a screen by, from its type, so that a
// screen's display label (Name) can change without breaking navigation.
// The menu and a chapter are None: the menu is always the stack's bottom,
// and a chapter opened is always a new screen.
func kindOf(s screen.Screen) screen.Kind {
	for _, e := range screens {
		if e.is(s) {
			return e.menu.Kind
		}
	}
	return screen.None
}

// menuEntries are the registry's screens as the menu lists them.
func menuEntries() []menu.Entry {
	out := make([]menu.Entry, len(screens))
	for i, e := range screens {
		out[i] = e.menu
	}
	return out
}

// offers are the screens chapter num links to, in the registry's order
// (course.Offers).
func offers(num int) []screen.Link {
	var out []screen.Link
	for _, e := range screens {
		if e.menu.Chapter == num {
			out = append(out, screen.Link{View: e.menu.Kind, Scenario: -1, Label: e.label})
		}
	}
	return out
}
