package main

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// The app is one root model that owns one component per screen. Update
// routes each message to the screen it is for; the screens ask for
// navigation with messages (openLinkMsg, openChapterMsg, …), and esc goes
// back to the screen the learner came from.

type screen int

const (
	scrMenu screen = iota
	scrChapter
	scrLab
	scrWorst
	scrPrefetch
	scrCluster
	scrCards
	scrMock
)

// Navigation messages, sent by the screens' commands.
type (
	openLinkMsg    struct{ link chapterLink }
	openChapterMsg struct {
		idx, num int // an index into uiChapters, or (idx -1) a chapter number
		anchor   string
	}
	openWorstMsg struct {
		algo   string
		params lab.Params
	}
	loadWorstMsg     struct{ res lab.WorstResult }
	resetProgressMsg struct{}
)

type appModel struct {
	th      *theme
	w, h    int
	scr     screen
	back    []screen // where esc returns to
	showAll bool     // the ? sheet is up
	help    help.Model
	store   *progressStore

	menu    menuModel
	chapter chapterModel
	lab     labModel
	worst   worstModel
	pf      pfModel
	cluster clusterModel
	cards   cardsModel
	mock    mockModel
}

// newAppModel builds every screen. plain renders chapter text without
// colour; dark picks glamour's dark style; note is shown on the menu (what
// happened to the saved progress).
func newAppModel(th *theme, store *progressStore, plain, dark bool, note string) appModel {
	m := appModel{
		th: th, help: newHelp(th), store: store,
		menu: newMenuModel(th), chapter: newChapterModel(th, plain, dark), lab: newLabModel(th),
		worst: newWorstModel(th), pf: newPfModel(th), cluster: newClusterModel(th),
		cards: newCardsModel(th, store), mock: newMockModel(th, store),
	}
	m.menu.note = note
	return m
}

func (m appModel) Init() tea.Cmd { return nil }

func (m appModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		var cmds [8]tea.Cmd
		m.menu, cmds[0] = m.menu.Update(msg)
		m.chapter, cmds[1] = m.chapter.Update(msg)
		m.lab, cmds[2] = m.lab.Update(msg)
		m.worst, cmds[3] = m.worst.Update(msg)
		m.pf, cmds[4] = m.pf.Update(msg)
		m.cards, cmds[5] = m.cards.Update(msg)
		m.mock, cmds[6] = m.mock.Update(msg)
		m.cluster, cmds[7] = m.cluster.Update(msg)
		return m, tea.Batch(cmds[:]...)
	case openLinkMsg:
		return m.openLink(msg.link)
	case openChapterMsg:
		idx := msg.idx
		if idx < 0 {
			idx = chapterIndex(msg.num)
		}
		if idx < 0 {
			return m, nil
		}
		m.chapter = m.chapter.open(idx, msg.anchor)
		return m.push(scrChapter), nil
	case openWorstMsg:
		var cmd tea.Cmd
		m.worst, cmd = m.worst.open(msg.algo, msg.params)
		m.lab.pause()
		return m.push(scrWorst), cmd
	case loadWorstMsg:
		r := msg.res
		m.lab.loadArrivals(r.Arrivals, r.Params, r.Algorithm)
		m.lab.note = "loaded the worst case found for " + r.Algorithm + " (left); pick the right side with b"
		return m.pop(), nil
	case resetProgressMsg:
		if _, err := resetProgress(); err != nil {
			m.menu.note = "could not reset the saved progress: " + err.Error()
			return m, nil
		}
		m.store.p = emptyProgress()
		m.menu.note = "saved progress reset: drill scores and interviews start fresh"
		return m, nil
	case labTickMsg:
		var cmd tea.Cmd
		m.lab, cmd = m.lab.Update(msg)
		return m, cmd
	case pfTickMsg:
		var cmd tea.Cmd
		m.pf, cmd = m.pf.Update(msg)
		return m, cmd
	case worstDoneMsg:
		var cmd tea.Cmd
		m.worst, cmd = m.worst.Update(msg)
		return m, cmd
	case clusterMsg:
		var cmd tea.Cmd
		m.cluster, cmd = m.cluster.Update(msg)
		return m, cmd
	case tea.KeyMsg:
		return m.key(msg)
	}
	// Everything else (the mock interview's clock, a list's filter) goes to
	// the screen on top.
	return m.route(msg)
}

