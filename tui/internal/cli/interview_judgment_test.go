package cli

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// judgmentJSON is what `tui interview --json` adds for judging an answer.
type judgmentJSON struct {
	Prompts []struct {
		Name   string
		Phases []struct{ Title, Lean, Strong string }
		Risks  []struct{ Name, Why string }
		Change *struct{ Change, Lean, Strong string } `json:"requirement_change"`
	}
	Scoring *struct {
		Levels     []string
		Dimensions []struct {
			ID, Title string
			Weight    int
			Across    bool
			Anchors   map[string]string
		}
		Phases []struct {
			Phase   string
			Weights map[string]int
		}
		RedFlags []struct{ ID, Behaviour, Why, Chapter string } `json:"red_flags"`
		Pushback struct {
			What    string
			Anchors map[string]string
		}
	}
}

// `tui interview --json` carries the rubric by behaviour (dimensions whose
// weights sum to 100, overall and per phase, an anchor per level, the red
// flags and the pushback score) and, per prompt, its two risks, each
// phase's lean and strong versions and the requirement-change turn, as
// chapter 07 has them. The short form carries none of it.
func TestInterviewJSONCarriesLeanStrongAndScoring(t *testing.T) {
	j := decodeInterviewAs[judgmentJSON](t)
	s := j.Scoring
	if s == nil {
		t.Fatal("no scoring")
	}
	levels := []string{"no_hire", "lean_hire", "hire", "strong_hire"}
	total, across := 0, ""
	for _, d := range s.Dimensions {
		total += d.Weight
		if d.Across {
			across = d.ID
		}
		for _, l := range levels {
			if d.Anchors[l] == "" {
				t.Errorf("dimension %s: no %s anchor", d.ID, l)
			}
		}
	}
	if total != 100 || len(s.Dimensions) != 6 || across != "communication" {
		t.Errorf("%d dimensions weigh %d with %q across, want 6, 100 and communication", len(s.Dimensions), total, across)
	}
	for _, p := range s.Phases {
		sum := 0
		for _, w := range p.Weights {
			sum += w
		}
		if sum != 100 || p.Weights[across] == 0 {
			t.Errorf("phase %q weighs %d, communication %d", p.Phase, sum, p.Weights[across])
		}
	}
	flags := ""
	for _, f := range s.RedFlags {
		flags += f.ID + " "
	}
	for _, id := range []string{"per-node-count", "incr-then-expire", "fail-everything-closed", "overload-as-429", "lab-numbers-as-facts"} {
		if !strings.Contains(flags, id+" ") {
			t.Errorf("red flags %q lack %s", flags, id)
		}
	}
	for _, l := range levels {
		if s.Pushback.Anchors[l] == "" {
			t.Errorf("pushback score: no %s anchor", l)
		}
	}
	if len(j.Prompts) != len(interview.Mock()) {
		t.Fatalf("%d prompts", len(j.Prompts))
	}
	for _, p := range j.Prompts {
		ls, _ := interview.LeanStrong(p.Name)
		if len(p.Risks) != 2 || p.Risks[0].Name != ls.Risks[0].Name {
			t.Errorf("%s: risks %+v, want chapter 07's two", p.Name, p.Risks)
		}
		if p.Change == nil || p.Change.Strong != ls.Change.Strong || p.Change.Change == "" {
			t.Errorf("%s: requirement_change %+v", p.Name, p.Change)
		}
		for i, ph := range p.Phases {
			if ph.Lean == "" || ph.Strong == "" || ph.Strong != ls.Phases[i].Strong || ph.Lean != ls.Phases[i].Lean {
				t.Errorf("%s phase %q: lean %q, strong %q, want chapter 07's", p.Name, ph.Title, ph.Lean, ph.Strong)
			}
		}
	}
	short := decodeInterviewAs[judgmentJSON](t, "--short")
	if short.Scoring != nil || short.Prompts[0].Change != nil || short.Prompts[0].Phases[0].Strong != "" {
		t.Error("the short form carries the 45-minute form's judging")
	}
}
