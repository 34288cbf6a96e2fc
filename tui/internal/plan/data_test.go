package plan

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPlansLoad is the schema test of the plans' data files: each loads
// strictly and passes checkPlan. The package would not have started
// otherwise; this names the fault.
func TestPlansLoad(t *testing.T) {
	for file, id := range map[string]string{"data/evening.yaml": "evening", "data/week.yaml": "week"} {
		p, err := loadPlan(dataFS, file)
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != id || len(p.Steps) < 10 {
			t.Errorf("%s: id %q with %d steps, want %q with at least 10", file, p.ID, len(p.Steps), id)
		}
	}
}

// TestPlanChecksCatchFaults edits one line of data/evening.yaml the way a
// reviewer might get it wrong and wants the loader to refuse it.
func TestPlanChecksCatchFaults(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"misspelt key", "      minutes: 5\n", "      minuts: 5\n", "field minuts not found"},
		{"minutes zero", "      minutes: 5\n", "      minutes: 0\n", "0 minutes"},
		{"duplicate id", "    - id: e05\n", "    - id: e04\n", `step 5 ("e04"): the id is missing or used twice`},
		{"no chapter 12", "      chapter: 2\n", "      chapter: 12\n", "chapter 12 is not a chapter"},
		{"unknown kind", "      kind: screen\n", "      kind: film\n", `kind "film"`},
		{"unknown mock form", "      open: 15-minute\n", "      open: 30-minute\n", "no such place"},
		{"read step without section", "      section: The idea\n", "", "no such place"},
		{"unknown card", "        - 01/the 429 contract\n", "        - 01/the 430 contract\n", `no drill card "01/the 430 contract"`},
		{"missing say", "      say: I can draw it on the board without notes.\n", "", `say ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := fs.ReadFile(dataFS, "data/evening.yaml")
			if !strings.Contains(string(b), tc.old) {
				t.Fatalf("data/evening.yaml no longer holds %q: update the test", tc.old)
			}
			fsys := fstest.MapFS{"e.yaml": {Data: []byte(strings.Replace(string(b), tc.old, tc.new, 1))}}
			if _, err := loadPlan(fsys, "e.yaml"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("loadPlan = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestPlansHandOutCopies changes what Evening and Plans returned and
// wants the next call unchanged.
func TestPlansHandOutCopies(t *testing.T) {
	e := Evening()
	e.Steps[0].What = "x"
	for _, s := range e.Steps {
		if len(s.Cards) > 0 {
			s.Cards[0] = "x"
		}
	}
	Plans()[1].Steps[0].Say = "x"
	if Evening().Steps[0].What == "x" || Week().Steps[0].Say == "x" {
		t.Fatal("a change to a returned plan reached the package's data")
	}
	for _, s := range Evening().Steps {
		if len(s.Cards) > 0 && s.Cards[0] == "x" {
			t.Fatal("a change to a returned step's cards reached the package's data")
		}
	}
}
