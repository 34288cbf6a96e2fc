// Package app is the interactive course: a stack of screens (package
// screen) with the menu at the bottom. Keys go to the screen on top after
// the few every screen shares (quit, ?, esc); a screen asks for another
// with a navigation message, and esc pops the stack, so back is always
// the screen the learner came from.
package app

import (
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Model is the app: the stack of screens and what they share.
type Model struct {
	th      *widget.Theme
	w, h    int
	stack   []screen.Screen               // the menu first; the top is shown
	kept    map[screen.Kind]screen.Screen // screens popped off, by kind, for their next visit
	showAll bool                          // the ? sheet is up
	help    help.Model
	store   *progress.Store
	plain   bool      // chapter text without colour (NO_COLOR, or no colour terminal)
	dark    bool      // glamour's dark style
	saveErr string    // why the last save failed, shown until one succeeds
	counts  *counters // shared by the Model's copies
}

// counters count the app's costly work, for the tests.
type counters struct{ readings int } // recordReading's scans of the chapter shown

// New builds the app on its menu. note is shown on the menu (what happened
// to the saved progress).
func New(th *widget.Theme, store *progress.Store, plain, dark bool, note string) Model {
	return Model{
		th: th, help: widget.NewHelp(th), store: store, plain: plain, dark: dark,
		stack: []screen.Screen{menu.New(th, withDue(menuEntries(), store)).WithNote(note)},
		kept:  map[screen.Kind]screen.Screen{}, counts: &counters{},
	}
}

func (m Model) Init() tea.Cmd { return nil }

// top is the screen shown.
func (m Model) top() screen.Screen { return m.stack[len(m.stack)-1] }

// setTop replaces the screen shown. The stack is copied first: a Model is a
// value, and an earlier copy keeps its own stack.
func (m Model) setTop(s screen.Screen) Model {
	m.stack = slices.Clone(m.stack)
	m.stack[len(m.stack)-1] = s
	return m
}

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.stack = slices.Clone(m.stack)
		for i, s := range m.stack {
			m.stack[i] = s.Resize(m.w, m.h)
		}
		return m.recordReading() // more of the chapter may show
	case screen.Saved:
		m.saveErr = ""
		if msg.Err != nil {
			m.saveErr = "progress not saved: " + msg.Err.Error()
		}
		return m, nil
	case resetDone:
		return m.resetDone(msg.err), nil
	case screen.OpenLink, screen.OpenChapter, lab.OpenWorst, lab.LoadWorst, screen.ResetProgress, screen.OpenCards:
		return m.navigate(msg)
	case tea.KeyMsg:
		return m.key(msg)
	case screen.Quit:
		return m.quit()
	}
	return m.broadcast(msg)
}

// key handles the keys every screen shares, then hands the key to the
// screen on top.
func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	// Keys typed faster than the terminal is read arrive as one message
	// ("iw"); outside a text field each rune is a command of its own.
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.typing() {
		var cmds []tea.Cmd
		var nm tea.Model = m
		for _, r := range msg.Runes {
			var cmd tea.Cmd
			nm, cmd = nm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			cmds = append(cmds, cmd)
		}
		return nm, tea.Batch(cmds...)
	}
	// Esc followed quickly by a key reaches us as alt+key; the course binds
	// no alt keys, so it is the two keys it was typed as (esc esc too).
	if msg.Alt && (msg.Type == tea.KeyEsc || msg.Type == tea.KeyRunes && !m.typing()) {
		second := msg
		second.Alt = false
		nm, cmd1 := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		nm, cmd2 := nm.Update(second)
		return nm, tea.Batch(cmd1, cmd2)
	}
	g := widget.Global
	switch {
	case key.Matches(msg, g.ForceQuit):
		return m.quit()
	case m.showAll:
		if key.Matches(msg, g.Quit) {
			return m.quit()
		}
		m.showAll = false // any other key closes the sheet
		return m, nil
	case m.w < widget.MinW || m.h < widget.MinH:
		if key.Matches(msg, g.Quit) {
			return m.quit()
		}
		return m, nil // only quitting works on a too-small terminal
	case !m.typing() && key.Matches(msg, g.Quit) && !m.guardsQuit():
		return m.quit()
	case !m.typing() && key.Matches(msg, g.Help):
		m.showAll = true
		return m, nil
	case key.Matches(msg, g.Back) && !m.top().CapturesEsc():
		return m.pop(), nil
	}
	return m.route(msg)
}

// guardsQuit reports whether the screen on top asks before q quits (it
// takes q itself, and asks for screen.Quit when confirmed).
func (m Model) guardsQuit() bool {
	g, ok := m.top().(screen.QuitGuard)
	return ok && g.GuardsQuit()
}

// typing reports whether the screen on top takes typed text (q and ? are
// text then).
func (m Model) typing() bool {
	t, ok := m.top().(screen.Typer)
	return ok && t.Typing()
}

