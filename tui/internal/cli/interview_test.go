package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

func runInterviewArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(append([]string{"interview"}, args...), &out, &errOut)
	return out.String(), errOut.String(), code
}

// `tui interview --json` prints the plan: every prompt, and per phase of the
// skeleton its minutes, the interviewer's questions and the checklist.
func TestInterviewJSONPrintsThePlan(t *testing.T) {
	out, errOut, code := runInterviewArgs(t, "--json")
	if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q, %d lines", code, errOut, strings.Count(out, "\n"))
	}
	var plan struct {
		Minutes int `json:"minutes"`
		Prompts []struct {
			Name, Title, Ask string
			Phases           []struct {
				Title     string
				Minutes   int
				Questions []string
				Checklist []struct{ Point, Chapter string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Minutes != 15 || len(plan.Prompts) != len(interview.Mock) {
		t.Fatalf("minutes %d, %d prompts; want 15 and %d", plan.Minutes, len(plan.Prompts), len(interview.Mock))
	}
	for i, p := range plan.Prompts {
		want := interview.Mock[i]
		if p.Name != want.Name || p.Ask != want.Ask || len(p.Phases) != 4 {
			t.Fatalf("prompt %d: %+v", i, p)
		}
		for j, ph := range p.Phases {
			if ph.Title != interview.Skeleton[j].Title || ph.Minutes != interview.Skeleton[j].Minutes ||
				len(ph.Checklist) != len(want.Phases[j].Checklist) || ph.Questions[0] != want.Phases[j].Questions[0] {
				t.Errorf("%s phase %d: %+v", p.Name, j+1, ph)
			}
			for k, pt := range ph.Checklist {
				if pt.Point != want.Phases[j].Checklist[k].Text || pt.Chapter != want.Phases[j].Checklist[k].Chapter {
					t.Errorf("%s phase %d point %d: %+v", p.Name, j+1, k+1, pt)
				}
			}
		}
	}
	one, _, code := runInterviewArgs(t, "--json", "--prompt", "login")
	if code != 0 || strings.Count(one, `"name":`) != 1 || !strings.Contains(one, `"name":"login"`) {
		t.Errorf("--prompt login --json: exit %d %s", code, one)
	}
}

func TestInterviewTextFitsTheWidth(t *testing.T) {
	for _, w := range []string{"80", "40"} {
		out, errOut, code := runInterviewArgs(t, "--width", w)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d %q", code, errOut)
		}
		for _, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); (w == "80" && n > 80) || (w == "40" && n > 40) {
				t.Errorf("--width %s: line of %d: %q", w, n, l)
			}
		}
		flat := flatDrill(out)
		for _, p := range interview.Mock {
			for _, ph := range p.Phases {
				for _, pt := range ph.Checklist {
					if !strings.Contains(flat, "[ ] "+flatDrill(pt.Text)+" (ch "+pt.Chapter+")") {
						t.Errorf("--width %s: point %q missing", w, pt.Text)
					}
				}
			}
		}
	}
}

func flatDrill(s string) string { return flat(s) }

func TestInterviewBadFlagsExit2WithOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--prompt", "nope"}, "--prompt"},
		{[]string{"--width", "20"}, "--width"},
		{[]string{"--json=maybe"}, "--json"},
		{[]string{"--prompt", "login", "--prompt", "login"}, "--prompt"},
	} {
		out, errOut, code := runInterviewArgs(t, c.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "interview: ") || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	out, _, code := runInterviewArgs(t, "--help")
	if code != 0 || !strings.HasPrefix(out, "usage: tui interview") || !strings.Contains(out, "login") {
		t.Errorf("--help: exit %d %q", code, out)
	}
}

// drill --missed-first deals the cards missed in the course first.
func TestDrillMissedFirstUsesTheSavedScores(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	st, _ := progress.Load()
	last := interview.Drill[len(interview.Drill)-1]
	st.Score(progress.CardID(last), false)
	st.Score(progress.CardID(interview.Drill[0]), true)
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runDrillArgs(t, "--missed-first", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d %q", code, errOut)
	}
	var cards []map[string]string
	if err := json.Unmarshal([]byte(out), &cards); err != nil {
		t.Fatal(err)
	}
	if cards[0]["topic"] != last.Topic || cards[len(cards)-1]["topic"] != interview.Drill[0].Topic {
		t.Errorf("order: first %q, last %q; want the missed %q first and the got %q last",
			cards[0]["topic"], cards[len(cards)-1]["topic"], last.Topic, interview.Drill[0].Topic)
	}
}
