package mock

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// What the candidate says, kept: each phase has a notes field (a Bubbles
// textarea) and each pushback an answer field. tab opens the field; while
// it is open every key but tab and esc is text (n, p, q, digits), and the
// clock keeps running. tab or esc closes it.

// newNotes is the field, empty, without line numbers, its cursor steady
// (a blinking cursor would send ticks of its own).
func newNotes() textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.Placeholder = "what you would say…"
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.FocusedStyle.CursorLine = lipgloss.NewStyle()
	return ta
}

// field is where the open field's text is kept: the pushback under the
// cursor when the phase's pushback is shown (b), else the phase's notes.
func (m *Model) field() *string {
	if m.kind(m.phase) == pushbackPhase {
		return &m.answers[m.phase][m.pcur]
	}
	return &m.notes[m.phase]
}

// openNotes gives the field the keyboard, holding what was written before.
func (m Model) openNotes() (Model, tea.Cmd) {
	m = m.sizeNotes()
	m.ta.SetValue(*m.field())
	m.typing = true
	return m, m.ta.Focus()
}

// keepTyped closes the field, keeping its text.
func (m Model) keepTyped() Model {
	if m.typing {
		*m.field() = m.ta.Value()
		m.ta.Blur()
		m.typing = false
	}
	return m
}

// typingKey is a key while the field is open: tab and esc close it, any
// other key is text.
func (m Model) typingKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case msg.Type == tea.KeyRunes && !msg.Alt:
		// Runes are text, however many arrive at once: a key's name is a
		// key's only when the terminal sends that key. Two letters "u" and
		// "p" read in one burst made a message named "up", which the
		// textarea took for the arrow and moved the cursor a row up.
		m = m.sizeNotes()
		m.ta.InsertString(string(msg.Runes))
	case key.Matches(msg, keys.DoneTyping):
		return m.keepTyped(), nil
	default:
		m.ta, cmd = m.sizeNotes().ta.Update(msg)
	}
	// The textarea scrolls to its cursor within the text it last drew, so
	// a paste longer than that stayed at the top: draw it, then let it scroll.
	_ = m.ta.View()
	m.ta, _ = m.ta.Update(nil)
	return m, cmd
}

// sizeNotes gives the field the rows and columns that View draws it in.
// The textarea scrolls by its own height: sized only in a copy for View,
// it scrolled as if 6 rows high and the rows drawn went blank once the
// text outgrew them.
func (m Model) sizeNotes() Model {
	room := m.h - len(m.footer()) - 1 - 2 // the title bar and the phase's two rows
	m.ta.SetWidth(max(m.w-2, 10))
	m.ta.SetHeight(max(room-2-len(m.aboveNotes()), 1)) // a row kept free and the field's label
	return m
}

// aboveNotes is what View draws above the open field: the pushback and its
// label, or the interviewer's questions.
func (m Model) aboveNotes() []string {
	if m.kind(m.phase) == pushbackPhase {
		return m.pushbackHead()
	}
	return m.questionRows(m.phases[m.phase], 1)
}

// Typing: while the field is open, q and ? are text (screen.Typer).
func (m Model) Typing() bool { return m.typing }

// notesRows is the open field under its label, as sizeNotes sized it.
func (m Model) notesRows(label string) []string {
	out := []string{m.th.Paint(widget.StLabel, label) + m.th.Paint(widget.StDim,
		fmt.Sprintf(" · the clock runs · %s or %s: done", widget.KeyName(keys.Notes), widget.KeyName(widget.Global.Back)))}
	return append(out, widget.SplitLines(m.ta.View())...)
}

// typedRows is text written earlier, under a label, in at most n rows.
func (m Model) typedRows(label, s string, n int) []string {
	if strings.TrimSpace(s) == "" || n < 2 {
		return nil
	}
	var rows []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		rows = append(rows, text.WrapHanging(l, m.w, "  │ ", "  │ ")...)
	}
	if len(rows) > n-1 {
		rows = append(rows[:n-2], fmt.Sprintf("  │ … %d more rows (%s opens them)", len(rows)-(n-2), widget.KeyName(keys.Notes)))
	}
	return append([]string{m.th.Paint(widget.StLabel, label)}, rows...)
}

// strongAnswer is what a strong candidate says in phase of the 45-minute
// track on the question named prompt: the rubric's senior and staff lines
// for the phase, then that phase of chapter 07's worked answer
// (interview.WorkedPhase), its whiteboard left to the answer itself (a
// diagram 80 columns wide does not fit half the screen). A phase without a
// worked part falls back on what to say first and the phase's checklist.
func strongAnswer(prompt string, phase int) string {
	p, ok := interview.MockPrompt(prompt)
	phases := interview.LongForm(p)
	if !ok || phase < 0 || phase >= len(phases) || phase >= len(interview.Track()) {
		return ""
	}
	var b strings.Builder
	if w := interview.WorkedPhase(prompt, phase); w != "" {
		if rs := interview.RubricFor(prompt); phase < len(rs) {
			fmt.Fprintf(&b, "**Senior:** %s\n\n**Staff adds:** %s\n\n", rs[phase].Senior, rs[phase].Staff)
		}
		b.WriteString(leanStrongMarkdown(prompt, phase))
		b.WriteString(withoutDiagrams(w))
		return b.String()
	}
	tp := interview.Track()[phase]
	b.WriteString(tp.SayFirst + "\n\n")
	if phase == deepDives {
		for _, c := range tp.Checklist {
			fmt.Fprintf(&b, "- %s\n", c)
		}
		return b.String()
	}
	for _, pt := range phases[phase].Checklist {
		fmt.Fprintf(&b, "- %s (ch %s)\n", pt.Text, pt.Chapter)
	}
	return b.String()
}

// withoutDiagrams replaces each fenced block of a worked answer with one
// line saying where to see it whole.
func withoutDiagrams(md string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			if !in {
				b.WriteString("[the whiteboard: chapter 07's worked answer shows it whole]\n")
			}
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// deepDives is the track's phase of the deep dives.
const deepDives = 3
