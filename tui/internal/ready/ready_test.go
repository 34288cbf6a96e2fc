package ready

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// With nothing saved, every topic has its cards and nothing done, and the
// review is the first three topics' cards.
func TestNothingSavedIsZeroEverywhere(t *testing.T) {
	r := Of(progress.Empty())
	if len(r.Topics) != 10 || r.Topics[0].Chapter != "01" || r.Topics[0].Title != "Framing" || r.Topics[8].Title != "Beyond the counter" ||
		r.Topics[9].Chapter != "11" {
		t.Fatalf("topics: %+v", r.Topics)
	}
	cards := 0
	for _, tp := range r.Topics {
		cards += tp.Cards
		if tp.Answered+tp.Got+tp.MockPoints+tp.MockTicked != 0 || tp.HitRate != 0 || tp.Cards == 0 {
			t.Errorf("topic %s with nothing saved: %+v", tp.Chapter, tp)
		}
	}
	if cards != len(interview.Drill()) {
		t.Errorf("the topics hold %d cards, the drill %d", cards, len(interview.Drill()))
	}
	for _, p := range r.Plans {
		if p.Done != 0 || p.DoneMinutes != 0 || p.Steps == 0 {
			t.Errorf("plan %s with nothing saved: %+v", p.ID, p)
		}
	}
	if len(r.Review) != 3 || !strings.HasPrefix(r.Review[0].What, "chapter 01") ||
		r.Review[2].Where != "tui D · chapters/03-sliding/README.md#the-interview-answer" {
		t.Fatalf("review: %+v", r.Review)
	}
}

// Cards scored and a finished short mock show in their topics, the plans'
// steps count as done, and the review puts the missed card first, then a
// point the mock left out.
func TestScoresAndAMockShow(t *testing.T) {
	st := &progress.Store{P: progress.Empty()}
	st.Score("02/boundary attack", false)
	st.Score("01/the four questions", true)
	st.Score("01/the 429 contract", true)
	st.Score("01/placement", false)
	st.Score("01/placement", true)
	pr := interview.Mock()[0]
	iv := progress.Interview{Prompt: pr.Name, Form: plan.MockShort}
	for j := range pr.Phases {
		ph := progress.Phase{}
		if j == 0 {
			ph.Ticked = []int{0, 1} // the first two points: chapter 01's
		}
		iv.Phases = append(iv.Phases, ph)
	}
	st.P.Interviews = append(st.P.Interviews, iv)
	r := Of(st.P)

	ch01, ch02 := r.Topics[0], r.Topics[1]
	if ch01.Answered != 3 || ch01.Got != 3 || ch01.HitRate != 1 || ch02.Answered != 1 || ch02.Got != 0 || ch02.HitRate != 0 {
		t.Fatalf("cards: 01 %+v, 02 %+v", ch01, ch02)
	}
	want01 := 0
	for _, ph := range pr.Phases {
		for _, pt := range ph.Checklist {
			if pt.Chapter == "01" {
				want01++
			}
		}
	}
	if ch01.MockPoints != want01 || ch01.MockTicked != 2 || want01 < 3 {
		t.Fatalf("mock points of 01: %d of %d ticked, want 2 of %d", ch01.MockTicked, ch01.MockPoints, want01)
	}
	if r.Mocks != 1 {
		t.Errorf("mocks %d, want 1", r.Mocks)
	}
	ev := r.Plans[0]
	if ev.ID != "evening" || !strings.Contains(strings.Join(ev.StepsDone, ","), "e03") || !strings.HasSuffix(strings.Join(ev.StepsDone, ","), "e17") {
		t.Errorf("evening's steps done: %v (want e03, the two cards, and e17, the short mock)", ev.StepsDone)
	}
	if len(r.Review) != 3 || !strings.HasPrefix(r.Review[0].What, "card 02/boundary attack") ||
		!strings.HasPrefix(r.Review[1].Why, "not said in your last mock") {
		t.Fatalf("review: %+v", r.Review)
	}
}
