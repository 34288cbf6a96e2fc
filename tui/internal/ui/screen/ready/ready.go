// Package ready is the "ready?" screen: per topic the cards answered and
// got and the last mock's points said, how far each study plan has come,
// and the next three things to review with where to find each. It shows
// package ready's Report of the saved progress, the same data as
// `tui progress`.
package ready

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ready"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

type keyMap struct{}

func (keyMap) ShortHelp() []key.Binding {
	return []key.Binding{widget.Global.Back, widget.Global.Help, widget.Global.Quit}
}
func (k keyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

type Model struct {
	th    *widget.Theme
	w, h  int
	help  help.Model
	store *progress.Store
}

func New(th *widget.Theme, store *progress.Store) Model {
	return Model{th: th, help: widget.NewHelp(th), store: store}
}

// Report is what the screen shows: the saved progress now.
func (m Model) Report() ready.Report { return ready.OfAt(m.store.P, m.store.Now()) }

func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = s.Width, s.Height
	}
	return m, nil
}

// View is the topics' table, the plans on one row each, then the review.
func (m Model) View() string {
	th, w, r := m.th, m.w, m.Report()
	body := []string{widget.TitleBar(th, th.Paint(widget.StTitle, "Ready?")+
		th.Paint(widget.StDim, "   "+text.Count(r.Mocks, "mock interview")+" finished"), w),
		th.Paint(widget.StHeading, ready.TopicHeader)}
	for _, t := range r.Topics {
		body = append(body, t.Row())
	}
	for _, p := range r.Plans {
		body = append(body, th.Paint(widget.StDim, fmt.Sprintf("plan %-12s %d of %d steps done, %d of %d minutes",
			strings.ToLower(p.Title)+":", p.Done, p.Steps, p.DoneMinutes, p.Minutes)))
	}
	body = append(body, th.Paint(widget.StHeading, "Review next"))
	for i, v := range r.Review {
		what := text.WrapHanging(v.What+" ("+v.Why+")", w, fmt.Sprintf("%d. ", i+1), "   ")
		if len(what) > 2 {
			what = append(what[:1], ansi.Truncate(what[1], w-1, "")+"…")
		}
		body = append(body, what...)
		body = append(body, th.Paint(widget.StLabel, "   "+v.Where))
	}
	return widget.Frame(body, []string{widget.HelpLine(m.help, keyMap{}, w)}, w, m.h)
}

func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

func (m Model) Keys() help.KeyMap { return keyMap{} }
func (m Model) Name() string      { return "ready?" }
func (m Model) CapturesEsc() bool { return false }
