package app

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cards"
	labscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/prefetch"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/reader"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/worst"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// The screens' names on the stack.
const (
	scrMenu     = "menu"
	scrChapter  = "chapter"
	scrLab      = "lab"
	scrWorst    = "worst case"
	scrPrefetch = "prefetch lab"
	scrMock     = "mock interview"
)

// scr names the screen on top.
func (m Model) scr() string { return m.top().Name() }

// The screens the tests look into: the one on the stack (the highest), or
// the one kept from an earlier visit, or a new one.
func (m Model) lab() labscreen.Model { s, _ := m.labScreen(); return s }

func (m Model) mock() mock.Model {
	s, _ := m.find("mock")
	return s.(mock.Model)
}

func (m Model) cards() cards.Model {
	s, _ := m.find("drill")
	return s.(cards.Model)
}

// chapter is the highest chapter on the stack, or a new one.
func (m Model) chapter() reader.Model {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if r, ok := m.stack[i].(reader.Model); ok {
			return r
		}
	}
	return reader.New(m.th, true, true)
}

func (m Model) pf() prefetch.Model {
	s, _ := m.find("prefetch")
	return s.(prefetch.Model)
}

func (m Model) worst() worst.Model { s, _ := m.worstScreen(); return s }

// withTop replaces the screen on top.
func (m Model) withTop(s screen.Screen) Model { return m.setTop(s) }

// Model-level tests: keys and sizes go to Update, assertions read what a
// learner sees in View() (plain text: the tests render without colour) or
// the model itself. They assert the numbers, marks and keys on screen, not
// whole frames, so a reworded hint does not break them.

// appNew is the app at w×h with a fresh, private progress file.
func appNew(t testing.TB, w, h int) Model {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // transcripts
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	store, note := progress.Load()
	return appRestart(t, store, note, w, h)
}

// appRestart starts the app again on a progress store, as a new process
// would after loadProgress.
func appRestart(t testing.TB, store *progress.Store, note string, w, h int) Model {
	t.Helper()
	m := New(widget.NewTheme(), store, true, true, note)
	return appSend(m, tea.WindowSizeMsg{Width: w, Height: h})
}

// appSend delivers msg and then what its commands send back, as the
// Bubble Tea runtime would, except commands that wait (ticks, timers): the
// tests deliver those themselves.
func appSend(m Model, msg tea.Msg) Model { return appSendWithin(m, msg, 100*time.Millisecond) }

// appSendWithin is appSend waiting up to patience for each command: a test
// that runs a real clock of short ticks gives them time to arrive on a
// loaded machine instead of dropping the rest of the chain.
func appSendWithin(m Model, msg tea.Msg, patience time.Duration) Model {
	return uitest.SendTo[Model, tea.Model](m, msg, patience)
}

// appPress delivers each key by name in turn.
// appOpen presses key on the menu of a new 80×24 app and checks that it
// opens the screen named want.
func appOpen(t *testing.T, key, want string) Model {
	t.Helper()
	m := appPress(appNew(t, 80, 24), key)
	if m.scr() != want {
		t.Fatalf("%s opens %q, want %q", key, m.scr(), want)
	}
	return m
}

func appPress(m Model, keys ...string) Model { return uitest.Press(m, appSend, keys...) }

// appType types text one rune at a time, as a terminal delivers it.
func appType(m Model, s string) Model {
	for _, r := range s {
		m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// Keys by name and the frame checks are uitest's, shared with the screens' own tests.
var (
	appKey         = uitest.Key
	appCheckFrame  = uitest.CheckFrame
	appWant        = uitest.Want
	appLacks       = uitest.Lacks
	appRow         = uitest.Row
	appRowStarting = uitest.RowStarting
	appIsQuit      = uitest.IsQuit
	flatText       = uitest.Flat
)
