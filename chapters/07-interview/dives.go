package interview

import (
	"math/rand/v2"
	"slices"
)

// The deep dives are the interviewer's choice, not a fixed part of the
// prompt: each prompt names a bank of at least six (Prompt.Dives), and a
// mock draws two of them, the candidate's weakest drill topics first, then
// at random. Two of every bank are the prompt's own (its algorithm and its
// failure phases of the short form); the rest are shared: the race in the
// script, the hot key, the failover, eviction, many regions, overload, the
// retry herd, clock skew.

// Dive is one deep dive: what the interviewer digs into, and what a strong
// answer covers there.
type Dive struct {
	ID        string   `yaml:"id"`        // stable, for the command line and saved progress
	Title     string   `yaml:"title"`     // a few words
	Questions []string `yaml:"questions"` // what the interviewer asks, in order
	Checklist []Point  `yaml:"checklist"` // what a strong answer covers
	Card      string   `yaml:"card"`      // the drill card that practises it (a Question.ID)
}

// The ids of the two dives every prompt has of its own.
const (
	DiveAlgorithm = "algorithm" // its short form's phase 2: the algorithm and its cost
	DiveFailure   = "failure"   // its short form's phase 4: failure and the response
)

// Dives is the shared deep-dive bank, from data/dives.yaml: a deep copy.
func Dives() []Dive {
	out := make([]Dive, len(loaded.dives))
	for i, d := range loaded.dives {
		out[i] = d.clone()
	}
	return out
}

// clone is d with slices of its own.
func (d Dive) clone() Dive {
	d.Questions, d.Checklist = slices.Clone(d.Questions), clonePoints(d.Checklist)
	return d
}

// DiveByID finds a dive of the shared bank.
func DiveByID(id string) (Dive, bool) {
	for _, d := range loaded.dives {
		if d.ID == id {
			return d.clone(), true
		}
	}
	return Dive{}, false
}

// DivesFor is prompt p's bank of deep dives, in its order: its own two
// (from its short form's phases 2 and 4) and the shared ones it names.
func DivesFor(p Prompt) []Dive {
	var out []Dive
	for _, id := range p.Dives {
		switch {
		case id == DiveAlgorithm && len(p.Phases) == len(loaded.skeleton):
			out = append(out, Dive{id, "The algorithm and its cost", p.Phases[1].Questions, p.Phases[1].Checklist, "07/choosing the limit"})
		case id == DiveFailure && len(p.Phases) == len(loaded.skeleton):
			out = append(out, Dive{id, "Failure and the response", p.Phases[3].Questions, p.Phases[3].Checklist, "06/fail open or closed"})
		default:
			if d, ok := DiveByID(id); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// DivesRun is how many deep dives a mock runs.
const DivesRun = 2

// ChooseDives draws DivesRun dives from p's bank, as an interviewer
// would: first those whose drill card weak says the candidate missed, then
// at random (r; nil keeps the bank's order).
func ChooseDives(p Prompt, weak func(card string) bool, r *rand.Rand) []string {
	bank := DivesFor(p)
	if r != nil {
		r.Shuffle(len(bank), func(i, j int) { bank[i], bank[j] = bank[j], bank[i] })
	}
	var out []string
	for _, pass := range []bool{true, false} {
		for _, d := range bank {
			if len(out) < DivesRun && (weak != nil && weak(d.Card)) == pass && !slices.Contains(out, d.ID) {
				out = append(out, d.ID)
			}
		}
	}
	return out
}
