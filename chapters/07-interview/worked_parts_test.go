package interview

import (
	"strings"
	"testing"
)

// Each phase of each form has a strong answer of its own, taken from the
// worked answer: in the 15-minute form the parts data/worked.yaml names,
// in the track the section of the phase's title. Each is distinct from the
// form's other phases and holds the phase's subject: words its question
// cannot be answered without. (The short form's fourth phase showed its
// second's text, and its third opened with the API.)
func TestEachPhaseShowsItsOwnWorkedPart(t *testing.T) {
	short := []struct {
		step    string   // the Skeleton step's title
		subject []string // one of these at least
		opens   []string // the part opens with none of these
	}{
		{"Pin down the contract and the scale", []string{"count"}, nil},
		{"Pick the algorithm and the per-key state", []string{"token bucket", "sliding log", "throttle is a token bucket", "Reserve"}, nil},
		{"Share the state atomically across machines", []string{"Lua script", "one script", "order is the point"}, []string{"The limiter is a decision", "The limiter exposes", "The limiter has the same one call"}},
		{"Failure, overload, monitoring and the response", []string{"Retry-After"}, nil},
	}
	steps := Skeleton()
	if len(steps) != len(short) {
		t.Fatalf("%d steps, the table has %d", len(steps), len(short))
	}
	for _, name := range MockNames() {
		seen := map[string]int{}
		for i, tc := range short {
			if steps[i].Title != tc.step {
				t.Fatalf("step %d is %q, the table's %q", i+1, steps[i].Title, tc.step)
			}
			got := WorkedShort(name, i)
			if got == "" {
				t.Errorf("%s short phase %d: no strong answer", name, i+1)
				continue
			}
			if j, dup := seen[got]; dup {
				t.Errorf("%s short phase %d shows phase %d's text", name, i+1, j+1)
			}
			seen[got] = i
			if !containsAny(got, tc.subject) {
				t.Errorf("%s short phase %d (%s) says none of %q", name, i+1, tc.step, tc.subject)
			}
			for _, o := range tc.opens {
				if strings.HasPrefix(got, o) {
					t.Errorf("%s short phase %d opens with %q", name, i+1, o)
				}
			}
		}
		for j := range Track() {
			if WorkedPhase(name, j) == "" {
				t.Errorf("%s track phase %d: no worked section", name, j+1)
			}
		}
	}
	if WorkedShort("no-such-prompt", 0) != "" || WorkedShort(MockNames()[0], len(short)) != "" {
		t.Error("an unknown prompt or phase has a strong answer")
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// A part that is not in its worked answer is named, not shown empty.
func TestWorkedPartNamesWhatIsMissing(t *testing.T) {
	md := "## A\n\nOne.\n\nTwo here.\n\n### B\n\nThree.\n"
	for _, tc := range []struct {
		part WorkedPart
		want string // the text, or the error's words
	}{
		{WorkedPart{Section: "A"}, "One.\n\nTwo here."},
		{WorkedPart{Section: "A", Paragraphs: []string{"Two"}}, "Two here."},
		{WorkedPart{Section: "A", Sub: "B"}, "### B\n\nThree."},
		{WorkedPart{Section: "C"}, `no section "C"`},
		{WorkedPart{Section: "A", Sub: "D"}, `no subsection "D"`},
		{WorkedPart{Section: "A", Paragraphs: []string{"Four"}}, `no paragraph opening "Four"`},
	} {
		got, err := tc.part.text(md)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) || (err == nil && got != tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.part, got, tc.want)
		}
	}
}
