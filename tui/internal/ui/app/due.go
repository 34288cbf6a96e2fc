package app

import (
	"fmt"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
)

// withDue has the menu's drill row say how many cards are due today (the
// drill's schedule, progress.DueCards) and how many were never answered,
// counted each time the menu is drawn, by the store's clock.
func withDue(entries []menu.Entry, store *progress.Store) []menu.Entry {
	for i := range entries {
		if entries[i].Kind == "drill" {
			entries[i].Badge = func() string { return dueBadge(store) }
		}
	}
	return entries
}

// dueBadge is "3 due, 40 new": the cards due today and those never
// answered.
func dueBadge(store *progress.Store) string {
	due, fresh := progress.DueCards(interview.Drill(), store.P.Cards, store.Now())
	return fmt.Sprintf("%d due, %d new", len(due), fresh)
}