// key handles the keys every screen shares, then hands the key to the
// screen on top.
func (m appModel) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	// Keys typed faster than the terminal is read arrive as one message
	// ("iw"); outside a text field each rune is a command of its own.
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.capturing() {
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
	if msg.Alt && (msg.Type == tea.KeyEsc || msg.Type == tea.KeyRunes && !m.capturing()) {
		second := msg
		second.Alt = false
		nm, cmd1 := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		nm, cmd2 := nm.Update(second)
		return nm, tea.Batch(cmd1, cmd2)
	}
	switch {
	case key.Matches(msg, gkeys.ForceQuit):
		return m.quit()
	case m.showAll:
		if key.Matches(msg, gkeys.Quit) {
			return m.quit()
		}
		m.showAll = false // any other key closes the sheet
		return m, nil
	case m.w < minW || m.h < minH:
		if key.Matches(msg, gkeys.Quit) {
			return m.quit()
		}
		return m, nil // only quitting works on a too-small terminal
	case !m.capturing() && key.Matches(msg, gkeys.Quit):
		return m.quit()
	case !m.capturing() && key.Matches(msg, gkeys.Help):
		m.showAll = true
		return m, nil
	case key.Matches(msg, gkeys.Back) && !m.wantsEsc():
		return m.pop(), nil
	}
	return m.route(msg)
}

// quit ends the app; a cluster run under way is torn down first.
func (m appModel) quit() (tea.Model, tea.Cmd) {
	m.cluster = m.cluster.leave()
	return m, tea.Quit
}

// route hands msg to the screen on top, then follows the navigation it
// asked for at once (before any later key, which may already be queued).
func (m appModel) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	var ask tea.Msg
	switch m.scr {
	case scrMenu:
		m.menu, cmd = m.menu.Update(msg)
		ask, m.menu.ask = m.menu.ask, nil
	case scrChapter:
		m.chapter, cmd = m.chapter.Update(msg)
		ask, m.chapter.ask = m.chapter.ask, nil
	case scrLab:
		m.lab, cmd = m.lab.Update(msg)
		ask, m.lab.ask = m.lab.ask, nil
	case scrWorst:
		m.worst, cmd = m.worst.Update(msg)
		ask, m.worst.ask = m.worst.ask, nil
	case scrPrefetch:
		m.pf, cmd = m.pf.Update(msg)
	case scrCluster:
		m.cluster, cmd = m.cluster.Update(msg)
	case scrCards:
		m.cards, cmd = m.cards.Update(msg)
	case scrMock:
		m.mock, cmd = m.mock.Update(msg)
	}
	if ask != nil {
		nm, cmd2 := m.Update(ask)
		return nm, tea.Batch(cmd, cmd2)
	}
	return m, cmd
}

// capturing reports whether the screen on top takes typed text (q and ?
// are text then).
func (m appModel) capturing() bool {
	switch m.scr {
	case scrMenu:
		return m.menu.filtering()
	case scrLab:
		return m.lab.editing
	case scrPrefetch:
		return m.pf.editing
	}
	return false
}

// wantsEsc reports whether esc means something on the screen on top
// (cancel an edit, clear a filter, end an interview) rather than "back".
func (m appModel) wantsEsc() bool {
	switch m.scr {
	case scrMenu:
		return m.menu.wantsEsc()
	case scrLab:
		return m.lab.wantsEsc()
	case scrPrefetch:
		return m.pf.wantsEsc()
	case scrMock:
		return m.mock.wantsEsc()
	}
	return false
}

// push opens s above the current screen; esc comes back here. Opening the
// screen already on top keeps one entry.
func (m appModel) push(s screen) appModel {
	if s != m.scr {
		m.back = append(m.back, m.scr)
	}
	m.scr, m.showAll = s, false
	return m
}

// pop goes back one screen (the menu stays the bottom).
func (m appModel) pop() appModel {
	m.lab.pause()
	m.pf.pause()
	if m.scr == scrCluster {
		m.cluster = m.cluster.leave() // its processes go with it
	}
	if n := len(m.back); n > 0 {
		m.scr, m.back = m.back[n-1], m.back[:n-1]
	} else {
		m.scr = scrMenu
	}
	return m
}

