package interview

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Every prompt has a bank of at least six deep dives, each with the
// interviewer's questions, points the keys 1-9 can tick (two dives
// together too), every point taught where it says, and a drill card.
func TestEveryPromptHasABankOfDeepDives(t *testing.T) {
	cards := map[string]bool{}
	for _, q := range Drill() {
		cards[q.ID] = true
	}
	for _, p := range Mock() {
		bank := DivesFor(p)
		if len(bank) < 6 || len(bank) != len(p.Dives) {
			t.Errorf("%s: %d deep dives of %d named, want at least 6, all known", p.Name, len(bank), len(p.Dives))
		}
		for _, d := range bank {
			if len(d.Questions) == 0 || len(d.Checklist) < 2 || len(d.Checklist) > 4 || !cards[d.Card] {
				t.Errorf("%s dive %s: %d questions, %d points, card %q", p.Name, d.ID, len(d.Questions), len(d.Checklist), d.Card)
			}
			for _, pt := range d.Checklist {
				if !strings.Contains(courseText(pt.Chapter), strings.ToLower(pt.Cue)) {
					t.Errorf("%s dive %s %q: chapter %s never says %q", p.Name, d.ID, pt.Text, pt.Chapter, pt.Cue)
				}
			}
		}
		for _, want := range []string{"script-race", "hot-key", "failover"} {
			if _, ok := DiveByID(want); !ok {
				t.Errorf("the shared bank lacks %q", want)
			}
		}
	}
}

// The deep dives run are the ones chosen: the candidate's weak cards
// first, then at random; the long form's deep-dive phase is theirs.
func TestDeepDivesAreChosenWeakestFirst(t *testing.T) {
	p, _ := MockPrompt("per-user-api")
	if got := ChooseDives(p, nil, nil); !slices.Equal(got, []string{DiveAlgorithm, DiveFailure}) {
		t.Errorf("no weak cards, no randomness: %v, want the bank's first two", got)
	}
	weak := func(card string) bool { return card == "06/Redis failover" || card == "09/many regions" }
	got := ChooseDives(p, weak, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(got, []string{"failover", "many-regions"}) && !slices.Equal(got, []string{"many-regions", "failover"}) {
		t.Errorf("weak cards 06/Redis failover and 09/many regions: chose %v", got)
	}
	seen := map[string]bool{}
	for seed := range uint64(40) {
		for _, id := range ChooseDives(p, nil, rand.New(rand.NewPCG(seed, 7))) {
			seen[id] = true
		}
	}
	if len(seen) < 5 {
		t.Errorf("40 random draws chose only %v", seen)
	}
	deep := LongFormWith(p, []string{"hot-key", "script-race"})[3]
	hot, _ := DiveByID("hot-key")
	race, _ := DiveByID("script-race")
	if len(deep.Checklist) != len(hot.Checklist)+len(race.Checklist) || deep.Checklist[0].Text != hot.Checklist[0].Text ||
		deep.Questions[0] != hot.Questions[0] {
		t.Errorf("the deep dives run are not the ones chosen: %+v", deep.Questions)
	}
}

// The staff probes the reviewers missed are in the bank, each thrown by
// at least one prompt.
func TestPushbackHasTheStaffProbes(t *testing.T) {
	for _, id := range []string{"limiter-slo", "build-vs-buy", "multi-limit-charging", "quota-vs-rate", "cost",
		"migrate-old-limiter", "ownership", "requirement-change"} {
		q, ok := PushbackByID(id)
		if !ok {
			t.Errorf("no pushback %q", id)
			continue
		}
		if q.Phase < 1 || q.Phase >= len(Track()) {
			t.Errorf("%s: thrown in phase %d", id, q.Phase)
		}
	}
	q, _ := PushbackByID("limiter-slo")
	if all := strings.Join(q.Strong, " "); !strings.Contains(all, "p99") || !strings.Contains(all, "Blast radius") {
		t.Errorf("limiter-slo does not say its latency target and blast radius: %q", all)
	}
}
