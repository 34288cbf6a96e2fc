package plan

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/ratelimit-course/ratelimit/chapters"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// The plans are text a reviewer edits without Go: data/evening.yaml and
// data/week.yaml, one Plan each. They are read once, when the package
// starts, and checked (checkPlan); a plan that does not load is a
// programming error: the package panics when it starts, and
// TestPlansLoad names the file and the fault.

//go:embed data/*.yaml
var dataFS embed.FS

var (
	evening = mustLoadPlan(dataFS, "data/evening.yaml")
	week    = mustLoadPlan(dataFS, "data/week.yaml")
)

// Evening is the plan for a candidate with one evening: every phase of the
// 45-minute track once (the four questions, one algorithm family and its
// trade-off, the atomic script and its race, the request path and the
// service's API, a failure mode), then the 15-minute mock. Reading steps
// name short sections: each chapter's "interview answer", and chapter 06's
// "answer in five minutes" instead of its 11,000 words. It is a copy.
func Evening() Plan { return evening.clone() }

// Week is the plan for a candidate with a week: every chapter in order,
// the exercises of chapters 02, 03, 04 and 06 written, each chapter's
// cards, a 15-minute mock halfway for a first measure and the 45-minute
// track with its pushback at the end. It leaves out the measured
// comparisons with other libraries, which are depth, not the answer. It is
// a copy.
func Week() Plan { return week.clone() }

// clone is p with slices of its own.
func (p Plan) clone() Plan {
	p.Steps = slices.Clone(p.Steps)
	for i := range p.Steps {
		p.Steps[i].Cards = slices.Clone(p.Steps[i].Cards)
	}
	return p
}

func mustLoadPlan(fsys fs.FS, name string) Plan {
	p, err := loadPlan(fsys, name)
	if err != nil {
		panic(fmt.Sprintf("plan: %v", err))
	}
	return p
}

// loadPlan reads one plan strictly (a key Plan or Step does not have is
// an error) and checks it.
func loadPlan(fsys fs.FS, name string) (Plan, error) {
	var p Plan
	if err := strictyaml.DecodeFile(fsys, name, &p); err != nil {
		return Plan{}, err
	}
	if err := errors.Join(checkPlan(p)...); err != nil {
		return Plan{}, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// checkPlan is what a plan must hold: its id, title and intro; steps with
// unique ids, what to do and say, positive minutes and a chapter of the
// course; and each step's place named: drill cards that exist, a screen,
// a mock form, a section or a lab scenario. That the section and the
// scenario exist is TestStepsPointAtRealPlaces's to say: a README edit
// fails a test, it does not stop the app.
func checkPlan(p Plan) []error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if p.ID == "" || p.Title == "" || p.Intro == "" {
		fail("id %q, title %q, intro %q: each is required", p.ID, p.Title, p.Intro)
	}
	cards := map[string]bool{}
	for _, q := range interview.Drill() {
		cards[q.ID] = true
	}
	seen := map[string]bool{}
	for i, s := range p.Steps {
		at := fmt.Sprintf("step %d (%q)", i+1, s.ID)
		if s.ID == "" || seen[s.ID] {
			fail("%s: the id is missing or used twice", at)
		}
		seen[s.ID] = true
		if s.What == "" || s.Say == "" || s.Minutes < 1 {
			fail("%s: what %q, say %q, %d minutes: want both texts and minutes above 0", at, s.What, s.Say, s.Minutes)
		}
		if chapters.Dir(s.Chapter) == "" {
			fail("%s: chapter %d is not a chapter of the course", at, s.Chapter)
		}
		if err := checkPlace(s); err != nil {
			fail("%s: %v", at, err)
		}
		for _, id := range s.Cards {
			if !cards[id] {
				fail("%s: no drill card %q", at, id)
			}
		}
	}
	if len(p.Steps) == 0 {
		fail("no steps")
	}
	return errs
}

// checkPlace checks that a step names the place its kind opens.
func checkPlace(s Step) error {
	ok := false
	switch s.Kind {
	case Read, Exercise:
		ok = s.Section != ""
	case Cards:
		ok = len(s.Cards) > 0
	case Lab:
		ok = s.Open != ""
	case Screen:
		ok = slices.Contains([]string{OpenPath, OpenWorst, OpenPrefetch, OpenCluster}, s.Open)
	case Mock:
		ok = s.Open == MockShort || s.Open == MockTrack
	default:
		return fmt.Errorf("kind %q, want read, lab, screen, cards, exercise or mock", s.Kind)
	}
	if !ok {
		return fmt.Errorf("a %s step with section %q, open %q, cards %v: no such place", s.Kind, s.Section, s.Open, s.Cards)
	}
	return nil
}
