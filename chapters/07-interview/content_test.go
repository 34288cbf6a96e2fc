package interview

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// TestContentLoads is the schema test of the data files: they decode
// strictly and pass every check of content_check.go. The package would
// not have started otherwise; this names the fault.
func TestContentLoads(t *testing.T) {
	c, err := loadContent(dataFS)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.drill) < 45 || len(c.mock) < 4 || len(c.pushback) < 10 || len(c.dives) < 6 || len(c.rubric) != len(c.mock) {
		t.Errorf("%d cards, %d prompts, %d pushbacks, %d dives, %d rubrics: a file lost its entries",
			len(c.drill), len(c.mock), len(c.pushback), len(c.dives), len(c.rubric))
	}
}

// TestContentChaptersExist checks that every chapter the data files name
// is a chapter of the course.
func TestContentChaptersExist(t *testing.T) {
	var named []string
	for _, q := range Drill() {
		named = append(named, q.Chapter)
	}
	for _, p := range Pushback() {
		named = append(named, p.Chapter)
	}
	for _, d := range Dives() {
		for _, pt := range d.Checklist {
			named = append(named, pt.Chapter)
		}
	}
	for _, p := range Mock() {
		for _, ph := range p.Phases {
			for _, pt := range ph.Checklist {
				named = append(named, pt.Chapter)
			}
		}
	}
	for _, ch := range named {
		if n, err := strconv.Atoi(ch); err != nil || chapters.Dir(n) == "" {
			t.Errorf("chapter %q is not a chapter of the course", ch)
		}
	}
}

// TestContentChecksCatchFaults edits one line of a data file the way a
// reviewer might get it wrong and wants the loader to refuse it, naming
// the file and the fault.
func TestContentChecksCatchFaults(t *testing.T) {
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"misspelt key", "cards.yaml", "  topic: placement\n", "  topik: placement\n", "field topik not found"},
		{"missing field", "cards.yaml", "  topic: placement\n", "", `card 1 ("01/placement"): topic is missing`},
		{"duplicate card", "cards.yaml", "id: 01/the four questions\n", "id: 01/placement\n", `card id "01/placement" twice`},
		{"chapter as a number", "cards.yaml", "  chapter: \"01\"\n", "  chapter: 1\n", `chapter "1", want two digits`},
		{"unknown card", "pushback.yaml", "card: 07/rules and overrides\n", "card: 07/rules\n", `card "07/rules" is not a card`},
		{"phase out of range", "pushback.yaml", "  phase: 2\n", "  phase: 5\n", "phase 5, want 1 to 4"},
		{"unknown pushback", "mock.yaml", "    - quota-vs-rate\n", "    - quota-vs-rates\n", `pushback "quota-vs-rates" is not in data/pushback.yaml`},
		{"unknown dive", "mock.yaml", "    - hot-key\n", "    - hot-keys\n", `dive "hot-keys" is not in data/dives.yaml`},
		{"unknown rubric prompt", "rubric.yaml", "prompt: per-user-api\n", "prompt: per-user\n", `no rubric for prompt "per-user-api"`},
		{"track phase without minutes", "track.yaml", "- minutes: 3\n", "- minutes: 0\n", `phase 1 ("Introduction and the question"): 0 minutes`},
		{"skeleton step without points", "skeleton.yaml", "  points:\n    - |-\n      Who is the key", "  pointz:\n    - |-\n      Who is the key", "field pointz not found"},
		{"not YAML", "dives.yaml", "- id: script-race\n", "- id: script-race\n\tx\n", "data/dives.yaml: yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			files, _ := fs.Glob(dataFS, "data/*.yaml")
			for _, f := range files {
				b, _ := fs.ReadFile(dataFS, f)
				fsys[f] = &fstest.MapFile{Data: b}
			}
			f := fsys["data/"+tc.file]
			if !strings.Contains(string(f.Data), tc.old) {
				t.Fatalf("data/%s no longer holds %q: update the test", tc.file, tc.old)
			}
			f.Data = []byte(strings.Replace(string(f.Data), tc.old, tc.new, 1))
			_, err := loadContent(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("loadContent = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestAccessorsHandOutCopies changes what each accessor returned and wants
// the next call to return the data files' text, unchanged.
func TestAccessorsHandOutCopies(t *testing.T) {
	m := Mock()
	m[0].Phases[0].Questions[0], m[0].Pushback[0], m[0].Title = "x", "x", "x"
	d := Dives()
	d[0].Questions[0], d[0].Checklist[0].Text = "x", "x"
	p := Pushback()
	p[0].Strong[0] = "x"
	q := Drill()
	q[0].A = "x"
	one, _ := MockPrompt(m[1].Name)
	one.Phases[1].Checklist[0].Text = "x"
	push, _ := PushbackByID(p[1].ID)
	push.Strong[0] = "x"
	dive, _ := DiveByID(d[1].ID)
	dive.Questions[0] = "x"
	tr, sk := Track(), Skeleton()
	tr[0].Checklist[0], tr[1].Probes[0].A, sk[0].Points[0] = "x", "x", "x"
	for _, got := range []string{
		Mock()[0].Phases[0].Questions[0], Mock()[0].Pushback[0], Mock()[0].Title,
		Dives()[0].Questions[0], Dives()[0].Checklist[0].Text, Pushback()[0].Strong[0], Drill()[0].A,
		Mock()[1].Phases[1].Checklist[0].Text, Pushback()[1].Strong[0], Dives()[1].Questions[0],
		Track()[0].Checklist[0], Track()[1].Probes[0].A, Skeleton()[0].Points[0],
	} {
		if got == "x" {
			t.Fatal("a change to an accessor's result reached the package's data")
		}
	}
}
