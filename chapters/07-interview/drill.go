package interview

import (
	"slices"
	"strings"
)

// Question is one drill card: a question an interviewer asks, the sentence
// to say first, and a model answer short enough to say out loud that
// carries the proof (the numbers and the chapter).
type Question struct {
	ID       string `yaml:"id"`        // stable key of saved progress: chapter/topic as first published, never renamed
	Chapter  string `yaml:"chapter"`   // "01" … "09": where the course teaches it
	Topic    string `yaml:"topic"`     // a few words
	Q        string `yaml:"q"`         // the question
	SayFirst string `yaml:"say_first"` // the one-sentence answer, said before the proof
	A        string `yaml:"a"`         // the follow-up: the proof, in about a minute
}

// Drill is the question bank, in course order, from data/cards.yaml: a
// copy, so a caller's changes stay its own. Every chapter has at least one
// card; the numbers are the worked examples' numbers and the course's
// measurements. Cards on overload and beyond the counter (in flight,
// shedding, client throttling, regions, cost budgets, fairness, shadow
// rollout) point at chapter 09, which implements each one.
func Drill() []Question { return slices.Clone(loaded.drill) }

// DrillChapters lists the chapters the drill covers, in order.
func DrillChapters() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range loaded.drill {
		if !seen[q.Chapter] {
			seen[q.Chapter] = true
			out = append(out, q.Chapter)
		}
	}
	return out
}

// DrillMarkdown renders the drill's topics as a Markdown table, one row per
// chapter: what the cards cover, not their answers.
func DrillMarkdown() string {
	var rows [][]string
	for _, ch := range DrillChapters() {
		var topics []string
		for _, q := range loaded.drill {
			if q.Chapter == ch {
				topics = append(topics, q.Topic)
			}
		}
		rows = append(rows, []string{ch, strings.Join(topics, ", ")})
	}
	return markdownTable([]string{"Chapter", "Cards"}, rows)
}
