package app

import (
	tea "github.com/charmbracelet/bubbletea"

	lab5 "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cards"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	planscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/prefetch"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/reader"
	readyscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ready"
	ringscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ring"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/service"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/worst"
)

// The screens by their kind on the stack, and how each is made
// the first time it is opened.
func (m Model) labScreen() (lab.Model, int) {
	s, at := m.find(screen.Lab, func() screen.Screen { return lab.New(m.th) })
	return s.(lab.Model), at
}

func (m Model) worstScreen() (worst.Model, int) {
	s, at := m.find(screen.Worst, func() screen.Screen { return worst.New(m.th) })
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
		m.recordReading()
		return m, nil
	case screen.OpenCards:
		s, at := m.find(screen.Drill, func() screen.Screen { return cards.New(m.th, m.store) })
		return m.show(s.(cards.Model).OpenIDs(msg.IDs), at), nil
	case screen.OpenWorst:
		w, at := m.worstScreen()
		w, cmd := w.Open(msg.Algo, msg.Params)
		return m.show(w, at), cmd
	case screen.LoadWorst:
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
		note := "saved progress reset: drill scores, interviews and plan steps start fresh; mock transcripts are kept"
		if _, err := progress.Reset(); err != nil {
			note = "could not reset the saved progress: " + err.Error()
		} else {
			m.store.P = progress.Empty()
		}
		if mn, ok := m.stack[0].(menu.Model); ok {
			m.stack = append([]screen.Screen{mn.WithNote(note)}, m.stack[1:]...)
		}
		return m, nil
	}
	return m, nil
}

// openLink opens a chapter's link or a menu entry's screen.
func (m Model) openLink(l screen.Link) (tea.Model, tea.Cmd) {
	switch l.View {
	case screen.Lab:
		s, at := m.labScreen()
		if l.Scenario >= 0 {
			s = s.LoadScenario(l.Scenario)
			m.recordOpened(lab5.Scenarios[l.Scenario].Name)
		}
		return m.show(s, at), nil
	case screen.Worst:
		m.recordOpened(plan.OpenWorst)
		s, _ := m.labScreen()
		algo, params := s.Left()
		return m.navigate(screen.OpenWorst{Algo: algo, Params: params})
	case screen.Prefetch:
		m.recordOpened(plan.OpenPrefetch)
		s, at := m.find(screen.Prefetch, func() screen.Screen { return prefetch.New(m.th) })
		return m.show(s, at), nil
	case screen.Cluster:
		m.recordOpened(plan.OpenCluster)
		s, at := m.find(screen.Cluster, func() screen.Screen { return cluster.New(m.th) })
		c, cmd := s.(cluster.Model).Open()
		return m.show(c, at), cmd
	case screen.Drill:
		s, at := m.find(screen.Drill, func() screen.Screen { return cards.New(m.th, m.store) })
		return m.show(s.(cards.Model).Open(), at), nil
	case screen.Mock:
		s, at := m.find(screen.Mock, func() screen.Screen { return mock.New(m.th, m.store) })
		mk := s.(mock.Model)
		if !mk.Running() {
			mk = mk.Choose()
		}
		return m.show(mk, at), nil
	case screen.Path:
		m.recordOpened(plan.OpenPath)
		s, at := m.find(screen.Path, func() screen.Screen { return path.New(m.th) })
		return m.show(s, at), nil
	case screen.Service:
		s, at := m.find(screen.Service, func() screen.Screen { return service.New(m.th) })
		return m.show(s, at), nil
	case screen.Plan:
		s, at := m.find(screen.Plan, func() screen.Screen { return planscreen.New(m.th, m.store) })
		return m.show(s, at), nil
	case screen.Ready:
		s, at := m.find(screen.Ready, func() screen.Screen { return readyscreen.New(m.th, m.store) })
		return m.show(s, at), nil
	case screen.Ring:
		s, at := m.find(screen.Ring, func() screen.Screen { return ringscreen.New(m.th) })
		return m.show(s, at), nil
	case screen.Answer:
		// A worked answer opens in a reader of its own: esc comes back to
		// chapter 07.
		r := reader.New(m.th, m.plain, m.dark).Resize(m.w, m.h).(reader.Model)
		return m.show(r.OpenAnswer(l.Scenario), -1), nil
	}
	return m, nil
}
