// Package menu is the course's first screen: the chapters, then the labs
// and drills, in a filtered list.
package menu

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The menu is a bubbles list of the chapters, then the labs and drills;
// / filters it. Under the list, the selected chapter's first sentence.

// menuItem is one entry: a chapter (chapter >= 0, an index into
// course.Chapters()) or a screen.
type menuItem struct {
	title, desc string
	body        string // a chapter's text, for the filter (filter.go)
	chapter     int
	view        screen.Kind
	badge       func() string // said after the title, as it is now (Entry.Badge)
}

func (i menuItem) Title() string {
	if i.badge != nil {
		if b := i.badge(); b != "" {
			return i.title + " · " + b
		}
	}
	return i.title
}
func (i menuItem) Description() string { return i.desc }
func (i menuItem) FilterValue() string { return i.title + " " + i.desc + bodySep + i.body }

// Entry is one screen the menu offers below the chapters: an entry of the
// app's registry of screens.
type Entry struct {
	Kind        screen.Kind
	Key, Help   string // the menu's key for it, and the key's help ("lab")
	Title, Desc string // the menu's row, and what it says when selected
	Footer      int    // its place among the footer's keys (1, 2 …); 0: only in the ? sheet
	First       bool   // its key opens it on its first scenario (the lab on E1)
	Chapter     int    // the chapter that links to it (0: none): the ? sheet's order
	// Badge is what the row says after its title each time it is drawn
	// ("3 cards due"); nil or "": nothing.
	Badge func() string
}

type Model struct {
	th   *widget.Theme
	keys keyMap
	opts []Entry // the screens, in the menu's order
	w, h int
	help help.Model
	list list.Model
	note string  // e.g. what happened to the saved progress
	ask  tea.Msg // the navigation asked for by the last key; the app takes it
	// resetting: ctrl+r was pressed once; a second ctrl+r forgets the saved
	// progress, any other key keeps it.
	resetting bool
}

func menuItems(entries []Entry) []list.Item {
	var items []list.Item
	for i, info := range course.Infos() {
		desc := info.Summary
		answers := false
		for _, l := range info.Links {
			if l.View == screen.Answer { // one mention for the four, in the chapter
				if !answers {
					desc += " [worked answers]"
				}
				answers = true
				continue
			}
			desc += " [" + l.Label + "]"
		}
		items = append(items, menuItem{title: info.Title, desc: desc, body: course.Chapters()[i].README, chapter: i})
	}
	for _, e := range entries {
		items = append(items, menuItem{title: e.Key + "  " + e.Title, desc: e.Desc, chapter: -1, view: e.Kind, badge: e.Badge})
	}
	return items
}

// New is the menu: the chapters, then the screens of entries.
func New(th *widget.Theme, entries []Entry) Model {
	d := list.NewDefaultDelegate()
	d.ShowDescription = false
	d.SetSpacing(0)
	l := list.New(menuItems(entries), d, 0, 0)
	l.Title = "Rate limiters for system-design interviews"
	l.Styles.Title = th.S[widget.StTitle]
	l.Styles.TitleBar = l.Styles.TitleBar.Padding(0, 0, 1, 0)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.SetShowPagination(false) // View says what is off screen, by name (more)
	l.DisableQuitKeybindings()
	l.Filter = filterItems
	l.KeyMap.CursorUp, l.KeyMap.CursorDown, l.KeyMap.Filter = keys.Up, keys.Down, keys.Filter
	for _, b := range []*key.Binding{&l.KeyMap.ShowFullHelp, &l.KeyMap.CloseFullHelp, &l.KeyMap.GoToStart, &l.KeyMap.GoToEnd} {
		*b = key.NewBinding(key.WithDisabled())
	}
	return Model{th: th, keys: keys.withScreens(entries), opts: entries, help: widget.NewHelp(th), list: l}
}

// filtering reports whether the list's filter has the keyboard.
func (m Model) filtering() bool { return m.list.SettingFilter() }

