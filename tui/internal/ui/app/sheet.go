package app

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// sheet is the full help of the screen on top (help.Model's full view of
// its key map); the lab's also explains its marks.
func (m Model) sheet() string {
	th := m.th
	km, name := m.top().Keys(), m.top().Name()
	h := m.help
	h.Width, h.ShowAll = 0, true // unlimited: the blocks below are cut to fit
	body := []string{widget.TitleBar(th, th.Paint(widget.StTitle, "Keys · "+name), m.w), ""}
	// help.Model drops the columns that do not fit the width: the columns
	// go in as many blocks as it takes.
	var block [][]key.Binding
	for _, col := range km.FullHelp() {
		if len(block) > 0 && lipgloss.Width(h.FullHelpView(append(block, col))) > m.w {
			body = append(append(body, widget.SplitLines(h.FullHelpView(block))...), "")
			block = nil
		}
		block = append(block, col)
	}
	body = append(body, widget.SplitLines(h.FullHelpView(block))...)
	if sh, ok := m.top().(screen.Sheeter); ok {
		body = append(body, sh.Sheet(m.w)...)
	}
	return widget.Frame(body, []string{th.Paint(widget.StDim, "any key closes this sheet · "+widget.KeyHint(widget.Global.Quit))}, m.w, m.h)
}

// tooSmallView asks for a bigger terminal instead of drawing a broken layout.
func tooSmallView(th *widget.Theme, w, h int) string {
	msg := []string{
		fmt.Sprintf("This terminal is %d×%d.", w, h),
		fmt.Sprintf("The course needs at least %d×%d:", widget.MinW, widget.MinH),
		"please enlarge the window.",
		widget.KeyName(widget.Global.Quit) + " quits.",
	}
	rows := make([]string, 0, h)
	top := max(0, (h-len(msg))/2)
	for i := 0; i < h; i++ {
		t := ""
		if j := i - top; j >= 0 && j < len(msg) {
			t = strings.Repeat(" ", max(0, (w-len([]rune(msg[j])))/2)) + msg[j]
		}
		rows = append(rows, t)
	}
	return widget.Frame(rows, nil, w, h)
}
