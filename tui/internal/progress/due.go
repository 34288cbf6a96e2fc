package progress

import (
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The drill is spaced (Leitner boxes): a card got comes back after 1 day,
// got again after 3, then after 7, and every 7 days while it is got; a card
// missed goes back to the first box and comes back tomorrow. A day is a
// calendar day of the learner's clock: a card due in 1 day is due from
// midnight. A card never answered is new, not due: the drill deals it
// after the due ones.

// Intervals are the days until a card got 1, 2, 3 or more times in a row
// comes back.
var Intervals = []int{1, 3, 7}

// missedAfter is the days until a missed card comes back.
const missedAfter = 1

// now is the store's clock.
func (s *Store) now() time.Time {
	if s.Clock != nil {
		return s.Clock()
	}
	return time.Now()
}

// Now is the time by the store's clock.
func (s *Store) Now() time.Time { return s.now() }

// schedule is c after a verdict at now: its box and the day it is due.
func (c CardScore) schedule(got bool, now time.Time) CardScore {
	days := missedAfter
	if got {
		c.Box = min(c.Box+1, len(Intervals))
		days = Intervals[c.Box-1]
	} else {
		c.Box = 0
	}
	y, m, d := now.Date()
	c.Due = time.Date(y, m, d+days, 0, 0, 0, 0, now.Location())
	return c
}

// IsDue reports whether a card answered before is due at now; a card never
// answered is not (it is new).
func (c CardScore) IsDue(now time.Time) bool {
	return c.Last != "" && !now.Before(c.Due)
}

// DueCards are the indices into cards of those due at now, in course order,
// and how many are new (never answered).
func DueCards(cards []interview.Question, scores map[string]CardScore, now time.Time) (due []int, fresh int) {
	for i, q := range cards {
		c, ok := scores[q.ID]
		switch {
		case !ok || c.Last == "":
			fresh++
		case c.IsDue(now):
			due = append(due, i)
		}
	}
	return due, fresh
}
