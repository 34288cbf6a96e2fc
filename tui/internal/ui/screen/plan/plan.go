// Package plan is the study plans' screen: one plan's steps with a mark on
// each step done, tab for the other plan, enter to open a step's place (a
// README section in the reader, the lab, a screen, the drill on the step's
// cards, the mock) and x to mark an exercise written. A step is done when
// the saved progress shows it (package plan's Step.Done).
package plan

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

type Model struct {
	th    *widget.Theme
	w, h  int
	help  help.Model
	store *progress.Store
	plans []plan.Plan
	p     int // the plan shown, an index into plans
	cur   int // the step selected
	note  string
	ask   tea.Msg
	// opened is the step whose place enter opened, until the learner is
	// back on the plan: once it is done, the cursor moves to the next step.
	opened string
}

func New(th *widget.Theme, store *progress.Store) Model {
	return Model{th: th, help: widget.NewHelp(th), store: store, plans: plan.Plans()}
}

// Plan is the plan shown; Selected the step selected.
func (m Model) Plan() plan.Plan     { return m.plans[m.p] }
func (m Model) Selected() plan.Step { return m.Plan().Steps[m.cur] }

// Cursor is the index of the step selected.
func (m Model) Cursor() int { return m.cur }

func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m.ask = nil
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		m.note = ""
		n := len(m.Plan().Steps)
		switch {
		case key.Matches(msg, keys.Up):
			m.cur = max(m.cur-1, 0)
		case key.Matches(msg, keys.Down):
			m.cur = min(m.cur+1, n-1)
		case key.Matches(msg, keys.Switch):
			m.p, m.cur = (m.p+1)%len(m.plans), 0
		case key.Matches(msg, keys.Open):
			if s := m.Selected(); (s.Kind == plan.Read || s.Kind == plan.Exercise) && course.Index(s.Chapter) < 0 {
				m.note = "chapter " + plan.ChapterID(s.Chapter) + " is not in the app yet: read " + s.Where()
				break
			}
			m.ask = m.open(m.Selected())
			m.opened = m.Selected().ID
		case key.Matches(msg, keys.Mark):
			return m.mark(m.Selected())
		}
	}
	return m, nil
}

// The mock's forms, as a link to the mock screen names them (Link.Scenario;
// -1 keeps the form last chosen).
const (
	MockTrackForm = 0
	MockShortForm = 1
)

// open is the navigation that shows step s's place.
func (m Model) open(s plan.Step) tea.Msg {
	// A step names the screen it opens by its kind in the app's registry.
	link := func(k screen.Kind, scenario int) tea.Msg {
		return screen.OpenLink{Link: screen.Link{View: k, Scenario: scenario}}
	}
	switch s.Kind {
	case plan.Read:
		return screen.OpenChapter{Idx: -1, Num: s.Chapter, Anchor: "## " + s.Section,
			Note: "plan step " + s.ID + ": read this section to its end"}
	case plan.Exercise:
		return screen.OpenChapter{Idx: -1, Num: s.Chapter, Anchor: "## " + s.Section,
			Note: "plan step " + s.ID + ": " + s.Where() + " in a shell; once it passes, x on the plan marks it written"}
	case plan.Lab:
		for i, sc := range lab.Scenarios {
			if sc.Name == s.Open {
				return link("lab", i)
			}
		}
	case plan.Screen:
		return link(screen.Kind(s.Open), -1) // plan.OpenPath …: the screens' names
	case plan.Cards:
		return screen.OpenCards{IDs: s.Cards}
	case plan.Mock:
		if s.Open == plan.MockShort {
			return link("mock", MockShortForm)
		}
		return link("mock", MockTrackForm)
	}
	return nil
}

// mark records an exercise step as written, or no longer (the command
// saves it); other steps are done by doing them.
func (m Model) mark(s plan.Step) (Model, tea.Cmd) {
	if s.Kind != plan.Exercise {
		m.note = "x marks exercises only; this step is marked when you do it"
		return m, nil
	}
	done := !s.Done(m.store.P)
	m.store.SetExercise(plan.ChapterID(s.Chapter), done)
	m.note = "chapter " + plan.ChapterID(s.Chapter) + "'s exercise marked written"
	if !done {
		m.note = "chapter " + plan.ChapterID(s.Chapter) + "'s exercise marked not written"
	}
	return m, screen.Save(m.store)
}

// Resize lays the plan out for w columns; the app calls it too when the
// learner comes back to the plan, which then says whether the step opened
// is done, and if so moves on to the next step.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	if m.opened == "" || m.opened != m.Selected().ID || !m.Selected().Done(m.store.P) {
		return m
	}
	m.opened = ""
	m.note = DoneNote(m.Plan(), m.cur)
	m.cur = min(m.cur+1, len(m.Plan().Steps)-1)
	return m
}

// DoneNote says that step i of p is done and which step comes next.
func DoneNote(p plan.Plan, i int) string {
	s := p.Steps[i]
	if i+1 == len(p.Steps) {
		return "plan step " + s.ID + " done: the last step of " + strings.ToLower(p.Title)
	}
	next := p.Steps[i+1]
	return "plan step " + s.ID + " done; next " + next.ID + ": " + next.What
}

func (m Model) Keys() help.KeyMap { return keys }
func (m Model) Name() string      { return "study plan" }
func (m Model) CapturesEsc() bool { return false }
func (m Model) Ask() tea.Msg      { return m.ask }
