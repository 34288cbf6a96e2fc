package widget

import (
	"github.com/charmbracelet/bubbles/key"
)

// Every key of the course is declared here once, as a key.Binding in the
// keyMap of the screen it belongs to. The footer's short help and the ?
// sheet are help.Model's rendering of these maps; the screens match keys
// with key.Matches against the same bindings.

func Bind(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// KeyName is how a binding's key is written in a sentence on screen.
func KeyName(b key.Binding) string { return b.Help().Key }

// KeyHint is "key desc", as the help line writes a binding.
func KeyHint(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }

// GlobalKeyMap holds the keys that work on every screen (q and ? are text
// while a field is edited).
type GlobalKeyMap struct {
	Quit, ForceQuit, Help, Back key.Binding
}

var Global = GlobalKeyMap{
	Quit:      Bind([]string{"q"}, "q", "quit"),
	ForceQuit: Bind([]string{"ctrl+c"}, "ctrl+c", "quit"),
	Help:      Bind([]string{"?"}, "?", "all keys"),
	Back:      Bind([]string{"esc"}, "esc", "back"),
}

// StepKeyMap holds the keys that move a cursor over positions (lab
// requests, prefetch steps).
type StepKeyMap struct {
	Prev, Next, First, Last, Play key.Binding
}

var Step = StepKeyMap{
	Prev:  Bind([]string{"left", "h"}, "←", "previous"),
	Next:  Bind([]string{"right", "l"}, "→", "next"),
	First: Bind([]string{"home", "g"}, "home", "first"),
	Last:  Bind([]string{"end", "G"}, "end", "last"),
	Play:  Bind([]string{" "}, "space", "play/pause"),
}

// FormKeyMap holds the keys that move between the fields of a form while
// one is edited.
type FormKeyMap struct {
	NextField, PrevField, Done, Cancel key.Binding
}

var FormKeys = FormKeyMap{
	NextField: Bind([]string{"tab", "down"}, "tab/↓", "next field"),
	PrevField: Bind([]string{"shift+tab", "up"}, "↑", "previous field"),
	Done:      Bind([]string{"enter"}, "enter", "keep"),
	Cancel:    Bind([]string{"esc"}, "esc", "cancel the edit"),
}

func (k FormKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextField, k.PrevField, k.Done, k.Cancel}
}

func (k FormKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
