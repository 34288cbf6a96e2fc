package app

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cards"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/reader"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/worst"
)

// The two chapter 05 screens, which open each other (lab.OpenWorst,
// lab.LoadWorst).
func (m Model) labScreen() (lab.Model, int) {
	s, at := m.find("lab")
	return s.(lab.Model), at
}

func (m Model) worstScreen() (worst.Model, int) {
	s, at := m.find("worst")
	return s.(worst.Model), at
}

// navigate follows a navigation message a screen sent.
func (m Model) navigate(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case screen.OpenLink:
		return m.openLink(msg.Link)
	case screen.OpenChapter:
		idx := msg.Idx
		if idx < 0 {
			idx = course.Index(msg.Num)
		}
		if idx < 0 {
			return m, nil
		}
		// A chapter opened is a screen of its own: esc from it comes back
		// to the chapter the learner was reading before, not to this one.
		r := reader.New(m.th, m.plain, m.dark).Resize(m.w, m.h).(reader.Model)
		m = m.show(r.WithNote(msg.Note).Open(idx, msg.Anchor), -1)
		return m.recordReading()
	case screen.OpenCards:
		s, at := m.find("drill")
		return m.show(s.(cards.Model).OpenIDs(msg.IDs), at), nil
	case lab.OpenWorst:
		w, at := m.worstScreen()
		w, cmd := w.Open(msg.Algo, msg.Params)
		return m.show(w, at), cmd
	case lab.LoadWorst:
		// Into the lab below the search, or, opened from elsewhere (the
		// menu), into the lab in the search's place.
		l, at := m.labScreen()
		l = l.LoadWorst(msg.Res)
		if at >= 0 && at == len(m.stack)-2 {
			return m.show(l, at), nil
		}
		m = m.pop()
		_, at = m.labScreen()
		return m.show(l, at), nil
	case screen.ResetProgress:
		// The progress is forgotten at once; the file is deleted off the
		// Update goroutine, through the store's one writer.
		reset := m.store.Resetting()
		return m, screen.Work(func() tea.Msg { return resetDone{reset()} })
	}
	return m, nil
}

// openLink opens a chapter's link or a menu entry's screen: the registry
// (screens.go) makes it the first time and readies it each time.
func (m Model) openLink(l screen.Link) (tea.Model, tea.Cmd) {
	if l.View == screen.Answer {
		// A worked answer opens in a reader of its own: esc comes back to
		// chapter 07.
		r := reader.New(m.th, m.plain, m.dark).Resize(m.w, m.h).(reader.Model)
		return m.show(r.OpenAnswer(l.Scenario), -1), nil
	}
	e, ok := registered(l.View)
	if !ok {
		return m, nil
	}
	save := m.recordOpened(opened(l))
	s, at := m.find(l.View)
	s, cmd := e.open(m, s, l)
	return m.show(s, at), tea.Batch(cmd, save)
}

// resetDone is what deleting the saved progress sends back.
type resetDone struct{ err error }

// resetDone says on the menu what became of the saved progress.
func (m Model) resetDone(err error) Model {
	note := "saved progress reset: drill scores, interviews and plan steps start fresh; mock transcripts are kept"
	if err != nil {
		note = "could not reset the saved progress: " + err.Error()
	}
	if mn, ok := m.stack[0].(menu.Model); ok {
		m.stack = append([]screen.Screen{mn.WithNote(note)}, m.stack[1:]...)
	}
	return m
}
