package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/core"
)

// form is a row of text fields edited in place, shared by the lab and the
// prefetch screens: which field has the keyboard, each field's message, and
// what esc goes back to. The screens embed it and decide what a field's text
// means; each keystroke that leaves the fields valid re-runs the screen.
//
// Arrays, not slices: a copy of a screen's model is a separate value, as
// Bubble Tea models are meant to be.
type form struct {
	spec    []fieldSpec // read only
	n       int
	inputs  [formMax]textinput.Model
	errs    [formMax]string // per field; "" when the field is valid
	before  [formMax]string // the texts when editing started: esc restores them
	editing bool
	focus   int
}

// fieldSpec is one field: its label on screen, the parameter name the
// engines use in their errors, and one line on what it means.
type fieldSpec struct {
	label, param, about string
	limit               int    // characters
	empty               string // shown, dimmed, for a blank value
}

// formMax is the most fields a form has (six in the lab and the prefetch lab).
const formMax = 6

func newForm(spec []fieldSpec) form {
	f := form{spec: spec, n: len(spec)}
	for i, s := range spec {
		ti := textinput.New()
		ti.Prompt = ""
		ti.CharLimit = s.limit
		ti.Cursor.SetMode(cursor.CursorStatic)
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
	f.errs = [formMax]string{}
}

func (f *form) value(i int) string { return strings.TrimSpace(f.inputs[i].Value()) }

func (f *form) values() []string {
	out := make([]string, f.n)
	for i := range out {
		out[i] = f.inputs[i].Value()
	}
	return out
}

// firstErr is the first field with a message, or -1.
func (f *form) firstErr() int {
	for i := 0; i < f.n; i++ {
		if f.errs[i] != "" {
			return i
		}
	}
	return -1
}

// start gives field i the keyboard; the texts as they are now are what esc
// goes back to.
func (f *form) start(i int) {
	if !f.editing {
		for j := 0; j < f.n; j++ {
			f.before[j] = f.inputs[j].Value()
		}
	}
	f.focusOn(i)
}

func (f *form) focusOn(i int) {
	f.editing, f.focus = true, i
	for j := 0; j < f.n; j++ {
		f.inputs[j].Blur()
	}
	f.inputs[i].Focus()
	f.inputs[i].CursorEnd()
}

func (f *form) stop() {
	f.editing = false
	for j := 0; j < f.n; j++ {
		f.inputs[j].Blur()
	}
}

// formEvent is what a key did to the form.
type formEvent int

const (
	formNothing   formEvent = iota
	formChanged             // the focused field's text changed
	formDone                // enter: keep what is typed
	formCancelled           // esc: the texts went back to before the edit
)

// key handles a key while editing.
func (f *form) key(msg tea.KeyMsg) formEvent {
	switch {
	case key.Matches(msg, fkeys.Done):
		f.stop()
		return formDone
	case key.Matches(msg, fkeys.Cancel):
		f.stop()
		for j := 0; j < f.n; j++ {
			f.inputs[j].SetValue(f.before[j])
		}
		f.errs = [formMax]string{}
		return formCancelled
	case key.Matches(msg, fkeys.NextField):
		f.focusOn((f.focus + 1) % f.n)
		return formNothing
	case key.Matches(msg, fkeys.PrevField):
		f.focusOn((f.focus + f.n - 1) % f.n)
		return formNothing
	}
	before := f.inputs[f.focus].Value()
	f.inputs[f.focus], _ = f.inputs[f.focus].Update(msg)
	if f.inputs[f.focus].Value() != before {
		return formChanged
	}
	return formNothing
}

// fieldError words a refused value the same way for every field:
// "W = 0 is not accepted: use a whole number of ms from 1 to 1e12".
// by names the algorithm when only one side refuses it.
func (f *form) fieldError(i int, value, accept, by string) string {
	who := ""
	if by != "" {
		who = " by " + by
	}
	return fmt.Sprintf("%s = %s is not accepted%s: use %s", f.spec[i].label, value, who, f.plainAccept(accept))
}

// plainAccept rewrites an engine's accepted range for the screen: the
// engines name command-line flags ("(--nodes)"), the screen names fields.
func (f *form) plainAccept(accept string) string {
	for _, s := range f.spec {
		accept = strings.ReplaceAll(accept, "(--"+s.param+")", "(the "+s.label+" field)")
		accept = strings.ReplaceAll(accept, "--"+s.param, s.label)
	}
	return accept
}

// paramError attaches an engine's *core.ParamError to the field it names
// (or to fallback) and reports which field that was.
func (f *form) paramError(err error, fallback int, by string) int {
	i := fallback
	var pe *core.ParamError
	if !errors.As(err, &pe) {
		f.errs[i] = f.spec[i].label + ": " + err.Error()
		return i
	}
	for j, s := range f.spec[:f.n] {
		if s.param == pe.Param {
			i = j
		}
	}
	f.errs[i] = f.fieldError(i, pe.Value, pe.Accept, by)
	return i
}

// row draws "label value  label value …" and returns each field's start
// column (where its message points). The focused field is the text input's
// own view; the long field gets the room left.
func (f *form) row(th *theme, w int) (string, []int) {
	starts := make([]int, f.n)
	var b strings.Builder
	x := 0
	for i := 0; i < f.n; i++ {
		if i > 0 {
			b.WriteString("  ")
			x += 2
		}
		starts[i] = x
		lbl := f.spec[i].label + " "
		lst, vst := stDim, stNone
		if f.errs[i] != "" {
			lst, vst = stError, stError
		}
		b.WriteString(th.paint(lst, lbl))
		x += len(lbl)
		room := max(4, w-x-1)
		if i < f.n-1 {
			room = min(room, 22)
		}
		if f.editing && f.focus == i {
			in := f.inputs[i]
			in.Width = room - 1
			v := in.View()
			b.WriteString(th.paint(stKey, "[") + v + th.paint(stKey, "]"))
			x += lipgloss.Width(v) + 2
			continue
		}
		v := ansi.Truncate(f.inputs[i].Value(), room, "…")
		if v == "" && f.spec[i].empty != "" {
			v, vst = f.spec[i].empty, stDim
		}
		b.WriteString(th.paint(vst, v))
		x += lipgloss.Width(v)
	}
	return b.String(), starts
}

// message is the focused field's message while it has one, else the first
// field's, with its caret under the start of that field: the message to the
// caret's right if it fits, to its left if that fits, else on the rows below.
// While a valid field is edited it is that field's line of explanation.
// rows is how many rows it may take.
func (f *form) message(th *theme, starts []int, w, rows int) []string {
	i := f.firstErr()
	if f.editing && f.errs[f.focus] != "" {
		i = f.focus
	}
	if i < 0 {
		if f.editing {
			return wrapRows(th, stDim, f.spec[f.focus].label+": "+f.spec[f.focus].about, w, rows)
		}
		return nil
	}
	msg, col := f.errs[i], min(starts[i], w-1)
	switch n := lipgloss.Width(msg); {
	case col+2+n <= w:
		return []string{strings.Repeat(" ", col) + th.paint(stError, "↑ "+msg)}
	case n+2 <= col+1:
		return []string{strings.Repeat(" ", col+1-n-2) + th.paint(stError, msg+" ↑")}
	}
	out := []string{strings.Repeat(" ", col) + th.paint(stError, "↑")}
	return append(out, wrapRows(th, stError, msg, w, rows-1)...)
}

// wrapRows wraps s into at most n rows of w columns, the last ending in "…"
// when something is left over.
func wrapRows(th *theme, st styleID, s string, w, n int) []string {
	if n <= 0 {
		return nil
	}
	ls := strings.Split(ansi.Wrap(s, w, ""), "\n")
	if len(ls) > n {
		ls = ls[:n]
		if last := ls[n-1]; lipgloss.Width(last)+2 <= w {
			ls[n-1] = last + " …"
		} else {
			ls[n-1] = ansi.Truncate(last, w-1, "") + "…"
		}
	}
	for i := range ls {
		ls[i] = th.paint(st, ls[i])
	}
	return ls
}
