package ready

import (
	"strconv"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// What to review next, most urgent first, one item per chapter:
//  1. cards whose last verdict was "missed", in course order;
//  2. the last mock's points that were not said, then its pushbacks not
//     answered;
//  3. cards got before and due again (the drill's schedule);
//  4. topics with no card answered yet, in course order.
// Each names where to find it: the card in the drill, or the chapter's
// interview answer in its README.

// point is one checklist point of a finished mock, and whether it was said.
type point struct {
	interview.Point
	ticked bool
}

// lastMock is the latest finished mock's checklist, point by point, and
// its prompt's title ("" without one). The checklist is rebuilt from the
// prompt and the form it ran in (interview.LongFormWith and the dives drawn, for the track).
func lastMock(p progress.Saved) ([]point, string) {
	if len(p.Interviews) == 0 {
		return nil, ""
	}
	iv := p.Interviews[len(p.Interviews)-1]
	var pr interview.Prompt
	for _, q := range interview.Mock() {
		if q.Name == iv.Prompt {
			pr = q
		}
	}
	phases := pr.Phases
	if iv.Form == plan.MockTrack {
		phases = interview.LongFormWith(pr, iv.Dives)
		if len(iv.Phases) != len(phases) {
			return nil, "" // saved on the four-phase track: its ticks name other points
		}
	}
	var out []point
	for j, ph := range phases {
		ticked := map[int]bool{}
		if j < len(iv.Phases) {
			for _, k := range iv.Phases[j].Ticked {
				ticked[k] = true
			}
		}
		for k, pt := range ph.Checklist {
			out = append(out, point{pt, ticked[k]})
		}
	}
	return out, pr.Title
}

func next(p progress.Saved, topics []Topic, n int, now time.Time) []Review {
	out := []Review{}
	used := map[string]bool{}
	add := func(ch string, r Review) {
		if len(out) < n && !used[ch] {
			used[ch] = true
			out = append(out, r)
		}
	}
	for _, q := range interview.Drill() {
		if p.Cards[q.ID].Last == "missed" {
			add(q.Chapter, Review{What: "card " + q.ID + ": " + q.Q, Where: "tui D (missed cards come first)",
				Why: "missed the last time you answered it"})
		}
	}
	points, prompt := lastMock(p)
	for _, pt := range points {
		if !pt.ticked {
			add(pt.Chapter, Review{What: pt.Text, Where: answer(pt.Chapter),
				Why: "not said in your last mock: " + prompt})
		}
	}
	if len(p.Interviews) > 0 {
		for _, id := range p.Interviews[len(p.Interviews)-1].Pushback {
			if q, ok := interview.PushbackByID(id); ok {
				add(q.Chapter, Review{What: "pushback “" + q.Prompt + "”", Where: answer(q.Chapter) + " · card " + q.Card,
					Why: "not answered in your last mock: " + prompt})
			}
		}
	}
	for _, q := range interview.Drill() {
		if c := p.Cards[q.ID]; c.Last == "got" && c.IsDue(now) {
			add(q.Chapter, Review{What: "card " + q.ID + ": " + q.Q, Where: "tui D · tui drill --due",
				Why: "due again today: cards got come back after 1, 3, then 7 days"})
		}
	}
	for _, t := range topics {
		if t.Answered == 0 {
			add(t.Chapter, Review{What: "chapter " + t.Chapter + " (" + t.Title + "): its cards",
				Where: "tui D · " + answer(t.Chapter), Why: "no card answered yet"})
		}
	}
	return out
}

// answer is where chapter ch gives its interview answer.
func answer(ch string) string {
	n, _ := strconv.Atoi(ch)
	return plan.Anchor(n, "The interview answer")
}
