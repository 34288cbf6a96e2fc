package ready

import (
	"strings"
	"testing"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// Review next takes the last mock's pushbacks not answered, and the cards
// got before that are due again, as well as missed cards and points: a
// card got is not due the same day, and is the next day.
func TestReviewNextTakesPushbackAndCardsDue(t *testing.T) {
	day0 := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	st := &progress.Store{P: progress.Empty(), Clock: func() time.Time { return day0 }}
	pr := interview.Mock()[0]
	push := interview.PushbackFor(pr)[0]
	card := "" // a card of another chapter than the pushback's: one item per chapter
	for _, q := range interview.Drill() {
		if q.Chapter != push.Chapter {
			card = q.ID
		}
	}
	st.Score(card, true)
	iv := progress.Interview{Prompt: pr.Name, Form: plan.MockShort}
	for _, ph := range pr.Phases { // every point said
		var all []int
		for k := range ph.Checklist {
			all = append(all, k)
		}
		iv.Phases = append(iv.Phases, progress.Phase{Ticked: all})
	}
	iv.Pushback = []string{push.ID}
	st.P.Interviews = append(st.P.Interviews, iv)

	whats := func(r Report) string {
		var out []string
		for _, x := range r.Review {
			out = append(out, x.What+" | "+x.Why)
		}
		return strings.Join(out, "\n")
	}
	same := whats(OfAt(st.P, day0.Add(time.Hour)))
	if !strings.Contains(same, "pushback “"+push.Prompt+"” | not answered in your last mock") {
		t.Errorf("the pushback not answered is not to review:\n%s", same)
	}
	if strings.Contains(same, "card "+card) {
		t.Errorf("a card got today is due today:\n%s", same)
	}
	next := whats(OfAt(st.P, day0.AddDate(0, 0, 1)))
	if !strings.Contains(next, "card "+card) || !strings.Contains(next, "due again today") {
		t.Errorf("the card got yesterday is not due:\n%s", next)
	}
}
