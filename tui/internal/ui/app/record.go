package app

import (
	"strings"

	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/reader"
)

// The study plans mark a step done from what the learner did in the app:
// the app records, in the saved progress, each README section read to its
// end (and a chapter read to its last line) and each worked example or
// screen opened. Cards and mocks save their own results.

// recordReading saves what the chapter on top shows read to its end.
func (m Model) recordReading() {
	r, ok := m.top().(reader.Model)
	if !ok || m.store == nil {
		return
	}
	num, shown, end := r.ReadThrough()
	changed := false
	headings := plan.Headings(num)
	for _, h := range shown {
		// A heading wrapped by the renderer shows only its start.
		for _, full := range headings {
			if full == h || strings.HasPrefix(full, h) && h != "" {
				changed = m.store.MarkRead(plan.Anchor(num, full)) || changed
				break
			}
		}
	}
	if end {
		changed = m.store.MarkRead(plan.Anchor(num, "")) || changed
	}
	if changed {
		m.store.Save() // an unsaved mark is redone the next time it is read
	}
}

// recordOpened saves that a worked example (its scenario's name) or a
// screen (plan.OpenPath …) was opened.
func (m Model) recordOpened(what string) {
	if m.store != nil && m.store.MarkOpened(what) {
		m.store.Save()
	}
}
