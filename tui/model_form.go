package main

import (
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// form is a row of text fields edited in place, shared by the lab and the
// prefetch screens: which field has the keyboard, each field's message, and
// the keys that move between fields. The screens embed it and decide what a
// field's text means (apply) and what the values in use are (values).
//
// Arrays, not slices: a copy of a screen's model is a separate value, as
// Bubble Tea models are meant to be.
type form struct {
	labels  []string // read only
	n       int
	inputs  [formMax]textinput.Model
	errs    [formMax]string // per field; "" when the field is valid
	editing bool
	focus   int
}

// formMax is the most fields a form has (the lab's six).
const formMax = 6

// newForm makes one empty field per label; charLimit bounds each.
func newForm(labels []string, charLimit func(field int) int) form {
	f := form{labels: labels, n: len(labels)}
	for i := 0; i < f.n; i++ {
		ti := textinput.New()
		ti.Prompt = ""
		ti.CharLimit = charLimit(i)
		f.inputs[i] = ti
	}
	return f
}

// setValues writes vals into the fields and clears their messages.
func (f *form) setValues(vals []string) {
	for i := 0; i < f.n; i++ {
		f.inputs[i].SetValue(vals[i])
		f.inputs[i].CursorEnd()
	}
	f.clearErrs()
}

func (f *form) clearErrs() { f.errs = [formMax]string{} }

// firstErr is the first field with a message, or -1.
func (f *form) firstErr() int {
	for i := 0; i < f.n; i++ {
		if f.errs[i] != "" {
			return i
		}
	}
	return -1
}

func (f *form) value(i int) string { return f.inputs[i].Value() }

// start gives field i the keyboard.
func (f *form) start(i int) {
	f.editing, f.focus = true, i
	for j := 0; j < f.n; j++ {
		f.inputs[j].Blur()
	}
	f.inputs[i].Focus()
	f.inputs[i].CursorEnd()
}

// stop takes the keyboard back. A field still invalid goes back to the
// value in use (values), so the row shows what the screen runs; the
// returned note says what was kept and why, or is "".
func (f *form) stop(values []string, long int, inUse string) string {
	f.editing = false
	for j := 0; j < f.n; j++ {
		f.inputs[j].Blur()
	}
	i := f.firstErr()
	if i < 0 {
		return ""
	}
	kept := f.labels[i] + " " + values[i]
	if i == long {
		kept = inUse
	}
	note := "kept " + kept + " (" + f.errs[i] + ")"
	f.setValues(values)
	return note
}

// key handles a key while editing: esc / enter leave, tab / ↓ and
// shift+tab / ↑ move between fields, anything else edits the focused field.
// It reports whether the focused field's text changed and whether editing
// ended.
func (f *form) key(msg tea.KeyMsg) (changed, done bool) {
	n := f.n
	switch msg.String() {
	case "esc", "enter":
		return false, true
	case "tab", "down":
		f.start((f.focus + 1) % n)
		return false, false
	case "shift+tab", "up":
		f.start((f.focus + n - 1) % n)
		return false, false
	}
	before := f.inputs[f.focus].Value()
	f.inputs[f.focus], _ = f.inputs[f.focus].Update(msg)
	return f.inputs[f.focus].Value() != before, false
}
