package main

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// The chapter screen shows one chapter's README, rendered by glamour
// (markdown.go), in a bubbles viewport: up and down scroll, left and right
// scroll sideways where a code line is wider than the screen, and each
// worked example the chapter mentions opens in the lab with one key.

type chapterModel struct {
	th    *theme
	w, h  int
	help  help.Model
	vp    viewport.Model
	idx   int // index into uiChapters
	keys  chapterKeys
	plain bool // render without colour (NO_COLOR, or no colour terminal)
	dark  bool
	wide  int     // rendered lines wider than the viewport
	ask   tea.Msg // the link the last key opens; the root takes it
}

func newChapterModel(th *theme, plain, dark bool) chapterModel {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{
		Up: ckeys.Up, Down: ckeys.Down, PageDown: ckeys.PageDown, PageUp: ckeys.PageUp,
		Left: ckeys.Left, Right: ckeys.Right,
		HalfPageUp: key.NewBinding(key.WithDisabled()), HalfPageDown: key.NewBinding(key.WithDisabled()),
	}
	vp.SetHorizontalStep(8)
	return chapterModel{th: th, help: newHelp(th), vp: vp, plain: plain, dark: dark}
}

// open shows chapter idx from its top, or from the first line that holds
// anchor (a heading's text).
func (m chapterModel) open(idx int, anchor string) chapterModel {
	m.idx = idx
	labels := make([]string, 0, 9)
	for _, l := range chapterInfos()[idx].links {
		labels = append(labels, l.label)
	}
	m.keys = ckeys.withLinks(labels)
	m = m.layout()
	m.vp.GotoTop()
	m.vp.SetXOffset(0)
	if anchor != "" {
		for i, l := range splitLines(m.text()) {
			if strings.Contains(ansi.Strip(l), anchor) {
				m.vp.SetYOffset(i)
				break
			}
		}
	}
	return m
}

// text is the chapter rendered for the viewport's width.
func (m chapterModel) text() string {
	return chapterText(m.idx, max(m.w, 20), m.plain, m.dark)
}

// layout sizes the viewport: the title row above, a status row and the
// help row below.
func (m chapterModel) layout() chapterModel {
	m.vp.Width, m.vp.Height = m.w, max(m.h-3, 1)
	if m.w == 0 {
		return m
	}
	text := m.text()
	m.vp.SetContent(text)
	m.wide = 0
	for _, l := range splitLines(text) {
		if lipgloss.Width(l) > m.w {
			m.wide++
		}
	}
	return m
}

// Update scrolls, and opens the chapter's links.
func (m chapterModel) Update(msg tea.Msg) (chapterModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		y := m.vp.YOffset
		m = m.layout()
		m.vp.SetYOffset(y)
		return m, nil
	case tea.KeyMsg:
		n := len(uiChapters)
		switch {
		case key.Matches(msg, m.keys.Top):
			m.vp.GotoTop()
		case key.Matches(msg, m.keys.Bottom):
			m.vp.GotoBottom()
		case key.Matches(msg, m.keys.Next):
			return m.open((m.idx+1)%n, ""), nil
		case key.Matches(msg, m.keys.Prev):
			return m.open((m.idx+n-1)%n, ""), nil
		default:
			for i, b := range m.keys.Links {
				if key.Matches(msg, b) {
					m.ask = openLinkMsg{chapterInfos()[m.idx].links[i]}
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

func (m chapterModel) wantsEsc() bool  { return false }
func (m chapterModel) keyMap() helpMap { return m.keys }

// View is the title, the text and a status row: where in the text, and
// whether code runs past the right edge.
func (m chapterModel) View() string {
	th, w := m.th, m.w
	title := titleBar(th, th.paint(stTitle, chapterInfos()[m.idx].title), w)
	status := fmt.Sprintf("%3.0f%%", m.vp.ScrollPercent()*100)
	if !m.vp.AtBottom() {
		status += fmt.Sprintf("  ↓ %d more lines", m.vp.TotalLineCount()-m.vp.YOffset-m.vp.VisibleLineCount())
	}
	if m.wide > 0 {
		status += fmt.Sprintf("  · %d code lines run past the edge: %s %s scroll sideways", m.wide, keyName(m.keys.Left), keyName(m.keys.Right))
	}
	body := append([]string{title}, splitLines(m.vp.View())...)
	return frame(body, []string{th.paint(stDim, status), helpLine(m.help, m.keyMap(), w)}, w, m.h)
}
