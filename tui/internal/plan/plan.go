// Package plan holds the course's study plans: an evening before an
// interview and a week with every chapter and its exercises. A plan is a
// list of steps; each names what to do (read a README section, open a
// screen, answer drill cards, write an exercise, run a mock), where to find
// it, how many minutes it takes and what the candidate can say after it.
// Reading steps take the minutes their section's words take at 200 words a
// minute; the package's tests count them from the text.
package plan

import (
	"fmt"
	"strings"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// Kind is what a step asks the candidate to do.
type Kind string

const (
	Read     Kind = "read"     // a section of a chapter's README
	Lab      Kind = "lab"      // a worked example in the lab
	Screen   Kind = "screen"   // one of the app's other screens
	Cards    Kind = "cards"    // drill cards, by id
	Exercise Kind = "exercise" // write a chapter's exercise; the learner marks it done
	Mock     Kind = "mock"     // the timed mock interview
)

// The app's screens a Screen step opens (Step.Open).
const (
	OpenPath     = "path"     // chapter 07's request path (R)
	OpenWorst    = "worst"    // the worst-case search (W)
	OpenPrefetch = "prefetch" // chapter 06's prefetch lab (P)
	OpenCluster  = "cluster"  // chapter 06 part 3 on a Redis Cluster (C)
)

// The two forms of the mock interview (Step.Open of a Mock step), named as
// the saved interviews name them.
const (
	MockShort = "15-minute"
	MockTrack = "45-minute"
)

// Step is one thing to do.
type Step struct {
	ID      string `yaml:"id"`      // unique in its plan: the key of saved progress
	Kind    Kind   `yaml:"kind"`    // what to do: read, lab, screen, cards, exercise or mock
	Chapter int    `yaml:"chapter"` // 1 to 11
	What    string `yaml:"what"`    // what to do, in a line
	Minutes int    `yaml:"minutes"` // for Read, the section's words at WordsPerMinute, rounded up
	Say     string `yaml:"say"`     // what the candidate can say after it

	Section string   `yaml:"section,omitempty"` // Read and Exercise: a level-2 heading of the chapter's README
	Open    string   `yaml:"open,omitempty"`    // Lab: a scenario name; Screen: Open*; Mock: MockShort or MockTrack
	Cards   []string `yaml:"cards,omitempty"`   // Cards: drill card ids (interview.Question.ID)
}

// Plan is a titled list of steps.
type Plan struct {
	ID    string `yaml:"id"`    // its name on the command line: evening, week
	Title string `yaml:"title"` // a few words
	Intro string `yaml:"intro"` // who it is for, in a sentence
	Steps []Step `yaml:"steps"` // in order
}

// Minutes is the sum of the plan's steps' minutes.
func (p Plan) Minutes() int {
	n := 0
	for _, s := range p.Steps {
		n += s.Minutes
	}
	return n
}

// Plans are the course's plans, shortest first.
func Plans() []Plan { return []Plan{Evening(), Week()} }

// ByID is the plan called id.
func ByID(id string) (Plan, bool) {
	for _, p := range Plans() {
		if p.ID == id {
			return p, true
		}
	}
	return Plan{}, false
}

// ChapterID is a chapter's number as the course writes it: "04".
func ChapterID(n int) string { return fmt.Sprintf("%02d", n) }

// Where says where the step's place is: a README anchor for a reading
// step, the app's key for a screen, the make target for an exercise.
func (s Step) Where() string {
	switch s.Kind {
	case Read:
		return Anchor(s.Chapter, s.Section)
	case Lab:
		return "tui L · " + s.Open
	case Screen:
		return "tui " + map[string]string{OpenPath: "R", OpenWorst: "W", OpenPrefetch: "P", OpenCluster: "C"}[s.Open]
	case Cards:
		return "tui D · " + strings.Join(s.Cards, ", ")
	case Exercise:
		return fmt.Sprintf("make exercise CH=%s", ChapterID(s.Chapter))
	case Mock:
		if s.Open == MockShort {
			return "tui M, then f (the 15-minute short form)"
		}
		return "tui M (the 45-minute track)"
	}
	return ""
}

// Anchor is the address of a heading of chapter n's text, as GitHub links
// it: chapters/04-buckets/README.md#token-bucket-the-bucket-holds-permits, in
// the file that holds the heading (a part file such as
// chapters/06-distributed/CLUSTER.md for a section moved there). Without a
// heading it is the README itself.
func Anchor(n int, heading string) string {
	file := chapters.File(n, heading)
	if heading == "" {
		return file
	}
	return file + "#" + Slug(heading)
}

// Slug is a heading's anchor as GitHub makes it: lower case, spaces to
// hyphens, every other character but letters, digits, - and _ dropped.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
