// Package cluster is chapter 06 part 3 on a real Redis Cluster: the run of
// `tui cluster` off the UI goroutine, drawn as it is measured.
package cluster

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// The cluster screen as the app sees it (cluster.go is the screen itself).

// Update handles the run's events, the spinner and the keys.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) { return m.update(msg) }

// Resize gives the screen the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

func (m Model) Keys() help.KeyMap { return m.keyMap() }
func (m Model) Name() string      { return "the cluster" }
func (m Model) CapturesEsc() bool { return m.wantsEsc() }

// Leave stops a run under way: no redis-server outlives the screen.
func (m Model) Leave() screen.Screen { return m.leave() }

// Open shows the last complete run, or starts a new one.
func (m Model) Open() (Model, tea.Cmd) { return m.open() }

// Running reports whether a run is under way.
func (m Model) Running() bool { return m.state == csRunning }
