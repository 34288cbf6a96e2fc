package interview

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"

	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// The rubric by behaviour scores a mock the way an interviewer writes
// feedback: six dimensions with weights (framing, design, depth, judgment,
// operability, and communication across every phase), each with an anchor
// per level that says what a candidate at that level does; the weights of
// each phase of the Track; the red flags that sink an answer whatever else
// it covers; and a score for how pushback is handled. It is the same for
// every prompt; data/rubric.yaml keeps each prompt's senior and staff rows
// (RubricFor). The data is data/scoring.yaml.

// Anchors says what a candidate does at each level: AnchorKeys → a
// behaviour.
type Anchors map[string]string

// AnchorKeys are the levels' keys in Anchors, no hire to strong hire.
var AnchorKeys = []string{"no_hire", "lean_hire", "hire", "strong_hire"}

// complete reports whether a has a behaviour for every level and nothing
// else.
func (a Anchors) complete() bool {
	for _, k := range AnchorKeys {
		if a[k] == "" {
			return false
		}
	}
	return len(a) == len(AnchorKeys)
}

// Dimension is one weighted part of the verdict.
type Dimension struct {
	ID      string  `yaml:"id" json:"id"`
	Title   string  `yaml:"title" json:"title"`
	Weight  int     `yaml:"weight" json:"weight"`           // of 100, overall
	Across  bool    `yaml:"across" json:"across,omitempty"` // weighted in every phase (communication)
	Anchors Anchors `yaml:"anchors" json:"anchors"`
}

// PhaseWeights is how one Track phase (by title) weighs the dimensions
// (by id), of 100.
type PhaseWeights struct {
	Phase   string         `yaml:"phase" json:"phase"`
	Weights map[string]int `yaml:"weights" json:"weights"`
}

// RedFlag is a behaviour that sinks an answer, why, and the chapter that
// shows it.
type RedFlag struct {
	ID        string `yaml:"id" json:"id"`
	Behaviour string `yaml:"behaviour" json:"behaviour"`
	Why       string `yaml:"why" json:"why"`
	Chapter   string `yaml:"chapter" json:"chapter"`
}

// PushbackScore is how the handling of a pushback is scored.
type PushbackScore struct {
	What    string  `yaml:"what" json:"what"`
	Anchors Anchors `yaml:"anchors" json:"anchors"`
}

// Scoring is the whole rubric by behaviour; `tui interview --json`
// prints it as its json tags say.
type Scoring struct {
	Levels     []string       `yaml:"levels" json:"levels"` // no hire … strong hire, scored 1 to 4
	Dimensions []Dimension    `yaml:"dimensions" json:"dimensions"`
	Phases     []PhaseWeights `yaml:"phases" json:"phases"` // one per Track phase, in order
	RedFlags   []RedFlag      `yaml:"red_flags" json:"red_flags"`
	Pushback   PushbackScore  `yaml:"pushback" json:"pushback"`
}

var scoring = mustLoadScoring(dataFS)

func mustLoadScoring(fsys fs.FS) Scoring {
	s, err := loadScoring(fsys, loaded.track)
	if err != nil {
		panic(fmt.Sprintf("interview: %v", err))
	}
	return s
}

// Behaviour is the rubric by behaviour: a deep copy.
func Behaviour() Scoring {
	s := scoring
	s.Levels = slices.Clone(s.Levels)
	s.Dimensions = slices.Clone(s.Dimensions)
	for i, d := range s.Dimensions {
		s.Dimensions[i].Anchors = maps.Clone(d.Anchors)
	}
	s.Pushback.Anchors = maps.Clone(s.Pushback.Anchors)
	s.RedFlags = slices.Clone(s.RedFlags)
	s.Phases = slices.Clone(s.Phases)
	for i, p := range s.Phases {
		s.Phases[i].Weights = maps.Clone(p.Weights)
	}
	return s
}

// Overall is the weighted score of levels (dimension id → 1 for no hire …
// 4 for strong hire), from 1 to 4; an error names a dimension that is
// missing, unknown or out of range.
func (s Scoring) Overall(levels map[string]int) (float64, error) {
	sum := 0.0
	for _, d := range s.Dimensions {
		l, ok := levels[d.ID]
		if !ok || l < 1 || l > len(s.Levels) {
			return 0, fmt.Errorf("levels[%q] = %d, want 1 to %d", d.ID, l, len(s.Levels))
		}
		sum += float64(d.Weight * l)
	}
	for id := range levels {
		if !slices.ContainsFunc(s.Dimensions, func(d Dimension) bool { return d.ID == id }) {
			return 0, fmt.Errorf("levels[%q]: not a dimension", id)
		}
	}
	return sum / 100, nil
}

// loadScoring reads data/scoring.yaml and checks it against the Track.
func loadScoring(fsys fs.FS, track []TrackPhase) (Scoring, error) {
	const file = "data/scoring.yaml"
	var s Scoring
	if err := strictyaml.DecodeFile(fsys, file, &s); err != nil {
		return Scoring{}, err
	}
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(file+": "+format, a...)) }
	if len(s.Levels) != 4 {
		fail("%d levels, want 4: no hire, lean hire, hire, strong hire", len(s.Levels))
	}
	ids, total, across := map[string]bool{}, 0, ""
	for i, d := range s.Dimensions {
		if d.ID == "" || d.Title == "" || d.Weight <= 0 || !d.Anchors.complete() {
			fail("dimension %d (%q): id, title, a positive weight and anchors %v are required", i+1, d.ID, AnchorKeys)
		}
		if ids[d.ID] {
			fail("dimension %q twice", d.ID)
		}
		if d.Across {
			across = d.ID
		}
		ids[d.ID], total = true, total+d.Weight
	}
	if total != 100 {
		fail("the dimensions' weights sum to %d, want 100", total)
	}
	if len(s.Phases) != len(track) {
		fail("%d phases, want one per Track phase (%d)", len(s.Phases), len(track))
	}
	for i, p := range s.Phases {
		if i < len(track) && p.Phase != track[i].Title {
			fail("phase %d is %q, want the Track's %q", i+1, p.Phase, track[i].Title)
		}
		sum := 0
		for id, w := range p.Weights {
			if !ids[id] || w <= 0 {
				fail("phase %q: weight %s = %d, want a positive weight of a dimension", p.Phase, id, w)
			}
			sum += w
		}
		if sum != 100 || (across != "" && p.Weights[across] == 0) {
			fail("phase %q: weights sum to %d and weigh %q %d, want 100 and %q in every phase", p.Phase, sum, across, p.Weights[across], across)
		}
	}
	for i, f := range s.RedFlags {
		if n, err := strconv.Atoi(f.Chapter); f.ID == "" || f.Behaviour == "" || f.Why == "" || err != nil || len(f.Chapter) != 2 || n < 1 {
			fail("red flag %d (%q): id, behaviour, why and a two-digit chapter are required", i+1, f.ID)
		}
	}
	if s.Pushback.What == "" || !s.Pushback.Anchors.complete() {
		fail("pushback: what and anchors %v are required", AnchorKeys)
	}
	return s, errors.Join(errs...)
}
