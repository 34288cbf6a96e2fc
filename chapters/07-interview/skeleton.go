package interview

import (
	"fmt"
	"slices"
	"strings"
)

// Step is one part of the spoken answer.
type Step struct {
	Minutes int      `yaml:"minutes"` // its share of the 15 minutes
	Title   string   `yaml:"title"`   // a few words
	Points  []string `yaml:"points"`  // what to say, in order
	// PushbackFrom are the track's phases (Push.Phase) whose pushback the
	// mock throws in this step (ShortForm).
	PushbackFrom []int `yaml:"pushback_from"`
}

// Skeleton is the 15-minute answer, the short form of Track, from
// data/skeleton.yaml: contract first, then the algorithm, then many
// machines, then failure and the response. Do not open with a Redis
// command. Its figures are derived in numbers.go from chapter 06's
// measurements. It is a deep copy.
func Skeleton() []Step {
	out := slices.Clone(loaded.skeleton)
	for i := range out {
		out[i].Points = slices.Clone(out[i].Points)
		out[i].PushbackFrom = slices.Clone(out[i].PushbackFrom)
	}
	return out
}

// SkeletonMinutes is the answer's total length.
func SkeletonMinutes() int {
	return totalMinutes(loaded.skeleton, func(s Step) int { return s.Minutes })
}

// totalMinutes adds up the minutes of an answer's steps.
func totalMinutes[T any](steps []T, minutes func(T) int) int {
	n := 0
	for _, s := range steps {
		n += minutes(s)
	}
	return n
}

// SkeletonMarkdown renders the skeleton as a numbered Markdown list.
func SkeletonMarkdown() string {
	var b strings.Builder
	for i, s := range loaded.skeleton {
		fmt.Fprintf(&b, "%d. **%s** (about %d min)\n", i+1, s.Title, s.Minutes)
		for _, p := range s.Points {
			fmt.Fprintf(&b, "   - %s\n", p)
		}
	}
	return b.String()
}
