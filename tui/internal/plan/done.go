package plan

import (
	"github.com/ratelimit-course/ratelimit/chapters"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// Done reports whether the saved progress p shows step s done: its section
// read to its end, its example or screen opened, each of its cards scored,
// a mock of its form finished, its exercise marked written.
func (s Step) Done(p progress.Saved) bool {
	switch s.Kind {
	case Read:
		// A mark saved under README.md still counts for a section that a
		// chapter's part file holds (chapters 06 and 07 have parts).
		return p.Read[s.Where()] || p.Read[chapters.Dir(s.Chapter)+"/README.md#"+Slug(s.Section)]
	case Lab, Screen:
		return p.Opened[s.Open]
	case Cards:
		for _, id := range s.Cards {
			if c := p.Cards[id]; c.Got+c.Missed == 0 {
				return false
			}
		}
		return len(s.Cards) > 0
	case Exercise:
		return p.Exercises[ChapterID(s.Chapter)]
	case Mock:
		for _, iv := range p.Interviews {
			if iv.Form == s.Open || iv.Form == "" && s.Open == MockShort {
				return true
			}
		}
	}
	return false
}

// DoneCount is how many of the plan's steps p shows done, and their minutes.
func (pl Plan) DoneCount(p progress.Saved) (steps, minutes int) {
	for _, s := range pl.Steps {
		if s.Done(p) {
			steps++
			minutes += s.Minutes
		}
	}
	return steps, minutes
}
