// Package path is chapter 07's request path as the candidate draws it:
// interview.Diagram(), each box with the limit that lives there and what
// the hop costs, scrolled on a screen of its own.
package path

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Lines are the diagram's rows, at most interview.DiagramWidth columns.
func Lines() []string {
	return strings.Split(strings.TrimSuffix(interview.Diagram(), "\n"), "\n")
}

// Window is n rows of the diagram from row top (clamped so the window
// stays full), and the top it used.
func Window(top, n int) ([]string, int) {
	ls := Lines()
	top = min(max(top, 0), max(len(ls)-n, 0))
	return ls[top:min(top+n, len(ls))], top
}

// Scroll moves top by a key of the map (up, down, a page of n rows);
// ok is false for any other key.
func Scroll(msg tea.KeyMsg, top, n int) (int, bool) {
	switch {
	case key.Matches(msg, keys.Up):
		top--
	case key.Matches(msg, keys.Down):
		top++
	case key.Matches(msg, keys.PageUp):
		top -= n
	case key.Matches(msg, keys.PageDown):
		top += n
	default:
		return top, false
	}
	_, top = Window(top, n)
	return top, true
}

type Model struct {
	th   *widget.Theme
	w, h int
	help help.Model
	top  int
}

func New(th *widget.Theme) Model { return Model{th: th, help: widget.NewHelp(th)} }

// rows is how many diagram rows fit: the title bar, a line of context,
// the position and the footer take the rest.
func (m Model) rows() int { return max(m.h-4, 3) }

func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		m.top, _ = Scroll(msg, m.top, m.rows())
	}
	return m, nil
}

func (m Model) View() string {
	th, w := m.th, m.w
	body := []string{widget.TitleBar(th, th.Paint(widget.StTitle, "07 · The request path")+
		th.Paint(widget.StDim, "   what to draw in the design phase"), w),
		th.Paint(widget.StDim, "each box, the limit that lives there, what the hop costs (and who measured it)")}
	ls, top := Window(m.top, m.rows())
	for _, l := range ls {
		body = append(body, th.Paint(widget.StNone, l))
	}
	pos := th.Paint(widget.StDim, fmt.Sprintf("rows %d–%d of %d", top+1, top+len(ls), len(Lines())))
	return widget.Frame(body, []string{pos, widget.HelpLine(m.help, keys, w)}, w, m.h)
}

func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

func (m Model) Keys() help.KeyMap { return keys }
func (m Model) Name() string      { return "request path" }
func (m Model) CapturesEsc() bool { return false }

// Top is the first diagram row shown.
func (m Model) Top() int { return m.top }
