// Package progress keeps the learner's progress: scored drill cards and
// finished mock interviews, in a file under the user's config directory.
package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The learner's progress (scored drill cards, finished mock interviews) is
// a small JSON file under the user's config directory. A missing file is a
// fresh start; a file that cannot be read or parsed is a fresh start with a
// note saying so, never a crash. Saving goes through a temporary file and a
// rename, so a crash mid-write leaves the old file whole.

// Version is the file's format; another version starts fresh.
const Version = 1

type Saved struct {
	Version    int                  `json:"version"`
	Cards      map[string]CardScore `json:"cards"` // by the card's ID (interview.Question.ID)
	Interviews []Interview          `json:"interviews"`
	// The places of the study plans the learner has been (marks.go);
	// files saved before them load with none.
	Read      map[string]bool `json:"read,omitempty"`
	Opened    map[string]bool `json:"opened,omitempty"`
	Exercises map[string]bool `json:"exercises,omitempty"`
}

// CardScore is one drill card's record: how often it was got and missed,
// and the last verdict.
type CardScore struct {
	Got    int    `json:"got"`
	Missed int    `json:"missed"`
	Last   string `json:"last"` // "got" or "missed"
	// The card's schedule (due.go): its Leitner box, the times in a row it
	// was got (0 after a miss), and the day it is due again. Files saved
	// before the schedule load with neither: such a card is due.
	Box int       `json:"box,omitempty"`
	Due time.Time `json:"due,omitzero"`
}

// Interview is one finished mock interview.
type Interview struct {
	Prompt  string    `json:"prompt"`
	Form    string    `json:"form,omitempty"` // "45-minute" or "15-minute" ("" saved before the track: 15)
	At      time.Time `json:"at"`
	Phases  []Phase   `json:"phases"`
	Review  []string  `json:"review"` // chapters to review, "03"…
	Covered int       `json:"covered"`
	Points  int       `json:"points"`
	// Pushback are the ids of the pushbacks not ticked as answered
	// (interview.Push.ID), to review.
	Pushback []string `json:"pushback,omitempty"`
	// Dives are the deep dives drawn (interview.Dive.ID; the track only).
	Dives []string `json:"dives,omitempty"`
}

type Phase struct {
	Seconds int   `json:"seconds"` // time spent in the phase
	Ticked  []int `json:"ticked"`  // checklist indices covered
	// Pushed are the phase's pushbacks ticked as answered (indices into
	// its MockPhase.Pushback); files saved before they were woven through
	// the phases load with none.
	Pushed []int `json:"pushed,omitempty"`
}

// Store is the file and what it held.
type Store struct {
	path string
	P    Saved
	w    *writer // its one writer (save.go), made by the first save
	to   Disk    // where saves go; nil is the progress file
	// Clock tells the time for the drill's schedule; nil is time.Now.
	Clock func() time.Time
}

// Path is where the progress lives: <config dir>/ratelimit-course/progress.json.
func Path() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "ratelimit-course", "progress.json"), nil
}

func Empty() Saved {
	return Saved{Version: Version, Cards: map[string]CardScore{}}
}

// Load reads the learner's progress. note is "" for a good or
// missing file, else says why the course started fresh.
func Load() (st *Store, note string) {
	st = &Store{P: Empty()}
	path, err := Path()
	if err != nil {
		return st, "progress is not saved: no config directory (" + err.Error() + ")"
	}
	st.path = path
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, ""
	case err != nil:
		return st, "starting fresh: could not read the saved progress: " + err.Error()
	}
	var p Saved
	if err := json.Unmarshal(b, &p); err != nil || p.Version != Version {
		why := "not a progress file"
		if err == nil {
			why = fmt.Sprintf("format version %d, this course writes %d", p.Version, Version)
		}
		return st, fmt.Sprintf("starting fresh: the saved progress was unreadable (%s): %s", why, path)
	}
	if p.Cards == nil {
		p.Cards = map[string]CardScore{}
	}
	st.P = p
	return st, ""
}

// Save writes the progress now, through the store's one writer (save.go);
// an error is reported, never fatal. The app saves with Saving instead.
func (s *Store) Save() error { return s.Saving()() }

// Reset deletes the saved progress; a missing file is no error.
func Reset() (string, error) {
	path, err := Path()
	if err != nil {
		return "", err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return path, err
	}
	return path, nil
}

// Score records a verdict on a drill card, and when it is due again
// (schedule, due.go), by the store's clock.
func (s *Store) Score(id string, got bool) {
	c := s.P.Cards[id]
	if got {
		c.Got++
		c.Last = "got"
	} else {
		c.Missed++
		c.Last = "missed"
	}
	s.P.Cards[id] = c.schedule(got, s.now())
}

// DrillOrder deals cards for a session: those missed last time first, then
// those not scored yet, then those got, each group in course order. It
// returns indices into cards.
func DrillOrder(cards []interview.Question, scores map[string]CardScore) []int {
	rank := func(q interview.Question) int {
		switch scores[q.ID].Last {
		case "missed":
			return 0
		case "got":
			return 2
		}
		return 1
	}
	order := make([]int, len(cards))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(cards[a]) - rank(cards[b]) })
	return order
}

// ChaptersToReview lists the chapters of the points not covered, in order.
func ChaptersToReview(p interview.Prompt, covered func(phase, point int) bool) []string {
	var out []string
	for i, ph := range p.Phases {
		for k, pt := range ph.Checklist {
			if !covered(i, k) && !slices.Contains(out, pt.Chapter) {
				out = append(out, pt.Chapter)
			}
		}
	}
	slices.Sort(out)
	return out
}
