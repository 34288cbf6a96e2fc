// Package reader shows one chapter's README, rendered by glamour, in a
// viewport, with one key per worked example it opens.
package reader

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The chapter screen shows one chapter's README, rendered by glamour
// (markdown.go), in a bubbles viewport: up and down scroll, left and right
// scroll sideways where a code line is wider than the screen, and each
// worked example the chapter mentions opens in the lab with one key.

type Model struct {
	note  string // a line above the text, for this chapter only
	th    *widget.Theme
	w, h  int
	help  help.Model
	vp    viewport.Model
	idx   int // index into course.Chapters()
	keys  keyMap
	plain bool // render without colour (NO_COLOR, or no colour terminal)
	dark  bool
	wide  int     // rendered lines wider than the viewport
	heads []int   // the rows on which the chapter's sections start
	ask   tea.Msg // the link the last key opens; the root takes it
	// answer is 1 + the index into course.Answers of the worked answer
	// shown instead of the chapter's README; 0 shows the chapter.
	answer int
}

func New(th *widget.Theme, plain, dark bool) Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{
		Up: keys.Up, Down: keys.Down, PageDown: keys.PageDown, PageUp: keys.PageUp,
		Left: keys.Left, Right: keys.Right,
		HalfPageUp: key.NewBinding(key.WithDisabled()), HalfPageDown: key.NewBinding(key.WithDisabled()),
	}
	vp.SetHorizontalStep(8)
	return Model{th: th, help: widget.NewHelp(th), vp: vp, plain: plain, dark: dark}
}

// Open shows chapter idx from its top, or from the first line that holds
// anchor (a heading's text).
func (m Model) Open(idx int, anchor string) Model {
	m.idx, m.answer = idx, 0
	labels := make([]string, 0, 9)
	for _, l := range course.Infos()[idx].Links {
		labels = append(labels, l.Label)
	}
	m.keys = keys.withLinks(labels)
	m = m.layout()
	m.vp.GotoTop()
	m.vp.SetXOffset(0)
	if anchor != "" {
		// The anchor as the text shows it: a code span without its
		// backticks, a long heading wrapped (its first row holds its start).
		for i, l := range widget.SplitLines(m.text()) {
			if row := strings.TrimSpace(ansi.Strip(l)); strings.Contains(plan.HeadingText(row), plan.HeadingText(anchor)) ||
				len(row) > 3 && strings.HasPrefix(anchor, "#") && plan.IsHeading(row, anchor) {
				m.vp.SetYOffset(i)
				break
			}
		}
	}
	return m
}

// OpenAnswer shows chapter 07's worked answer i (an index into
// course.Answers) from its top: n and N go to the next and previous
// answer, and it has no links of its own.
func (m Model) OpenAnswer(i int) Model {
	n := len(course.Answers())
	i = (i%n + n) % n
	m.idx, m.answer = course.Index(course.AnswersChapter), i+1
	m.keys = keys.withLinks(nil)
	m.keys.Next = widget.Bind([]string{"n", "tab"}, "n/tab", "next worked answer")
	m.keys.Prev = widget.Bind([]string{"N", "shift+tab"}, "N/shift+tab", "previous worked answer")
	m = m.layout()
	m.vp.GotoTop()
	m.vp.SetXOffset(0)
	return m
}

// Answer is the index into course.Answers of the worked answer shown, or
// -1 when a chapter is shown.
func (m Model) Answer() int { return m.answer - 1 }

// text is the chapter (or the worked answer) rendered for the viewport's
// width.
func (m Model) text() string {
	if m.answer > 0 {
		return course.AnswerText(m.answer-1, textWidth(m.w), m.plain, m.dark)
	}
	return course.Text(m.idx, textWidth(m.w), m.plain, m.dark)
}

// headings are the shown text's headings, for ] and [.
func (m Model) headings() []course.Heading {
	if m.answer > 0 {
		return course.AnswerHeadings(m.answer - 1)
	}
	return course.Headings(m.idx)
}

// layout sizes the viewport: the title row above, a status row and the
// help row below.
func (m Model) layout() Model {
	m.vp.Width, m.vp.Height = m.w, max(m.h-3-len(m.noteRows()), 1)
	if m.w == 0 {
		return m
	}
	text := m.text()
	m.vp.SetContent(text)
	m.heads = course.HeadingRows(text, m.headings())
	m.wide = 0
	for _, l := range widget.SplitLines(text) {
		if lipgloss.Width(l) > m.w {
			m.wide++
		}
	}
	return m
}

