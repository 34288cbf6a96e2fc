package interview

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// The rubric by behaviour weighs six dimensions to 100, weighs each Track
// phase to 100 with communication in every one, names the five red flags
// of issue 38, and its strong-hire anchors are reframing, cutting scope and
// bounding error rather than more items.
func TestScoring(t *testing.T) {
	s := Behaviour()
	want := map[string]int{"framing": 15, "design": 20, "depth": 20, "judgment": 20, "operability": 10, "communication": 15}
	got := map[string]int{}
	for _, d := range s.Dimensions {
		got[d.ID] = d.Weight
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("dimension %s weighs %d, want %d", id, got[id], w)
		}
	}
	if len(s.Phases) != len(Track()) {
		t.Fatalf("%d phases, want %d", len(s.Phases), len(Track()))
	}
	for i, p := range s.Phases {
		if p.Phase != Track()[i].Title || p.Weights["communication"] == 0 {
			t.Errorf("phase %d: %q weighs communication %d", i, p.Phase, p.Weights["communication"])
		}
	}
	for _, id := range []string{"per-node-count", "incr-then-expire", "fail-everything-closed", "overload-as-429", "lab-numbers-as-facts"} {
		found := false
		for _, f := range s.RedFlags {
			found = found || f.ID == id
		}
		if !found {
			t.Errorf("no red flag %q", id)
		}
	}
	strong := map[string]string{}
	for _, d := range s.Dimensions {
		strong[d.ID] = strings.ToLower(d.Anchors["strong_hire"])
	}
	for _, c := range []struct{ dim, word string }{
		{"framing", "reframes"}, {"framing", "cuts scope"}, {"judgment", "bounds the error"}, {"depth", "derives each bound"},
	} {
		if !strings.Contains(strong[c.dim], c.word) {
			t.Errorf("the strong-hire anchor of %s does not say %q: %q", c.dim, c.word, strong[c.dim])
		}
	}
	if !s.Pushback.Anchors.complete() || len(s.Levels) != 4 {
		t.Errorf("pushback anchors %+v, levels %v", s.Pushback.Anchors, s.Levels)
	}
	// The README states the weights; they are the data's.
	var said []string
	for _, d := range s.Dimensions {
		said = append(said, fmt.Sprintf("%s %d", d.ID, d.Weight))
	}
	line := strings.Join(said[:len(said)-1], ", ") + " and " + said[len(said)-1]
	if readme := strings.Join(strings.Fields(chapters.README(7)), " "); !strings.Contains(readme, line) {
		t.Errorf("the README does not weigh %q", line)
	}
	s.Phases[0].Weights["framing"] = 0
	if Behaviour().Phases[0].Weights["framing"] == 0 {
		t.Error("Behaviour hands out its own map")
	}
}

func TestScoringOverall(t *testing.T) {
	all := func(l int) map[string]int {
		return map[string]int{"framing": l, "design": l, "depth": l, "judgment": l, "operability": l, "communication": l}
	}
	mixed := map[string]int{"framing": 4, "design": 3, "depth": 3, "judgment": 2, "operability": 1, "communication": 4}
	missing := all(3)
	delete(missing, "depth")
	unknown := all(3)
	unknown["charm"] = 4
	for _, c := range []struct {
		name   string
		levels map[string]int
		want   float64
		err    string
	}{
		{"all strong hire", all(4), 4, ""},
		{"all no hire", all(1), 1, ""},
		{"mixed: (60+60+60+40+10+60)/100", mixed, 2.9, ""},
		{"a dimension missing", missing, 0, `levels["depth"] = 0`},
		{"a level above strong hire", all(5), 0, "want 1 to 4"},
		{"an unknown dimension", unknown, 0, `levels["charm"]: not a dimension`},
	} {
		got, err := Behaviour().Overall(c.levels)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("%s: %v, %v, want %v", c.name, got, err, c.want)
		}
	}
}

// A broken scoring file is refused with its fault named.
func TestScoringRejectsBadData(t *testing.T) {
	b, err := dataFS.ReadFile("data/scoring.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	for _, c := range []struct{ name, from, to, want string }{
		{"weights not 100", "weight: 15\n    anchors:\n      no_hire: Starts", "weight: 5\n    anchors:\n      no_hire: Starts", "sum to 90"},
		{"a phase without communication", "{framing: 60, communication: 40}", "{framing: 100}", `"communication" in every phase`},
		{"an unknown dimension", "{design: 60,", "{desing: 60,", "weight desing"},
		{"a misspelt field", "behaviour: Answers overload", "behavior: Answers overload", "behavior"},
		{"a chapter not two digits", `chapter: "09"`, `chapter: "9"`, "two-digit chapter"},
		{"an anchor missing", "      lean_hire: Lists metrics", "      lean_hir: Lists metrics", `"operability"): id, title`},
		{"a pushback anchor missing", "    hire: Restates the new constraint", "    hired: Restates the new constraint", "pushback: what and anchors"},
	} {
		if !strings.Contains(good, c.from) {
			t.Fatalf("%s: %q is not in the file", c.name, c.from)
		}
		fsys := fstest.MapFS{"data/scoring.yaml": {Data: []byte(strings.Replace(good, c.from, c.to, 1))}}
		_, err := loadScoring(fsys, loaded.track)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %q", c.name, err, c.want)
		}
	}
}
