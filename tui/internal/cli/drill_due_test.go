package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// tui drill --due lists the cards whose day has come, by the schedule kept
// in the progress file, and says how many are due and how many are new.
func TestDrillDueListsTheCardsDue(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	day0 := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	now := day0
	st, _ := progress.Load()
	st.Clock = func() time.Time { return now }
	cards := interview.Drill()
	st.Score(cards[0].ID, true)  // back in 1 day
	st.Score(cards[1].ID, false) // back tomorrow
	st.Score(cards[2].ID, true)
	now = day0.AddDate(0, 0, 1)
	st.Score(cards[2].ID, true) // got twice: back 3 days after day 1
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	defer func(c func() time.Time) { drillClock = c }(drillClock)
	fresh := len(cards) - 3
	for _, tc := range []struct {
		at   time.Time
		want []int // the cards listed
	}{
		{day0.Add(time.Hour), nil},
		{day0.AddDate(0, 0, 1), []int{0, 1}},
		{day0.AddDate(0, 0, 4), []int{0, 1, 2}},
	} {
		drillClock = func() time.Time { return tc.at }
		out, errOut, code := runCmd(t, "drill", "--due")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		head := strings.SplitN(out, "\n", 2)[0]
		if want := len(tc.want); !strings.HasPrefix(head, fmt.Sprintf("%d cards due today, %d never answered", want, fresh)) {
			t.Errorf("at %v: first line %q, want %d due and %d new", tc.at, head, want, fresh)
		}
		if got := strings.Count(out, "\nQ"); got != len(tc.want) {
			t.Errorf("at %v: %d cards listed, want %d", tc.at, got, len(tc.want))
		}
		for _, i := range tc.want {
			if !strings.Contains(flat(out), flat(cards[i].Q)) {
				t.Errorf("at %v: card %s not listed", tc.at, cards[i].ID)
			}
		}
	}
}
