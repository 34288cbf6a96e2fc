package app

import (
	"fmt"
	"testing"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

// The menu's drill row says how many cards are due today and how many are
// new, by the store's clock, each time it is drawn.
func TestMenuSaysHowManyCardsAreDue(t *testing.T) {
	m := appNew(t, 100, 60)
	n := len(interview.Drill())
	uitest.Want(t, m.View(), fmt.Sprintf("Question cards · 0 due, %d new", n))
	now := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	m.store.Clock = func() time.Time { return now }
	m.store.Score(interview.Drill()[0].ID, true)
	m.store.Score(interview.Drill()[1].ID, false)
	uitest.Want(t, m.View(), fmt.Sprintf("Question cards · 0 due, %d new", n-2))
	now = now.AddDate(0, 0, 1)
	uitest.Want(t, m.View(), fmt.Sprintf("Question cards · 2 due, %d new", n-2))
}
