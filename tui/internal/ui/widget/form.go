package widget

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
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

// Form is a row of text fields edited in place, shared by the lab and the
// prefetch screens: which field has the keyboard, each field's message, and
// what esc goes back to. The screens embed it and decide what a field's text
// means; each keystroke that leaves the fields valid re-runs the screen.
//
// Arrays, not slices: a copy of a screen's model is a separate value, as
// Bubble Tea models are meant to be.
type Form struct {
	Spec    []FieldSpec // read only
	N       int
	Inputs  [FormMax]textinput.Model
	Errs    [FormMax]string // per field; "" when the field is valid
	before  [FormMax]string // the texts when editing started: esc restores them
	Editing bool
	Focus   int
	// Hidden fields are left out of Row unless focused or in error (a
	// parameter no algorithm shown uses).
	Hidden [FormMax]bool
	// fresh: the focused field has just been entered; the first character
	// typed replaces its value (an arrow or backspace edits it instead).
	fresh bool
	full  string // the last key did not fit the field: says so until the next key
}

// FieldSpec is one field: its label on screen, the parameter name the
// engines use in their errors, and one line on what it means.
type FieldSpec struct {
	Label, Param, About string
	Limit               int    // characters
	Empty               string // shown, dimmed, for a blank value
}

// FormMax is the most fields a form has (six in the lab and the prefetch lab).
const FormMax = 6

func NewForm(spec []FieldSpec) Form {
	f := Form{Spec: spec, N: len(spec)}
	for i, s := range spec {
		ti := textinput.New()
		ti.Prompt = ""
		ti.CharLimit = s.Limit
		ti.Cursor.SetMode(cursor.CursorStatic)
		f.Inputs[i] = ti
	}
	return f
}

// SetValues writes vals into the fields and clears their messages.
func (f *Form) SetValues(vals []string) {
	for i := 0; i < f.N; i++ {
		f.Inputs[i].SetValue(vals[i])
		f.Inputs[i].CursorEnd()
	}
	f.Errs = [FormMax]string{}
}

func (f *Form) Value(i int) string { return strings.TrimSpace(f.Inputs[i].Value()) }

func (f *Form) Values() []string {
	out := make([]string, f.N)
	for i := range out {
		out[i] = f.Inputs[i].Value()
	}
	return out
}

// FirstErr is the first field with a message, or -1.
func (f *Form) FirstErr() int {
	for i := 0; i < f.N; i++ {
		if f.Errs[i] != "" {
			return i
		}
	}
	return -1
}

// Start gives field i the keyboard; the texts as they are now are what esc
// goes back to.
func (f *Form) Start(i int) {
	if !f.Editing {
		for j := 0; j < f.N; j++ {
			f.before[j] = f.Inputs[j].Value()
		}
	}
	f.focusOn(i)
}

func (f *Form) focusOn(i int) {
	f.Editing, f.Focus = true, i
	for j := 0; j < f.N; j++ {
		f.Inputs[j].Blur()
	}
	f.Inputs[i].Focus()
	f.Inputs[i].CursorEnd()
	f.fresh = true
}

func (f *Form) Stop() {
	f.Editing = false
	for j := 0; j < f.N; j++ {
		f.Inputs[j].Blur()
	}
}

// FormEvent is what a key did to the form.
type FormEvent int

const (
	FormNothing   FormEvent = iota
	FormChanged             // the focused field's text changed
	FormDone                // enter: keep what is typed
	FormCancelled           // esc: the texts went back to before the edit
)

// Key handles a key while editing.
func (f *Form) Key(msg tea.KeyMsg) FormEvent {
	switch {
	case key.Matches(msg, FormKeys.Done):
		f.Stop()
		return FormDone
	case key.Matches(msg, FormKeys.Cancel):
		f.Stop()
		for j := 0; j < f.N; j++ {
			f.Inputs[j].SetValue(f.before[j])
		}
		f.Errs = [FormMax]string{}
		return FormCancelled
	case key.Matches(msg, FormKeys.NextField):
		f.focusOn((f.Focus + 1) % f.N)
		return FormNothing
	case key.Matches(msg, FormKeys.PrevField):
		f.focusOn((f.Focus + f.N - 1) % f.N)
		return FormNothing
	}
	in := &f.Inputs[f.Focus]
	before := in.Value()
	f.full = ""
	if f.fresh && (msg.Type == tea.KeyRunes || msg.Paste) {
		in.SetValue("") // typing into a field just entered replaces its value
	}
	f.fresh = false
	*in, _ = in.Update(msg)
	if msg.Type == tea.KeyRunes && in.Value() == before && in.CharLimit > 0 && len([]rune(before)) >= in.CharLimit {
		f.full = fmt.Sprintf("%s takes at most %d characters", f.Spec[f.Focus].Label, in.CharLimit)
	}
	if in.Value() != before {
		return FormChanged
	}
	return FormNothing
}