// openLink opens a chapter's link or a menu entry's screen.
func (m appModel) openLink(l chapterLink) (tea.Model, tea.Cmd) {
	switch l.view {
	case ivLab:
		if l.scenario >= 0 {
			m.lab.loadScenario(l.scenario)
		}
		return m.push(scrLab), nil
	case ivWorst:
		return m.Update(openWorstMsg{algo: m.lab.algo[0], params: m.lab.params})
	case ivPrefetch:
		return m.push(scrPrefetch), nil
	case ivCluster:
		var cmd tea.Cmd
		m.cluster, cmd = m.cluster.open()
		return m.push(scrCluster), cmd
	case ivDrill:
		m.cards = m.cards.open()
		return m.push(scrCards), nil
	case ivMock:
		if m.mock.state != mockRunning {
			m.mock = m.mock.choose()
		}
		return m.push(scrMock), nil
	}
	return m, nil
}

// topKeys is the key map of the screen on top, and its name.
func (m appModel) topKeys() (helpMap, string) {
	switch m.scr {
	case scrChapter:
		return m.chapter.keyMap(), "chapter"
	case scrLab:
		return m.lab.keyMap(), "lab"
	case scrWorst:
		return m.worst.keyMap(), "worst case"
	case scrPrefetch:
		return m.pf.keyMap(), "prefetch lab"
	case scrCluster:
		return m.cluster.keyMap(), "the cluster"
	case scrCards:
		return m.cards.keyMap(), "question cards"
	case scrMock:
		return m.mock.keyMap(), "mock interview"
	}
	return m.menu.keyMap(), "menu"
}

// View renders the screen on top (the screens only render).
func (m appModel) View() string {
	if m.w == 0 || m.h == 0 {
		return "" // the first WindowSizeMsg is on its way
	}
	if m.w < minW || m.h < minH {
		return tooSmallView(m.th, m.w, m.h)
	}
	if m.showAll {
		return m.sheet()
	}
	switch m.scr {
	case scrChapter:
		return m.chapter.View()
	case scrLab:
		return m.lab.View()
	case scrWorst:
		return m.worst.View()
	case scrPrefetch:
		return m.pf.View()
	case scrCluster:
		return m.cluster.View()
	case scrCards:
		return m.cards.View()
	case scrMock:
		return m.mock.View()
	}
	return m.menu.View()
}

// sheet is the full help of the screen on top (help.Model's full view of
// its key map); the lab's also explains its marks.
func (m appModel) sheet() string {
	th := m.th
	km, name := m.topKeys()
	h := m.help
	h.Width, h.ShowAll = 0, true // unlimited: the blocks below are cut to fit
	body := []string{titleBar(th, th.paint(stTitle, "Keys · "+name), m.w), ""}
	// help.Model drops the columns that do not fit the width: the columns
	// go in as many blocks as it takes.
	var block [][]key.Binding
	for _, col := range km.FullHelp() {
		if len(block) > 0 && lipgloss.Width(h.FullHelpView(append(block, col))) > m.w {
			body = append(append(body, splitLines(h.FullHelpView(block))...), "")
			block = nil
		}
		block = append(block, col)
	}
	body = append(body, splitLines(h.FullHelpView(block))...)
	if m.scr == scrLab {
		body = append(body, "", th.paint(stHeading, "Marks"),
			th.paint(stKey, "1–9 a–z")+" a request: on arr where it arrived, on up where a queued one left",
			th.paint(stAllowed, string(glyphSent))+" sent at once   "+th.paint(stQueued, string(glyphLinkStart)+string(glyphLink)+"3")+
				" queued at ╰, sent where its number is   "+th.paint(stRejected, string(glyphRejected))+" rejected",
			th.paint(stFrame, string(glyphFrameL)+string(glyphFrame)+string(glyphFrameR))+" a window W holding more than L   "+
				th.paint(stBoundary, string(glyphBoundary))+" a window boundary")
		for _, l := range []string{
			"max/W: most sent in any window W · over: max/W − L · wait: the longest queue wait",
			"keeps N: the most values the key held on its hot path (fixed window 2, log = its timestamps)",
			"N: the sliding counter's sub-windows per W (1 = previous and current window)",
		} {
			body = append(body, wrapRows(th, stNone, l, m.w, 2)...)
		}
	}
	return frame(body, []string{th.paint(stDim, "any key closes this sheet · "+keyHint(gkeys.Quit))}, m.w, m.h)
}

// tooSmallView asks for a bigger terminal instead of drawing a broken layout.
func tooSmallView(th *theme, w, h int) string {
	msg := []string{
		fmt.Sprintf("This terminal is %d×%d.", w, h),
		fmt.Sprintf("The course needs at least %d×%d:", minW, minH),
		"please enlarge the window.",
		keyName(gkeys.Quit) + " quits.",
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
	return frame(rows, nil, w, h)
}
