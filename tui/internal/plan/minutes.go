package plan

import (
	"math"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// A plan's minutes are honest when they count what the candidate does,
// not only what they read: a card is answered aloud before its answer is
// read, and a mock runs on its clock and then its strong answers are read.

// AnswerAloudMinutes is the time to answer one card aloud: its first
// sentence and the minute of proof the card's answer stands for.
const AnswerAloudMinutes = 1.5

// CardMinutes is how long cards take: each answered aloud, then its
// question and answer read at WordsPerMinute, rounded up to a minute.
func CardMinutes(ids []string) int {
	words := 0
	for _, q := range interview.Drill() {
		for _, id := range ids {
			if q.ID == id {
				words += Words(q.Q + " " + q.SayFirst + " " + q.A)
			}
		}
	}
	return int(math.Ceil(float64(len(ids))*AnswerAloudMinutes + float64(words)/WordsPerMinute))
}

// shortOnTrack are the phases of the 45-minute track whose strong answers
// the 15-minute form's summary and transcript show: the requirements, the
// design, the deep dives (the form's algorithm and failure phases share
// the deep dives' answer).
var shortOnTrack = []int{1, 2, 3}

// MockMinutes is how long a mock of form takes: its clock, then reading
// what the summary and the transcript show beside the candidate's notes
// (the points of each phase, and each phase's strong answer: the worked
// answer with its senior and staff rubric, or the track's first sentence
// and checklist), for the prompt with the most to read.
func MockMinutes(form string) int {
	clock, phases := interview.TrackMinutes(), []int{0, 1, 2, 3, 4}
	if form == MockShort {
		clock, phases = interview.SkeletonMinutes(), shortOnTrack
	}
	most := 0
	for _, p := range interview.Mock() {
		var b strings.Builder
		for _, ph := range p.Phases {
			for _, pt := range ph.Checklist {
				b.WriteString(pt.Text + "\n")
			}
		}
		for _, j := range phases {
			b.WriteString(strongAnswerText(p, j) + "\n")
		}
		most = max(most, Words(b.String()))
	}
	return clock + int(math.Ceil(float64(most)/WordsPerMinute))
}

// strongAnswerText is what a strong answer to phase j of the track says
// for prompt p.
func strongAnswerText(p interview.Prompt, j int) string {
	var b strings.Builder
	if w := interview.WorkedPhase(p.Name, j); w != "" {
		if rs := interview.RubricFor(p.Name); j < len(rs) {
			b.WriteString(rs[j].Senior + "\n" + rs[j].Staff + "\n")
		}
		return b.String() + w
	}
	tp := interview.Track()[j]
	b.WriteString(tp.SayFirst + "\n")
	for _, c := range tp.Checklist {
		b.WriteString(c + "\n")
	}
	return b.String()
}

// StepMinutes is the time step s takes, counted: a reading step its
// section's words, cards and mocks their answering and reading. A lab or
// a screen step takes the minutes it states (it is done by doing), and so
// does an exercise.
func StepMinutes(s Step) int {
	switch s.Kind {
	case Read:
		text, _ := Section(s.Chapter, s.Section)
		return ReadingMinutes(Words(text))
	case Cards:
		return CardMinutes(s.Cards)
	case Mock:
		return MockMinutes(s.Open)
	}
	return s.Minutes
}
