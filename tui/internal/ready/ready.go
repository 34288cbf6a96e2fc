// Package ready sums the saved progress into what a candidate wants to
// know before an interview: per topic (the drill's chapters) how many cards
// were answered and got, and how many of the last mock's points on it were
// said; how far each study plan has come; and the next three things to
// review, each with where to find it. The app's "ready?" screen and
// `tui progress` show the same Report.
package ready

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// Topic is one chapter of the drill.
type Topic struct {
	Chapter  string  `json:"chapter"` // "01"
	Title    string  `json:"title"`   // "Framing"
	Cards    int     `json:"cards"`   // the chapter's drill cards
	Answered int     `json:"answered"`
	Got      int     `json:"got"`      // answered cards whose last verdict is "got it"
	HitRate  float64 `json:"hit_rate"` // Got / Answered; 0 with none answered
	// The last finished mock's checklist points that this chapter teaches,
	// and how many of them were ticked.
	MockPoints int `json:"mock_points"`
	MockTicked int `json:"mock_ticked"`
}

// TopicHeader names Row's columns.
var TopicHeader = fmt.Sprintf("%-24s %-10s %4s %9s %12s", "topic", "cards", "got", "hit rate", "mock points")

// Row is the topic as one row under TopicHeader: "-" where nothing was
// answered or no mock point belongs to it.
func (t Topic) Row() string {
	rate, mock := "-", "-"
	if t.Answered > 0 {
		rate = fmt.Sprintf("%.0f%%", 100*t.HitRate)
	}
	if t.MockPoints > 0 {
		mock = fmt.Sprintf("%d of %d", t.MockTicked, t.MockPoints)
	}
	return fmt.Sprintf("%-24s %-10s %4d %9s %12s", t.Chapter+" "+t.Title, fmt.Sprintf("%d of %d", t.Answered, t.Cards), t.Got, rate, mock)
}

// PlanProgress is how far one study plan has come.
type PlanProgress struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Steps       int      `json:"steps"`
	Done        int      `json:"done"`
	Minutes     int      `json:"minutes"`
	DoneMinutes int      `json:"done_minutes"`
	StepsDone   []string `json:"steps_done"` // the ids of the steps done
}

// Review is one thing to look at again.
type Review struct {
	What  string `json:"what"`
	Where string `json:"where"`
	Why   string `json:"why"`
}

// Report is the whole view.
type Report struct {
	Topics []Topic        `json:"topics"`
	Mocks  int            `json:"mocks"` // mock interviews finished
	Plans  []PlanProgress `json:"plans"`
	Review []Review       `json:"review"` // at most three
}

// Of sums p now.
func Of(p progress.Saved) Report { return OfAt(p, time.Now()) }

// OfAt sums p at now: the drill cards due are those due at now.
func OfAt(p progress.Saved, now time.Time) Report {
	r := Report{Mocks: len(p.Interviews), Topics: []Topic{}, Plans: []PlanProgress{}, Review: []Review{}}
	byChapter := map[string]int{}
	for i, ch := range interview.DrillChapters() {
		byChapter[ch] = i
		r.Topics = append(r.Topics, Topic{Chapter: ch, Title: title(ch)})
	}
	for _, q := range interview.Drill() {
		t := &r.Topics[byChapter[q.Chapter]]
		t.Cards++
		if c := p.Cards[q.ID]; c.Got+c.Missed > 0 {
			t.Answered++
			if c.Last == "got" {
				t.Got++
			}
		}
	}
	points, _ := lastMock(p)
	for _, pt := range points {
		if i, ok := byChapter[pt.Chapter]; ok {
			r.Topics[i].MockPoints++
			if pt.ticked {
				r.Topics[i].MockTicked++
			}
		}
	}
	for i := range r.Topics {
		if t := &r.Topics[i]; t.Answered > 0 {
			t.HitRate = float64(t.Got) / float64(t.Answered)
		}
	}
	for _, pl := range plan.Plans() {
		pp := PlanProgress{ID: pl.ID, Title: pl.Title, Steps: len(pl.Steps), Minutes: pl.Minutes(), StepsDone: []string{}}
		for _, s := range pl.Steps {
			if s.Done(p) {
				pp.Done++
				pp.DoneMinutes += s.Minutes
				pp.StepsDone = append(pp.StepsDone, s.ID)
			}
		}
		r.Plans = append(r.Plans, pp)
	}
	r.Review = next(p, r.Topics, 3, now)
	return r
}

// title is a chapter's name from its README's first line:
// "# 01 · Framing: a rate limiter is…" gives "Framing".
func title(ch string) string {
	n, _ := strconv.Atoi(ch)
	first, _, _ := strings.Cut(chapters.README(n), "\n")
	_, t, _ := strings.Cut(first, "· ")
	t, _, _ = strings.Cut(t, ":")
	return strings.TrimSpace(t)
}
