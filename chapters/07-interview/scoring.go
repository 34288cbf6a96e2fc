package interview

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
)

// The rubric by behaviour scores a mock the way an interviewer writes
// feedback: six dimensions with weights (framing, design, depth, judgment,
// operability, and communication across every phase), each with an anchor
// per level that says what a candidate at that level does; the weights of
// each phase of the Track; the red flags that sink an answer whatever else
// it covers; and a score for how pushback is handled. It is the same for
// every prompt; data/rubric.yaml keeps each prompt's senior and staff rows
// (RubricFor). The data is data/scoring.yaml.

// Anchors says what a candidate does at each level, no hire to strong hire.
type Anchors struct {
	NoHire     string `yaml:"no_hire" json:"no_hire"`
	LeanHire   string `yaml:"lean_hire" json:"lean_hire"`
	Hire       string `yaml:"hire" json:"hire"`
	StrongHire string `yaml:"strong_hire" json:"strong_hire"`
}

// Dimension is one weighted part of the verdict.
type Dimension struct {
	ID      string  `yaml:"id"`
	Title   string  `yaml:"title"`
	Weight  int     `yaml:"weight"` // of 100, overall
	Across  bool    `yaml:"across"` // weighted in every phase (communication)
	Anchors Anchors `yaml:"anchors"`
}

// PhaseWeights is how one Track phase (by title) weighs the dimensions
// (by id), of 100.
type PhaseWeights struct {
	Phase   string         `yaml:"phase"`
	Weights map[string]int `yaml:"weights"`
}

// RedFlag is a behaviour that sinks an answer, why, and the chapter that
// shows it.
type RedFlag struct {
	ID        string `yaml:"id"`
	Behaviour string `yaml:"behaviour"`
	Why       string `yaml:"why"`
	Chapter   string `yaml:"chapter"`
}

// PushbackScore is how the handling of a pushback is scored.
type PushbackScore struct {
	What    string  `yaml:"what"`
	Anchors Anchors `yaml:"anchors"`
}

// Scoring is the whole rubric by behaviour.
type Scoring struct {
	Levels     []string       `yaml:"levels"` // no hire … strong hire, scored 1 to 4
	Dimensions []Dimension    `yaml:"dimensions"`
	Phases     []PhaseWeights `yaml:"phases"` // one per Track phase, in order
	RedFlags   []RedFlag      `yaml:"red_flags"`
	Pushback   PushbackScore  `yaml:"pushback"`
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
	if err := decodeFile(fsys, file, &s); err != nil {
		return Scoring{}, err
	}
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(file+": "+format, a...)) }
	if len(s.Levels) != 4 {
		fail("%d levels, want 4: no hire, lean hire, hire, strong hire", len(s.Levels))
	}
	ids, total, across := map[string]bool{}, 0, ""
	for i, d := range s.Dimensions {
		a := d.Anchors
		if d.ID == "" || d.Title == "" || d.Weight <= 0 || a.NoHire == "" || a.LeanHire == "" || a.Hire == "" || a.StrongHire == "" {
			fail("dimension %d (%q): id, title, a positive weight and four anchors are required", i+1, d.ID)
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
	a := s.Pushback.Anchors
	if s.Pushback.What == "" || a.NoHire == "" || a.LeanHire == "" || a.Hire == "" || a.StrongHire == "" {
		fail("pushback: what and four anchors are required")
	}
	return s, errors.Join(errs...)
}