// Update moves, filters and opens.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	return m.update(msg)
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.list.SetSize(msg.Width, max(msg.Height-5, 3)) // a row under it for more
		return m, nil
	case tea.KeyMsg:
		if !m.filtering() {
			m.note = ""
			if m.resetting {
				m.resetting = false
				if key.Matches(msg, keys.Progress) {
					m.ask = screen.ResetProgress{}
				} else {
					m.note = "the saved progress is kept"
				}
				return m, nil
			}
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
func (m *Model) shortcut(msg tea.KeyMsg) (tea.Msg, bool) {
	open := func(link screen.Link) tea.Msg { return screen.OpenLink{Link: link} }
	switch {
	case key.Matches(msg, keys.Open):
		it, ok := m.list.SelectedItem().(menuItem)
		if !ok {
			return nil, true
		}
		if it.chapter >= 0 {
			return screen.OpenChapter{Idx: it.chapter, Num: -1}, true
		}
		return open(screen.Link{View: it.view, Scenario: -1}), true
	case key.Matches(msg, keys.Jump):
		num := int(msg.String()[0] - '0')
		if num == 0 {
			num = 10 // the ten chapters' keys are 1 to 9, then 0
		}
		if course.Index(num) < 0 {
			return nil, true
		}
		return screen.OpenChapter{Idx: -1, Num: num}, true
	case m.screenKey(msg) >= 0:
		e, scenario := m.opts[m.screenKey(msg)], -1
		if e.First {
			scenario = 0
		}
		return open(screen.Link{View: e.Kind, Scenario: scenario}), true
	case key.Matches(msg, keys.Progress):
		m.resetting = true
		m.note = "forget every drill score, mock interview and plan step done? " + widget.KeyName(keys.Progress) +
			" again forgets them, any other key keeps them"
		return nil, true
	}
	return nil, false
}

// screenKey is the index into the menu's screens of the one msg's key
// opens, or -1.
func (m Model) screenKey(msg tea.KeyMsg) int {
	for i, e := range m.opts {
		if msg.String() == e.Key {
			return i
		}
	}
	return -1
}

// keyOf is the key that opens screen k.
func (m Model) keyOf(k screen.Kind) string {
	for _, e := range m.opts {
		if e.Kind == k {
			return e.Key
		}
	}
	return ""
}

// CapturesEsc: esc clears a filter before it means "back".
func (m Model) CapturesEsc() bool { return m.list.FilterState() != list.Unfiltered }

// Typing reports whether the list's filter has the keyboard.
func (m Model) Typing() bool { return m.filtering() }

func (m Model) Keys() help.KeyMap { return m.keys }
func (m Model) Name() string      { return "menu" }
func (m Model) Ask() tea.Msg      { return m.ask }

// Resize gives the menu the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m, _ = m.update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// WithNote shows note (what happened to the saved progress) until the
// next key.
func (m Model) WithNote(note string) Model {
	m.note = note
	return m
}

// View is the list, the selected entry's description, a note, the keys.
func (m Model) View() string {
	th, w := m.th, m.w
	body := append(widget.SplitLines(m.list.View()), m.more())
	var footer []string
	if it, ok := m.list.SelectedItem().(menuItem); ok {
		footer = append(footer, widget.WrapRows(th, widget.StDim, it.desc, w, 2)...)
	}
	for len(footer) < 2 {
		footer = append(footer, "")
	}
	if m.note != "" {
		footer = append(footer, widget.WrapRows(th, widget.StQueued, m.note, w, 2)...)
	} else {
		footer = append(footer, th.Paint(widget.StDim, fmt.Sprintf("new here? %s: a plan for one evening or one week · %d chapters", m.keyOf("plan"), len(course.Chapters()))))
	}
	footer = append(footer, widget.HelpLine(m.help, m.Keys(), w))
	return widget.Frame(body, footer, w, m.h)
}

// more is the row under the list: what is above and below the entries
// shown, the screens by their keys, so that a short terminal hides no
// screen behind a page ("" when everything is shown).
func (m Model) more() string {
	items := m.list.VisibleItems()
	start, end := m.list.Paginator.GetSliceBounds(len(items))
	var parts []string
	if start > 0 {
		parts = append(parts, fmt.Sprintf("↑ %d more above", start))
	}
	if below := items[end:]; len(below) > 0 {
		var keys []string
		chapters := 0
		for _, it := range below {
			if mi, ok := it.(menuItem); ok && mi.chapter < 0 {
				keys = append(keys, strings.Fields(mi.title)[0])
			} else {
				chapters++
			}
		}
		what := fmt.Sprintf("↓ %d more below", len(below))
		if len(keys) > 0 {
			what += ": " + strings.Join(keys, " ")
			if chapters > 0 {
				what += fmt.Sprintf(" and %d chapters", chapters)
			}
			what += " (each key opens its screen from here)"
		}
		parts = append(parts, what)
	}
	return m.th.Paint(widget.StDim, "  "+strings.Join(parts, " · "))
}
