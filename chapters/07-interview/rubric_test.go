package interview

import (
	"strings"
	"testing"
)

// Every prompt has a rubric row per phase of the track, in order, with a
// senior and a staff column; across a prompt's phases the staff column
// covers each staff signal issue 30 names.
func TestRubricPerPromptAndPhase(t *testing.T) {
	signals := map[string][]string{
		"framing the ambiguity":      {"frames"},
		"choosing what to leave out": {"left out", "leaves", "scopes"},
		"SLO and blast radius":       {"slo", "blast radius"},
		"ownership of the limits":    {"owner", "owns"},
		"rollout and migration":      {"rollout", "rolls", "shadow mode", "migration"},
		"cost":                       {"cost", "bill"},
	}
	for _, p := range Mock() {
		rows := RubricFor(p.Name)
		if len(rows) != len(Track()) {
			t.Errorf("%s: %d rubric rows, want one per phase (%d)", p.Name, len(rows), len(Track()))
			continue
		}
		var staff strings.Builder
		for i, r := range rows {
			if r.Phase != Track()[i].Title {
				t.Errorf("%s row %d is for %q, want %q", p.Name, i, r.Phase, Track()[i].Title)
			}
			if len(strings.Fields(r.Senior)) < 15 || len(strings.Fields(r.Staff)) < 15 {
				t.Errorf("%s %s: senior %d words, staff %d; want a sentence or more each", p.Name, r.Phase, len(strings.Fields(r.Senior)), len(strings.Fields(r.Staff)))
			}
			if r.Senior == r.Staff {
				t.Errorf("%s %s: the staff column repeats the senior one", p.Name, r.Phase)
			}
			staff.WriteString(strings.ToLower(r.Staff) + "\n")
		}
		for signal, words := range signals {
			found := false
			for _, w := range words {
				found = found || strings.Contains(staff.String(), w)
			}
			if !found {
				t.Errorf("%s: no staff row shows %s (%q)", p.Name, signal, words)
			}
		}
	}
	if RubricFor("no-such-prompt") != nil {
		t.Error("an unknown prompt has a rubric")
	}
	if len(loaded.rubric) != len(Mock()) {
		t.Errorf("%d rubrics for %d prompts", len(loaded.rubric), len(Mock()))
	}
}