// FieldError words a refused value the same way for every field:
// "W = 0 is not accepted: use a whole number of ms from 1 to 1e12".
// by names the algorithm when only one side refuses it.
func (f *Form) FieldError(i int, value, accept, by string) string {
	who := ""
	if by != "" {
		who = " by " + by
	}
	return fmt.Sprintf("%s = %s is not accepted%s: use %s", f.Spec[i].Label, value, who, f.plainAccept(accept))
}

// plainAccept rewrites an engine's accepted range for the screen: the
// engines name command-line flags ("(--nodes)"), the screen names fields.
func (f *Form) plainAccept(accept string) string {
	for _, s := range f.Spec {
		accept = strings.ReplaceAll(accept, "(--"+s.Param+")", "(the "+s.Label+" field)")
		accept = strings.ReplaceAll(accept, "--"+s.Param, s.Label)
	}
	return accept
}

// ParamError attaches an engine's *core.ParamError to the field it names
// (or to fallback) and reports which field that was.
func (f *Form) ParamError(err error, fallback int, by string) int {
	i := fallback
	var pe *core.ParamError
	if !errors.As(err, &pe) {
		f.Errs[i] = f.Spec[i].Label + ": " + err.Error()
		return i
	}
	for j, s := range f.Spec[:f.N] {
		if s.Param == pe.Param {
			i = j
		}
	}
	f.Errs[i] = f.FieldError(i, pe.Value, pe.Accept, by)
	return i
}

// Row draws "label value  label value …" and returns each field's start
// column (where its message points). The focused field is the text input's
// own view; the long field gets the room left.
func (f *Form) Row(th *Theme, w int) (string, []int) {
	starts := make([]int, f.N)
	var b strings.Builder
	x := 0
	for i := 0; i < f.N; i++ {
		if f.Hidden[i] && f.Errs[i] == "" && !(f.Editing && f.Focus == i) {
			starts[i] = x
			continue
		}
		if x > 0 {
			b.WriteString("  ")
			x += 2
		}
		starts[i] = x
		lbl := f.Spec[i].Label + " "
		lst, vst := StDim, StNone
		if f.Errs[i] != "" {
			lst, vst = StError, StError
		}
		b.WriteString(th.Paint(lst, lbl))
		x += len(lbl)
		room := max(4, w-x-1)
		if i < f.N-1 {
			room = min(room, 22)
		}
		if f.Editing && f.Focus == i {
			in := f.Inputs[i]
			in.Width = room - 1
			v := in.View()
			b.WriteString(th.Paint(StKey, "[") + v + th.Paint(StKey, "]"))
			x += lipgloss.Width(v) + 2
			continue
		}
		v := ansi.Truncate(f.Inputs[i].Value(), room, "…")
		if v == "" && f.Spec[i].Empty != "" {
			v, vst = f.Spec[i].Empty, StDim
		}
		b.WriteString(th.Paint(vst, v))
		x += lipgloss.Width(v)
	}
	return b.String(), starts
}

// Message is the focused field's message while it has one, else the first
// field's, with its caret under the start of that field: the message to the
// caret's right if it fits, to its left if that fits, else on the rows below.
// While a valid field is edited it is that field's line of explanation.
// rows is how many rows it may take.
func (f *Form) Message(th *Theme, starts []int, w, rows int) []string {
	i := f.FirstErr()
	if f.Editing && f.Errs[f.Focus] != "" {
		i = f.Focus
	}
	if f.Editing && f.full != "" {
		return WrapRows(th, StQueued, f.full, w, rows)
	}
	if i < 0 {
		if f.Editing {
			return WrapRows(th, StDim, f.Spec[f.Focus].Label+": "+f.Spec[f.Focus].About, w, rows)
		}
		return nil
	}
	msg, col := f.Errs[i], min(starts[i], w-1)
	switch n := lipgloss.Width(msg); {
	case col+2+n <= w:
		return []string{strings.Repeat(" ", col) + th.Paint(StError, "↑ "+msg)}
	case n+2 <= col+1:
		return []string{strings.Repeat(" ", col+1-n-2) + th.Paint(StError, msg+" ↑")}
	}
	out := []string{strings.Repeat(" ", col) + th.Paint(StError, "↑")}
	return append(out, WrapRows(th, StError, msg, w, rows-1)...)
}

// WrapRows wraps s into at most n rows of w columns, the last ending in "…"
// when something is left over.
func WrapRows(th *Theme, st StyleID, s string, w, n int) []string {
	if n <= 0 {
		return nil
	}
	ls := text.Wrap(s, w)
	if len(ls) > n {
		ls = ls[:n]
		if last := ls[n-1]; lipgloss.Width(last)+2 <= w {
			ls[n-1] = last + " …"
		} else {
			ls[n-1] = ansi.Truncate(last, w-1, "") + "…"
		}
	}
	for i := range ls {
		ls[i] = th.Paint(st, ls[i])
	}
	return ls
}