// route hands msg to the screen on top, then follows the navigation it
// asked for at once (before any later key, which may already be queued).
func (m Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	s, cmd := m.top().Update(msg)
	m = m.setTop(s)
	if _, ok := msg.(tea.KeyMsg); ok { // a key may scroll: a tick does not
		var rec tea.Cmd
		m, rec = m.recordReading()
		cmd = tea.Batch(cmd, rec)
	}
	if a, ok := s.(screen.Asker); ok && a.Ask() != nil {
		nm, cmd2 := m.Update(a.Ask())
		if _, quits := a.Ask().(screen.Quit); quits {
			return nm, tea.Sequence(cmd, cmd2) // what the screen saves is written before the app ends
		}
		return nm, tea.Batch(cmd, cmd2)
	}
	return m, cmd
}

// broadcast hands a message that is not a key (a tick, a finished search,
// a cluster run's event, a timer) to the screen on top, then to every other
// screen, on the stack or kept: each takes only its own, and work started
// on a screen finishes while another is shown.
func (m Model) broadcast(msg tea.Msg) (tea.Model, tea.Cmd) {
	nm, cmd := m.route(msg)
	m = nm.(Model)
	cmds := []tea.Cmd{cmd}
	m.stack = slices.Clone(m.stack)
	for i := 0; i < len(m.stack)-1; i++ {
		var c tea.Cmd
		m.stack[i], c = m.stack[i].Update(msg)
		cmds = append(cmds, c)
	}
	m.kept = maps.Clone(m.kept)
	for k, s := range m.kept {
		var c tea.Cmd
		m.kept[k], c = s.Update(msg)
		cmds = append(cmds, c)
	}
	return m, tea.Batch(cmds...)
}

// quit ends the app; whatever a screen runs is stopped first.
func (m Model) quit() (tea.Model, tea.Cmd) {
	return m.Close(), tea.Quit
}

// Close stops what every screen runs (a cluster's processes): the app
// calls it on quit, and Run once the program has ended however it ended.
func (m Model) Close() Model {
	m.stack = slices.Clone(m.stack)
	for i, s := range m.stack {
		m.stack[i] = leave(s)
	}
	m.kept = maps.Clone(m.kept)
	for k, s := range m.kept {
		m.kept[k] = leave(s)
	}
	return m
}

func leave(s screen.Screen) screen.Screen {
	if l, ok := s.(screen.Leaver); ok {
		return l.Leave()
	}
	return s
}

// find is the screen of kind k: on the stack (its index, else -1), kept
// from an earlier visit, or made new as the registry makes it.
func (m Model) find(k screen.Kind) (screen.Screen, int) {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if kindOf(m.stack[i]) == k {
			return m.stack[i], i
		}
	}
	if s, ok := m.kept[k]; ok {
		return s, -1
	}
	e, _ := registered(k)
	return e.make(m), -1
}

// show puts s on top at the terminal's size. A screen of the same kind
// already on the stack (at index at) is gone back to, the screens above it
// popped; otherwise s is pushed and the screen it covers is left (a play
// pauses).
func (m Model) show(s screen.Screen, at int) Model {
	m.showAll = false
	if at >= 0 {
		for len(m.stack) > at+1 {
			m = m.pop()
		}
		return m.setTop(s.Resize(m.w, m.h))
	}
	m = m.setTop(leave(m.top()))
	m.stack = append(slices.Clone(m.stack), s.Resize(m.w, m.h))
	return m
}

// pop goes back one screen (the menu stays the bottom); the screen popped
// is left and kept for its next visit.
func (m Model) pop() Model {
	if len(m.stack) == 1 {
		return m
	}
	s := leave(m.top())
	if k := kindOf(s); k != screen.None {
		m.kept = maps.Clone(m.kept)
		m.kept[k] = s
	}
	m.stack = slices.Clone(m.stack[:len(m.stack)-1])
	return m.setTop(m.top().Resize(m.w, m.h))
}

// View renders the screen on top (the screens only render).
func (m Model) View() string {
	switch {
	case m.w == 0 || m.h == 0:
		return "" // the first WindowSizeMsg is on its way
	case m.w < widget.MinW || m.h < widget.MinH:
		return tooSmallView(m.th, m.w, m.h)
	case m.showAll:
		return m.sheet()
	}
	return m.withSaveErr(m.top().View())
}

// withSaveErr shows a failed save in the frame's last row (the keys'
// help) until a save succeeds: the learner's work is not on disk.
func (m Model) withSaveErr(frame string) string {
	if m.saveErr == "" {
		return frame
	}
	rows := strings.Split(frame, "\n")
	rows[len(rows)-1] = m.th.Paint(widget.StError, ansi.Truncate(m.saveErr, m.w, "…"))
	return strings.Join(rows, "\n")
}
