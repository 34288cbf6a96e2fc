package main

import (
	tea "github.com/charmbracelet/bubbletea"
)

// The app is one Bubble Tea model that owns a model per screen. Update
// routes messages; View (view_app.go) picks the screen's pure view function.

type screen int

const (
	scrMenu screen = iota
	scrChapter
	scrLab
	scrWorst
	scrPrefetch
	scrCards
)

// Minimum terminal the layouts are designed for.
const (
	minW = 80
	minH = 24
)

type appModel struct {
	w, h int
	th   theme

	scr      screen
	help     bool
	menuSel  int // index into uiChapters
	chapter  int // the open chapter (index into uiChapters)
	scroll   int // chapter view scroll offset
	quitting bool

	lab   labModel
	worst worstModel
	pf    pfModel
	cards cardsModel
}

func newAppModel(th theme) appModel {
	return appModel{th: th, lab: newLabModel(), worst: newWorstModel(), pf: newPfModel()}
}

// Init starts nothing: the first frame needs no I/O.
func (m appModel) Init() tea.Cmd { return nil }

func (m appModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m, nil
	case labTickMsg:
		var cmd tea.Cmd
		m.lab, cmd = m.lab.tick(msg)
		return m, cmd
	case pfTickMsg:
		var cmd tea.Cmd
		m.pf, cmd = m.pf.tick(msg)
		return m, cmd
	case worstDoneMsg:
		m.worst = m.worst.done(msg)
		return m, nil
	case tea.KeyMsg:
		// Esc followed quickly by a key reaches us as alt+key; the course
		// binds no alt keys, so it is the two keys it was typed as.
		if msg.Alt && msg.Type == tea.KeyRunes && !m.editing() {
			nm, cmd1 := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
			nm, cmd2 := nm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes, Paste: msg.Paste})
			return nm, tea.Batch(cmd1, cmd2)
		}
		// Keys typed faster than the terminal is read arrive as one message
		// ("iw"); outside a text field each rune is a command of its own.
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.editing() {
			var cmds []tea.Cmd
			var nm tea.Model = m
			for _, r := range msg.Runes {
				var cmd tea.Cmd
				nm, cmd = nm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				cmds = append(cmds, cmd)
			}
			return nm, tea.Batch(cmds...)
		}
		return m.key(msg)
	}
	return m, nil
}

// editing reports whether a text field has the keyboard (q and ? are text then).
func (m appModel) editing() bool {
	return (m.scr == scrLab && m.lab.editing) || (m.scr == scrPrefetch && m.pf.editing)
}

func (m appModel) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := msg.String()
	if k == "ctrl+c" {
		m.quitting = true
		return m, tea.Quit
	}
	if m.help {
		if k == "q" {
			m.quitting = true
			return m, tea.Quit
		}
		m.help = false // any other key closes the overlay
		return m, nil
	}
	if !m.editing() {
		switch k {
		case "?":
			m.help = true
			return m, nil
		case "q":
			m.quitting = true
			return m, tea.Quit
		}
	}
	if m.w < minW || m.h < minH {
		return m, nil // only quitting works on a too-small terminal
	}
	switch m.scr {
	case scrMenu:
		return m.menuKey(k)
	case scrChapter:
		return m.chapterKey(k)
	case scrLab:
		var cmd tea.Cmd
		var ok bool
		m.lab, cmd, ok = m.lab.update(msg)
		if ok {
			return m, cmd
		}
		switch k {
		case "w":
			return m.openWorst(m.lab.algo[0])
		case "esc", "backspace":
			m.lab.playing = false
			m.openChapter(5)
		}
		return m, nil
	case scrWorst:
		var cmd tea.Cmd
		var load, ok bool
		m.worst, cmd, load, ok = m.worst.update(msg)
		if load {
			e, _ := m.worst.current()
			m.lab.loadArrivals(e.res.Arrivals, e.res.Params, e.res.Algorithm)
			m.lab.note = "loaded the worst case found for " + e.res.Algorithm + " (left); pick the right side with b"
			m.scr = scrLab
			return m, nil
		}
		if ok {
			return m, cmd
		}
		if k == "esc" || k == "backspace" {
			m.scr = scrLab
		}
		return m, nil
	case scrCards:
		var ok bool
		if m.cards, ok = m.cards.update(msg); !ok && (k == "esc" || k == "backspace") {
			m.openChapter(7)
		}
		return m, nil
	case scrPrefetch:
		var cmd tea.Cmd
		var ok bool
		m.pf, cmd, ok = m.pf.update(msg)
		if ok {
			return m, cmd
		}
		if k == "esc" || k == "backspace" {
			m.pf.playing = false
			m.openChapter(6)
		}
		return m, nil
	}
	return m, nil
}

func (m appModel) openWorst(algo string) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.worst, cmd = m.worst.open(algo, m.lab.params)
	m.lab.playing = false
	m.scr = scrWorst
	return m, cmd
}

// openChapter shows chapter num (1-based).
func (m *appModel) openChapter(num int) {
	for i, c := range uiChapters {
		if c.num == num {
			m.chapter, m.menuSel = i, i
		}
	}
	m.scr, m.scroll = scrChapter, 0
}

// openView enters a chapter's interactive view.
func (m appModel) openView(v interactive) (tea.Model, tea.Cmd) {
	switch v {
	case ivLab:
		m.scr = scrLab
	case ivWorst:
		return m.openWorst(m.lab.algo[0])
	case ivPrefetch:
		m.scr = scrPrefetch
	case ivDrill:
		m.scr = scrCards
	}
	return m, nil
}

func (m appModel) menuKey(k string) (tea.Model, tea.Cmd) {
	n := len(uiChapters)
	switch k {
	case "down", "j":
		m.menuSel = (m.menuSel + 1) % n
	case "up", "k":
		m.menuSel = (m.menuSel + n - 1) % n
	case "enter", "right", "l":
		m.openChapter(uiChapters[m.menuSel].num)
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		m.openChapter(int(k[0] - '0'))
	case "L":
		return m.openView(ivLab)
	case "P":
		return m.openView(ivPrefetch)
	case "W":
		return m.openView(ivWorst)
	case "D":
		return m.openView(ivDrill)
	}
	return m, nil
}

func (m appModel) chapterKey(k string) (tea.Model, tea.Cmd) {
	views := uiChapters[m.chapter].views
	switch k {
	case "esc", "backspace", "left", "h":
		m.scr = scrMenu
	case "down", "j":
		m.scroll = min(m.scroll+1, chapterMaxScroll(m.chapter, m.w, m.h))
	case "up", "k":
		m.scroll = max(0, m.scroll-1)
	case "pgdown", "f", " ":
		m.scroll = min(m.scroll+max(1, m.h-4), chapterMaxScroll(m.chapter, m.w, m.h))
	case "pgup", "b":
		m.scroll = max(0, m.scroll-max(1, m.h-4))
	case "home", "g":
		m.scroll = 0
	case "end", "G":
		m.scroll = chapterMaxScroll(m.chapter, m.w, m.h)
	case "n", "tab":
		m.openChapter(uiChapters[(m.chapter+1)%len(uiChapters)].num)
	case "N", "shift+tab":
		m.openChapter(uiChapters[(m.chapter+len(uiChapters)-1)%len(uiChapters)].num)
	case "enter":
		if len(views) > 0 {
			return m.openView(views[0])
		}
	case "w":
		for _, v := range views {
			if v == ivWorst {
				return m.openView(v)
			}
		}
	}
	return m, nil
}
