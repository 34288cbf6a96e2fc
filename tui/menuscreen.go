package main

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
)

// The menu is a bubbles list of the chapters, then the labs and drills;
// / filters it. Under the list, the selected chapter's first sentence.

// menuItem is one entry: a chapter (chapter >= 0, an index into
// uiChapters) or a screen.
type menuItem struct {
	title, desc string
	chapter     int
	view        interactive
}

func (i menuItem) Title() string       { return i.title }
func (i menuItem) Description() string { return i.desc }
func (i menuItem) FilterValue() string { return i.title + " " + i.desc }

type menuModel struct {
	th   *theme
	w, h int
	help help.Model
	list list.Model
	note string  // e.g. what happened to the saved progress
	ask  tea.Msg // the navigation asked for by the last key; the root takes it
}

func menuItems() []list.Item {
	var items []list.Item
	for i, info := range chapterInfos() {
		desc := info.summary
		for _, l := range info.links {
			desc += " [" + l.label + "]"
		}
		items = append(items, menuItem{title: info.title, desc: desc, chapter: i})
	}
	for _, t := range []struct {
		v          interactive
		key, title string
		desc       string
	}{
		{ivLab, keyName(mkeys.Lab), "Lab: one sequence, two algorithms", "chapter 05's lab, on the first prepared scenario (E1)"},
		{ivWorst, keyName(mkeys.Worst), "Worst case search", "the arrival sequence that gets the most through one window, per algorithm"},
		{ivPrefetch, keyName(mkeys.Prefetch), "Prefetch lab", "chapter 06's quota prefetch, request by request (E13)"},
		{ivCluster, keyName(mkeys.Cluster), "The cluster: a real Redis Cluster", "chapter 06 part 3: starts 3 primaries + 3 replicas " +
			"from redis-server, then the hot key (E22), a failover (E23) and hash tags (E21)"},
		{ivDrill, keyName(mkeys.Drill), "Question cards", "chapter 07's drill: answer aloud, reveal, score yourself; missed cards come back first"},
		{ivMock, keyName(mkeys.Mock), "Mock interview", "fifteen timed minutes on one design question, with a checklist per phase"},
	} {
		items = append(items, menuItem{title: t.key + "  " + t.title, desc: t.desc, chapter: -1, view: t.v})
	}
	return items
}

func newMenuModel(th *theme) menuModel {
	d := list.NewDefaultDelegate()
	d.ShowDescription = false
	d.SetSpacing(0)
	l := list.New(menuItems(), d, 0, 0)
	l.Title = "Rate limiters for system-design interviews"
	l.Styles.Title = th.s[stTitle]
	l.Styles.TitleBar = l.Styles.TitleBar.Padding(0, 0, 1, 0)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.DisableQuitKeybindings()
	l.KeyMap.CursorUp, l.KeyMap.CursorDown, l.KeyMap.Filter = mkeys.Up, mkeys.Down, mkeys.Filter
	for _, b := range []*key.Binding{&l.KeyMap.ShowFullHelp, &l.KeyMap.CloseFullHelp, &l.KeyMap.GoToStart, &l.KeyMap.GoToEnd} {
		*b = key.NewBinding(key.WithDisabled())
	}
	return menuModel{th: th, help: newHelp(th), list: l}
}

// filtering reports whether the list's filter has the keyboard.
func (m menuModel) filtering() bool { return m.list.SettingFilter() }

// Update moves, filters and opens.
func (m menuModel) Update(msg tea.Msg) (menuModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.list.SetSize(msg.Width, max(msg.Height-4, 3))
		return m, nil
	case tea.KeyMsg:
		if !m.filtering() {
			m.note = ""
			if ask, ok := m.shortcut(msg); ok {
				m.ask = ask
				return m, nil
			}
		}
	}
	var cmd tea.Cmd
	m.list, cmd = m.list.Update(msg)
	return m, cmd
}

// shortcut handles the menu's own keys (not the list's): what to open.
func (m menuModel) shortcut(msg tea.KeyMsg) (tea.Msg, bool) {
	open := func(link chapterLink) tea.Msg { return openLinkMsg{link} }
	switch {
	case key.Matches(msg, mkeys.Open):
		it, ok := m.list.SelectedItem().(menuItem)
		if !ok {
			return nil, true
		}
		if it.chapter >= 0 {
			return openChapterMsg{idx: it.chapter, num: -1}, true
		}
		return open(chapterLink{view: it.view, scenario: -1}), true
	case key.Matches(msg, mkeys.Jump):
		num := int(msg.String()[0] - '0')
		if chapterIndex(num) < 0 {
			return nil, true
		}
		return openChapterMsg{idx: -1, num: num}, true
	case key.Matches(msg, mkeys.Lab):
		return open(chapterLink{view: ivLab, scenario: 0}), true
	case key.Matches(msg, mkeys.Worst):
		return open(chapterLink{view: ivWorst, scenario: -1}), true
	case key.Matches(msg, mkeys.Prefetch):
		return open(chapterLink{view: ivPrefetch, scenario: -1}), true
	case key.Matches(msg, mkeys.Cluster):
		return open(chapterLink{view: ivCluster, scenario: -1}), true
	case key.Matches(msg, mkeys.Drill):
		return open(chapterLink{view: ivDrill, scenario: -1}), true
	case key.Matches(msg, mkeys.Mock):
		return open(chapterLink{view: ivMock, scenario: -1}), true
	case key.Matches(msg, mkeys.Progress):
		return resetProgressMsg{}, true
	}
	return nil, false
}

// wantsEsc: esc clears a filter before it means "back".
func (m menuModel) wantsEsc() bool { return m.list.FilterState() != list.Unfiltered }

func (m menuModel) keyMap() helpMap { return mkeys }

// View is the list, the selected entry's description, a note, the keys.
func (m menuModel) View() string {
	th, w := m.th, m.w
	body := splitLines(m.list.View())
	var footer []string
	if it, ok := m.list.SelectedItem().(menuItem); ok {
		footer = append(footer, wrapRows(th, stDim, it.desc, w, 2)...)
	}
	for len(footer) < 2 {
		footer = append(footer, "")
	}
	if m.note != "" {
		footer = append(footer, wrapRows(th, stQueued, m.note, w, 2)...)
	} else {
		footer = append(footer, th.paint(stDim, fmt.Sprintf("a terminal course: read a chapter, then run its lab · %d chapters", len(uiChapters))))
	}
	footer = append(footer, helpLine(m.help, m.keyMap(), w))
	return frame(body, footer, w, m.h)
}