// Update scrolls, and opens the chapter's links.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	return m.update(msg)
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		y := m.vp.YOffset
		m = m.layout()
		m.vp.SetYOffset(y)
		return m, nil
	case tea.KeyMsg:
		n := len(course.Chapters())
		switch {
		case key.Matches(msg, m.keys.Top):
			m.vp.GotoTop()
		case key.Matches(msg, m.keys.Bottom):
			m.vp.GotoBottom()
		case key.Matches(msg, m.keys.NextSection):
			for _, r := range m.heads {
				if r > m.vp.YOffset && !m.vp.AtBottom() {
					m.vp.SetYOffset(r)
					break
				}
			}
		case key.Matches(msg, m.keys.PrevSection):
			for i := len(m.heads) - 1; i >= 0; i-- {
				if r := m.heads[i]; r < m.vp.YOffset {
					m.vp.SetYOffset(r)
					break
				}
			}
		case key.Matches(msg, m.keys.Next) && m.answer > 0:
			return m.OpenAnswer(m.answer), nil
		case key.Matches(msg, m.keys.Prev) && m.answer > 0:
			return m.OpenAnswer(m.answer - 2), nil
		case key.Matches(msg, m.keys.Next):
			m.note = ""
			return m.Open((m.idx+1)%n, ""), nil
		case key.Matches(msg, m.keys.Prev):
			m.note = ""
			return m.Open((m.idx+n-1)%n, ""), nil
		default:
			for i, b := range m.keys.Links {
				if key.Matches(msg, b) {
					m.ask = screen.OpenLink{Link: course.Infos()[m.idx].Links[i]}
					return m, nil
				}
			}
			var cmd tea.Cmd
			m.vp, cmd = m.vp.Update(msg)
			return m, cmd
		}
	}
	return m, nil
}

func (m Model) CapturesEsc() bool { return false }
func (m Model) Keys() help.KeyMap { return m.shownKeys() }
func (m Model) Name() string {
	if m.answer > 0 {
		return "worked answer"
	}
	return "chapter"
}
func (m Model) Ask() tea.Msg { return m.ask }

// Resize lays the text out again for w columns, keeping the place.
func (m Model) Resize(w, h int) screen.Screen {
	m, _ = m.update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// Chapter is the index of the chapter shown.
func (m Model) Chapter() int { return m.idx }

// View is the title, the text and a status row: where in the text, and
// whether code runs past the right edge.
func (m Model) View() string {
	th, w := m.th, m.w
	name := course.Infos()[m.idx].Title
	if m.answer > 0 {
		name = course.AnswerTitle(m.answer - 1)
	}
	title := widget.TitleBar(th, th.Paint(widget.StTitle, name), w)
	status := fmt.Sprintf("%3.0f%%", m.vp.ScrollPercent()*100)
	if !m.vp.AtBottom() {
		status += fmt.Sprintf("  ↓ %d more lines", m.vp.TotalLineCount()-m.vp.YOffset-m.vp.VisibleLineCount())
	}
	if m.wide > 0 {
		lines := "lines run"
		if m.wide == 1 {
			lines = "line runs"
		}
		status += fmt.Sprintf("  · %d %s past the edge: %s %s scroll sideways", m.wide, lines, widget.KeyName(m.keys.Left), widget.KeyName(m.keys.Right))
	}
	body := append(append([]string{title}, m.noteRows()...), widget.SplitLines(m.vp.View())...)
	return widget.Frame(body, []string{th.Paint(widget.StDim, status), widget.HelpLine(m.help, m.Keys(), w)}, w, m.h)
}

// shownKeys are the keys that do something now: at the end of the text
// there is no page down to offer.
func (m Model) shownKeys() keyMap {
	k := m.keys
	if m.vp.AtBottom() {
		k.PageDown.SetEnabled(false)
	}
	if len(m.heads) == 0 || m.vp.AtBottom() {
		k.NextSection.SetEnabled(false)
	}
	return k
}

// LinkKeys are the keys of the chapter's links, in the order of its links.
func (m Model) LinkKeys() []key.Binding { return m.keys.Links }

// Wide counts the rendered lines wider than the screen.
func (m Model) Wide() int { return m.wide }

// WithNote shows note above the text (how the commands in it map to the
// app's keys) until another chapter is opened.
func (m Model) WithNote(note string) Model {
	m.note = note
	if m.w > 0 {
		m.vp.Height = max(m.h-3-len(m.noteRows()), 1)
	}
	return m
}

// Note is the line shown above the text.
func (m Model) Note() string { return m.note }

func (m Model) noteRows() []string {
	if m.note == "" {
		return nil
	}
	return widget.WrapRows(m.th, widget.StQueued, m.note, max(m.w, 20), 2)
}

// ProseWidth is the most columns prose takes: wider lines are hard to read,
// so on a wide terminal the text keeps to about 80 columns, as glow does
// (code keeps its lines whole and scrolls sideways).
const ProseWidth = 80

func textWidth(w int) int { return min(max(w, 20), ProseWidth) }

// ReadThrough is what the learner has seen to its end on the screen now:
// the level-2 headings (as rendered, "## " dropped) whose section's last
// line is on the screen, and whether the chapter's last line is shown. A
// section jumped past (its last line above the top row) is not read. The
// app saves them as the study plans' reading done.
func (m Model) ReadThrough() (num int, headings []string, end bool) {
	if m.answer > 0 { // a worked answer is no chapter section of a plan
		return 0, nil, false
	}
	lines := widget.SplitLines(m.text())
	top, bottom := m.vp.YOffset, m.vp.YOffset+m.vp.VisibleLineCount()-1
	start := -1
	var title string
	for i := 0; i <= len(lines); i++ {
		h, isHeading := "", false
		if i < len(lines) {
			h, isHeading = strings.CutPrefix(strings.TrimSpace(ansi.Strip(lines[i])), "## ")
		}
		if !isHeading && i < len(lines) {
			continue
		}
		if start >= 0 && i-1 >= top && i-1 <= bottom {
			headings = append(headings, title)
		}
		start, title = i, h
	}
	return course.Chapters()[m.idx].Num, headings, m.vp.AtBottom()
}
