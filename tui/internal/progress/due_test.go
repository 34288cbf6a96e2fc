package progress

import (
	"testing"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// A card got comes back after 1, 3, then 7 days (and 7 while it is got);
// a miss sends it back to the first box and brings it back tomorrow; the
// schedule is kept in the progress file. Time is the store's clock.
func TestDrillScheduleIsLeitner(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	st, _ := Load()
	start := time.Date(2026, 12, 7, 21, 30, 0, 0, time.UTC)
	now := start
	st.Clock = func() time.Time { return now }
	day := func(n int) time.Time { return time.Date(2026, 12, 7+n, 0, 0, 0, 0, time.UTC) }
	const id = "06/atomic"
	for i, step := range []struct {
		at      int // days after start the card is answered
		got     bool
		box     int
		dueDay  int // days after start it is due
		dueNext bool
	}{
		{0, true, 1, 1, false},
		{1, true, 2, 4, false},
		{4, true, 3, 11, false},
		{11, true, 3, 18, false},
		{18, false, 0, 19, false},
		{19, true, 1, 20, false},
	} {
		now = start.AddDate(0, 0, step.at)
		if i > 0 && !st.P.Cards[id].IsDue(now) {
			t.Fatalf("step %d: the card is not due on day %d (due %v)", i+1, step.at, st.P.Cards[id].Due)
		}
		st.Score(id, step.got)
		c := st.P.Cards[id]
		if c.Box != step.box || !c.Due.Equal(day(step.dueDay)) {
			t.Errorf("step %d (got %v on day %d): box %d due %v, want box %d due %v", i+1, step.got, step.at, c.Box, c.Due, step.box, day(step.dueDay))
		}
		if c.IsDue(day(step.dueDay).Add(-time.Second)) || !c.IsDue(day(step.dueDay)) {
			t.Errorf("step %d: due before %v or not due from it", i+1, day(step.dueDay))
		}
	}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	back, note := Load()
	if c := back.P.Cards[id]; note != "" || c.Box != 1 || !c.Due.Equal(day(20)) || c.Got != 5 || c.Missed != 1 {
		t.Fatalf("loaded %+v (note %q), want box 1 due %v, 5 got, 1 missed", c, note, day(20))
	}
}

// Cards never answered are new; a card saved before the schedule (no due
// day) is due; the others are due once their day has come.
func TestDueCardsCountsDueAndNew(t *testing.T) {
	cards := interview.Drill()[:4]
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	scores := map[string]CardScore{
		cards[0].ID: {Got: 1, Last: "got"}, // saved before the schedule
		cards[1].ID: {Got: 1, Last: "got", Box: 1, Due: now.Add(time.Hour)},
		cards[2].ID: {Missed: 1, Last: "missed", Due: now.Add(-time.Hour)},
	}
	due, fresh := DueCards(cards, scores, now)
	if len(due) != 2 || due[0] != 0 || due[1] != 2 || fresh != 1 {
		t.Fatalf("due %v, new %d; want [0 2] and 1", due, fresh)
	}
}
