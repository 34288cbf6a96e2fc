package interview

import (
	"fmt"
	"slices"
	"strings"
)

// Probe is a trade-off an interviewer probes in a phase, and the short
// answer that holds it.
type Probe struct {
	Q string `yaml:"q"` // what the interviewer asks
	A string `yaml:"a"` // the short answer that holds
}

// TrackPhase is one phase of the 45-minute interview: what to say first,
// what to draw, what to cover and what the interviewer will push on.
type TrackPhase struct {
	Minutes   int      `yaml:"minutes"`   // its share of the 45 minutes
	Title     string   `yaml:"title"`     // the phase's name, also a heading of each worked answer
	SayFirst  string   `yaml:"say_first"` // the opening sentence
	Draw      string   `yaml:"draw"`      // what goes on the board
	Checklist []string `yaml:"checklist"` // what a strong answer covers, in order
	Probes    []Probe  `yaml:"probes"`    // the trade-offs the interviewer probes
}

// Track is the 45-minute interview as it runs, from data/track.yaml: a
// short introduction and the question (3), requirements and scoping (7),
// the API and the high-level design with the request path drawn (15),
// deep dives chosen by the interviewer (15), the wrap-up and the
// candidate's own questions (5). The interviewer pushes back in every
// phase after the first (LongForm). The Skeleton is its 15-minute short
// form. It is a deep copy.
func Track() []TrackPhase {
	out := slices.Clone(loaded.track)
	for i := range out {
		out[i].Checklist, out[i].Probes = slices.Clone(out[i].Checklist), slices.Clone(out[i].Probes)
	}
	return out
}

// TrackMinutes is the long form's total length.
func TrackMinutes() int {
	return totalMinutes(loaded.track, func(p TrackPhase) int { return p.Minutes })
}

// TrackMarkdown renders the 45-minute track as Markdown.
func TrackMarkdown() string {
	var b strings.Builder
	for i, p := range loaded.track {
		fmt.Fprintf(&b, "%d. **%s** (%d min)\n", i+1, p.Title, p.Minutes)
		fmt.Fprintf(&b, "   - *Say first:* %s\n", p.SayFirst)
		fmt.Fprintf(&b, "   - *Draw:* %s\n", p.Draw)
		for _, c := range p.Checklist {
			fmt.Fprintf(&b, "   - [ ] %s\n", c)
		}
		for _, q := range p.Probes {
			fmt.Fprintf(&b, "   - *Probe:* %s %s\n", q.Q, q.A)
		}
	}
	return b.String()
}
