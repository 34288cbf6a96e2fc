package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
)

// `plan --json` prints exactly {"plans":[{"id","title","minutes","steps":
// [{"id","kind","chapter","what","where","minutes"}]}]}, each plan's
// minutes the sum of its steps', the evening within 150.
func TestPlanJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"plan", "--json"}, &out, &errOut); code != 0 || errOut.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	var top map[string][]map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &top); err != nil || len(top) != 1 {
		t.Fatalf("not {\"plans\": […]}: %v\n%s", err, out.String())
	}
	keys := func(m map[string]json.RawMessage) []string {
		var k []string
		for name := range m {
			k = append(k, name)
		}
		slices.Sort(k)
		return k
	}
	plans := top["plans"]
	if len(plans) < 2 {
		t.Fatalf("%d plans, want at least 2", len(plans))
	}
	for _, p := range plans {
		if got := keys(p); !slices.Equal(got, []string{"id", "minutes", "steps", "title"}) {
			t.Fatalf("a plan's keys: %v", got)
		}
		var id string
		var minutes int
		var steps []map[string]json.RawMessage
		json.Unmarshal(p["id"], &id)
		json.Unmarshal(p["minutes"], &minutes)
		json.Unmarshal(p["steps"], &steps)
		sum := 0
		for _, s := range steps {
			if got := keys(s); !slices.Equal(got, []string{"chapter", "id", "kind", "minutes", "what", "where"}) {
				t.Fatalf("a step's keys: %v", got)
			}
			var m int
			json.Unmarshal(s["minutes"], &m)
			sum += m
		}
		if sum != minutes || minutes == 0 {
			t.Errorf("plan %s: minutes %d, its steps sum to %d", id, minutes, sum)
		}
		if id == "evening" && (minutes > 150 || string(steps[0]["where"]) != `"chapters/01-framing/README.md#the-idea"`) {
			t.Errorf("evening: %d minutes, first step at %s", minutes, steps[0]["where"])
		}
	}
	if !strings.Contains(out.String(), `"kind":"mock","chapter":"07","what":"Run the 15-minute mock`) {
		t.Errorf("the evening's mock step is not in the JSON:\n%s", out.String())
	}
}

// The text form lists every step of a plan with its minutes, where and
// what to say, within 80 columns but for a heading's anchor, which is
// never split; a place too long for its line is cut before its '#', the
// anchor under the file at the same indent. Every line of a step keeps
// the step's indent.
func TestPlanText(t *testing.T) {
	for _, p := range plan.Plans() {
		var out, errOut bytes.Buffer
		if code := run([]string{"plan", "--id", p.ID}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		s := out.String()
		head := fmt.Sprintf("%s · %d minutes · %d steps\n", p.Title, p.Minutes(), len(p.Steps))
		if !strings.HasPrefix(s, head) {
			t.Fatalf("the heading is not %q:\n%s", head, s)
		}
		joined := flat(strings.ReplaceAll(s, "\n                    #", "#"))
		for _, st := range p.Steps {
			if !strings.Contains(joined, flat(st.Where())) || !strings.Contains(flat(s), flat(st.Say)) {
				t.Errorf("%s/%s: its place %q or what to say is missing", p.ID, st.ID, st.Where())
			}
		}
		_, steps, _ := strings.Cut(s, "\n\n")
		for _, l := range strings.Split(steps, "\n") {
			if l != "" && !regexp.MustCompile(`^(\S+ +\d+ min  |              )`).MatchString(l) {
				t.Errorf("%s: a line out of the step's indent: %q", p.ID, l)
			}
			if len([]rune(l)) > 80 && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				t.Errorf("%s: line over 80 columns: %q", p.ID, l)
			}
		}
	}
	if !strings.HasPrefix(planText(t, "evening"), "One evening · 73 minutes · 15 steps\n") {
		t.Error("the evening is not 73 minutes in 15 steps")
	}
}

func planText(t *testing.T, id string) string {
	var out, errOut bytes.Buffer
	if code := run([]string{"plan", "--id", id}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	return out.String()
}

// A plan that does not exist is bad input: exit 2, one line, no output.
func TestPlanBadID(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"plan", "--id", "month"}, &out, &errOut)
	if code != 2 || out.Len() > 0 || errOut.String() != "plan: invalid --id \"month\": accepted evening or week\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
