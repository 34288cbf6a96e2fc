package cluster

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// A stand-in for the app around the cluster screen (the app imports this
// package, so its tests cannot be used here): the menu, chapter 06 whose
// key 2 opens the screen, C on the menu, esc back, ? for the keys, q to
// quit. The app's own tests check its routing to this screen.

const (
	scrMenu = iota
	scrChapter
	scrCluster
)

type appModel struct {
	cluster Model
	scr     int
	chapter int // the chapter shown under the cluster screen, 0 for none
	sheet   bool
}

func appNew(t testing.TB, w, h int) appModel {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	return appModel{cluster: New(widget.NewTheme()).Resize(w, h).(Model)}
}

func (m appModel) Init() tea.Cmd { return nil }

func (m appModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		m.cluster, cmd = m.cluster.update(msg)
		return m, cmd
	}
	s := k.String()
	switch {
	case s == "ctrl+c" || s == "q" && !m.sheet || s == "q" && m.sheet:
		m.cluster = m.cluster.leave()
		return m, tea.Quit
	case m.sheet:
		m.sheet = false
	case m.scr == scrMenu && s == "6":
		m.scr, m.chapter = scrChapter, 6
	case m.scr == scrMenu && s == "C", m.scr == scrChapter && s == "2":
		var cmd tea.Cmd
		m.cluster, cmd = m.cluster.Open()
		m.scr = scrCluster
		return m, cmd
	case m.scr == scrCluster && s == "?":
		m.sheet = true
	case m.scr == scrCluster && s == "esc":
		m.cluster = m.cluster.leave()
		m.scr = scrMenu
		if m.chapter != 0 {
			m.scr = scrChapter
		}
	case m.scr == scrCluster:
		var cmd tea.Cmd
		m.cluster, cmd = m.cluster.update(msg)
		return m, cmd
	case s == "esc":
		m.scr, m.chapter = scrMenu, 0
	}
	return m, nil
}

func (m appModel) View() string {
	switch {
	case m.sheet:
		h := help.New()
		h.ShowAll = true
		return "Keys · " + m.cluster.Name() + "\n" + h.View(m.cluster.Keys())
	case m.scr == scrCluster:
		return m.cluster.View()
	}
	return "menu or chapter"
}

// appSend delivers msg and then what its commands send back, except
// commands that wait (ticks, timers).
func appSend(m appModel, msg tea.Msg) appModel {
	return uitest.SendTo[appModel, tea.Model](m, msg, 100*time.Millisecond)
}

// appPress delivers each key by name in turn.
func appPress(m appModel, keys ...string) appModel { return uitest.Press(m, appSend, keys...) }
