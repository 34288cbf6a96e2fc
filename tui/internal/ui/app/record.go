package app

import (
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	planscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/reader"
)

// The study plans mark a step done from what the learner did in the app:
// the app records, in the saved progress, each README section read to its
// end (and a chapter read to its last line) and each worked example or
// screen opened. Cards and mocks save their own results. A record changes
// the progress at once and returns the command that saves it (screen.Save):
// Update never waits on the disk.

// recordReading records what the chapter on top shows read to its end. It
// runs on what can change that (a key, a resize, a chapter opened), never
// on a tick.
func (m Model) recordReading() (Model, tea.Cmd) {
	r, ok := m.top().(reader.Model)
	if !ok || m.store == nil {
		return m, nil
	}
	if m.counts != nil {
		m.counts.readings++
	}
	num, shown, end := r.ReadThrough()
	changed := false
	headings := chapterHeadings(num)
	for _, h := range shown {
		// A heading wrapped by the renderer shows only its start, and
		// without its code spans' backticks.
		for _, full := range headings {
			if plan.IsHeading(h, full) {
				changed = m.store.MarkRead(plan.Anchor(num, full)) || changed
				break
			}
		}
	}
	if end {
		changed = m.store.MarkRead(plan.Anchor(num, "")) || changed
	}
	if !changed {
		return m, nil
	}
	return m.sayStepDone(r), screen.Save(m.store)
}

// sayStepDone changes the note above the chapter once the plan step that
// opened it is done: the learner knows to go back, and to what.
func (m Model) sayStepDone(r reader.Model) Model {
	s, at := m.find("plan")
	ps := s.(planscreen.Model)
	if at < 0 || !strings.HasPrefix(r.Note(), "plan step "+ps.Selected().ID+":") || !ps.Selected().Done(m.store.P) {
		return m
	}
	return m.setTop(r.WithNote(planscreen.DoneNote(ps.Plan(), ps.Cursor()) + " (esc: the plan)"))
}

// recordOpened records that a worked example (its scenario's name) or a
// screen (plan.OpenPath …) was opened; what "" records nothing.
func (m Model) recordOpened(what string) tea.Cmd {
	if what == "" || m.store == nil || !m.store.MarkOpened(what) {
		return nil
	}
	return screen.Save(m.store)
}

// headingsByChapter holds each chapter's level-2 headings (plan.Headings),
// read from its README once: the README does not change while the app runs.
var headingsByChapter sync.Map // chapter number → []string

// chapterHeadings are chapter num's level-2 headings.
func chapterHeadings(num int) []string {
	if h, ok := headingsByChapter.Load(num); ok {
		return h.([]string)
	}
	h, _ := headingsByChapter.LoadOrStore(num, plan.Headings(num))
	return h.([]string)
}
