package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
)

// interviewJSON is the shape `tui interview --json` prints.
type interviewJSON struct {
	Form    string `json:"form"`
	Minutes int    `json:"minutes"`
	Prompts []struct {
		Name, Title, Ask string
		Phases           []struct {
			Title       string
			SayFirst    string `json:"say_first"`
			ModelAnswer string `json:"model_answer"`
			Draw        string
			Minutes     int
			Questions   []string
			Checklist   []struct{ Point, Chapter string }
			Pushback    []string
		}
		Pushback []struct {
			ID, Prompt, Chapter, Proof, Card string
			Strong                           []string
			Phase                            int
		}
		Dives []struct {
			ID, Title, Card string
			Questions       []string
			Checklist       []struct{ Point, Chapter string }
		}
		WorkedAnswer string `json:"worked_answer"`
		Rubric       []struct{ Phase, Senior, Staff string }
	}
}

func decodeInterview(t *testing.T, args ...string) interviewJSON {
	t.Helper()
	return decodeInterviewAs[interviewJSON](t, args...)
}

// decodeInterviewAs runs `tui interview --json` with args and decodes its
// one line into a T.
func decodeInterviewAs[T any](t *testing.T, args ...string) T {
	t.Helper()
	out, errOut, code := runCmd(t, "interview", append([]string{"--json"}, args...)...)
	if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 {
		t.Fatalf("%v: exit %d, stderr %q, %d lines", args, code, errOut, strings.Count(out, "\n"))
	}
	var plan T
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

// `tui interview --json` prints the 45-minute track: every prompt, per
// phase of the track its minutes, what to say first and draw, the
// interviewer's questions and the checklist (chapter 07's LongForm), the
// prompt's pushbacks each in its phase with what a strong answer contains,
// and its bank of deep dives.
func TestInterviewJSONPrintsTheTrackWithPushback(t *testing.T) {
	plan := decodeInterview(t)
	if plan.Form != "45-minute" || plan.Minutes != 45 || len(plan.Prompts) != len(interview.Mock()) {
		t.Fatalf("form %q, minutes %d, %d prompts; want 45-minute, 45 and %d", plan.Form, plan.Minutes, len(plan.Prompts), len(interview.Mock()))
	}
	for i, p := range plan.Prompts {
		want := interview.Mock()[i]
		long := interview.LongForm(want)
		if p.Name != want.Name || p.Ask != want.Ask || len(p.Phases) != len(interview.Track()) {
			t.Fatalf("prompt %d: %+v", i, p)
		}
		for j, ph := range p.Phases {
			step := interview.Track()[j]
			if ph.Title != step.Title || ph.Minutes != step.Minutes || ph.SayFirst != step.SayFirst || ph.Draw != step.Draw ||
				strings.Join(ph.Questions, "|") != strings.Join(long[j].Questions, "|") || len(ph.Checklist) != len(long[j].Checklist) {
				t.Errorf("%s phase %d: %+v", p.Name, j+1, ph)
			}
			for k, pt := range ph.Checklist {
				if pt.Point != long[j].Checklist[k].Text || pt.Chapter != long[j].Checklist[k].Chapter {
					t.Errorf("%s phase %d point %d: %+v", p.Name, j+1, k+1, pt)
				}
			}
		}
		pushes := interview.PushbackFor(want)
		if len(pushes) == 0 || len(p.Pushback) != len(pushes) {
			t.Fatalf("%s: %d pushbacks, want %d", p.Name, len(p.Pushback), len(pushes))
		}
		for k, q := range p.Pushback {
			w := pushes[k]
			if q.ID != w.ID || q.Prompt != w.Prompt || q.Chapter != w.Chapter || q.Proof != w.Proof || q.Card != w.Card ||
				strings.Join(q.Strong, "|") != strings.Join(w.Strong, "|") || q.Phase != w.Phase+1 {
				t.Errorf("%s pushback %d: %+v, want %+v", p.Name, k+1, q, w)
			}
			// The phase it names lists it.
			if q.Phase < 2 || q.Phase > len(p.Phases) || !slices.Contains(p.Phases[q.Phase-1].Pushback, q.ID) {
				t.Errorf("%s pushback %s: phase %d does not throw it", p.Name, q.ID, q.Phase)
			}
		}
		// Pushback woven through: at least one in every phase after the first.
		for j, ph := range p.Phases[1:] {
			if len(ph.Pushback) == 0 {
				t.Errorf("%s phase %d (%s): no pushback", p.Name, j+2, ph.Title)
			}
		}
		// The deep dives come from a bank of at least six.
		bank := interview.DivesFor(want)
		if len(p.Dives) < 6 || len(p.Dives) != len(bank) {
			t.Errorf("%s: %d deep dives, want the bank's %d (at least 6)", p.Name, len(p.Dives), len(bank))
		}
		for k, d := range p.Dives {
			if k < len(bank) && (d.ID != bank[k].ID || d.Card != bank[k].Card || len(d.Checklist) != len(bank[k].Checklist) ||
				d.Questions[0] != bank[k].Questions[0]) {
				t.Errorf("%s dive %d: %+v", p.Name, k+1, d)
			}
		}
	}
	one := decodeInterview(t, "--prompt", "login")
	if len(one.Prompts) != 1 || one.Prompts[0].Name != "login" || len(one.Prompts[0].Pushback) == 0 || one.Prompts[0].WorkedAnswer == "" {
		t.Errorf("--prompt login --json: %+v", one)
	}
}

// `tui interview --json --short` prints the 15-minute short form: per
// phase of the skeleton its minutes, the questions and the checklist, and
// no pushback.
func TestInterviewJSONShortFormIsTheSkeleton(t *testing.T) {
	plan := decodeInterview(t, "--short")
	if plan.Form != "15-minute" || plan.Minutes != 15 || len(plan.Prompts) != len(interview.Mock()) {
		t.Fatalf("form %q, minutes %d, %d prompts; want 15-minute, 15 and %d", plan.Form, plan.Minutes, len(plan.Prompts), len(interview.Mock()))
	}
	for i, p := range plan.Prompts {
		want := interview.Mock()[i]
		if p.Name != want.Name || p.Ask != want.Ask || len(p.Phases) != 4 || len(p.Pushback) != 0 || p.WorkedAnswer != "" || p.Rubric != nil {
			t.Fatalf("prompt %d: %+v", i, p)
		}
		for j, ph := range p.Phases {
			if ph.Title != interview.Skeleton()[j].Title || ph.Minutes != interview.Skeleton()[j].Minutes || ph.SayFirst != "" ||
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
	if one := decodeInterview(t, "--short", "--prompt", "login"); len(one.Prompts) != 1 || one.Prompts[0].Name != "login" {
		t.Errorf("--short --prompt login --json: %+v", one)
	}
}

func TestInterviewTextFitsTheWidth(t *testing.T) {
	for _, c := range []struct {
		w     string
		short bool
	}{{"80", false}, {"40", false}, {"80", true}} {
		args := []string{"--width", c.w}
		if c.short {
			args = append(args, "--short")
		}
		out, errOut, code := runCmd(t, "interview", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d %q", args, code, errOut)
		}
		for _, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); (c.w == "80" && n > 80) || (c.w == "40" && n > 40) {
				t.Errorf("%v: line of %d: %q", args, n, l)
			}
		}
		flat := flatDrill(out)
		for _, p := range interview.Mock() {
			phases := interview.LongForm(p)
			if c.short {
				phases = p.Phases
			}
			for _, ph := range phases {
				for _, pt := range ph.Checklist {
					if !strings.Contains(flat, "[ ] "+flatDrill(pt.Text)+" (ch "+pt.Chapter+")") {
						t.Errorf("%v: point %q missing", args, pt.Text)
					}
				}
			}
			for _, q := range interview.PushbackFor(p) {
				if has := strings.Contains(flat, `"`+flatDrill(q.Prompt)+`" - `+flatDrill(q.Strong[0])); has == c.short {
					t.Errorf("%v: pushback %q printed %v", args, q.ID, has)
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
		out, errOut, code := runCmd(t, "interview", c.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "interview: ") || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	out, _, code := runCmd(t, "interview", "--help")
	if code != 0 || !strings.HasPrefix(out, "usage: tui interview") || !strings.Contains(out, "login") {
		t.Errorf("--help: exit %d %q", code, out)
	}
}

// drill --missed-first deals the cards missed in the course first.
func TestDrillMissedFirstUsesTheSavedScores(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	st, _ := progress.Load()
	last := interview.Drill()[len(interview.Drill())-1]
	st.Score(last.ID, false)
	st.Score(interview.Drill()[0].ID, true)
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "drill", "--missed-first", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d %q", code, errOut)
	}
	var cards []map[string]string
	if err := json.Unmarshal([]byte(out), &cards); err != nil {
		t.Fatal(err)
	}
	if cards[0]["topic"] != last.Topic || cards[len(cards)-1]["topic"] != interview.Drill()[0].Topic {
		t.Errorf("order: first %q, last %q; want the missed %q first and the got %q last",
			cards[0]["topic"], cards[len(cards)-1]["topic"], last.Topic, interview.Drill()[0].Topic)
	}
}

// `tui interview --json` carries, per question, the staff-level worked
// answer (chapter 07's answers/<name>.md, at least 1,500 words, one "## "
// heading per phase of the track) and the rubric: one row per phase with
// what a senior answer does and what a staff answer adds.
func TestInterviewJSONCarriesWorkedAnswerAndRubric(t *testing.T) {
	plan := decodeInterview(t)
	for _, p := range plan.Prompts {
		want, ok := interview.WorkedAnswer(p.Name)
		if !ok || p.WorkedAnswer != want {
			t.Errorf("%s: worked_answer is not chapter 07's answer (%d bytes, want %d)", p.Name, len(p.WorkedAnswer), len(want))
		}
		if n := len(strings.Fields(p.WorkedAnswer)); n < 1500 {
			t.Errorf("%s: worked_answer has %d words, want at least 1,500", p.Name, n)
		}
		if len(p.Rubric) != len(interview.Track()) {
			t.Errorf("%s: %d rubric rows, want %d", p.Name, len(p.Rubric), len(interview.Track()))
			continue
		}
		for i, ph := range interview.Track() {
			if !strings.Contains(p.WorkedAnswer, "\n## "+ph.Title+"\n") {
				t.Errorf("%s: worked_answer has no heading for %q", p.Name, ph.Title)
			}
			r := p.Rubric[i]
			if r.Phase != ph.Title || r.Senior == "" || r.Staff == "" || r.Senior == r.Staff {
				t.Errorf("%s rubric row %d: %+v", p.Name, i, r)
			}
			// Each phase's model answer is that phase of the worked answer.
			if m := p.Phases[i].ModelAnswer; m != interview.WorkedPhase(p.Name, i) || len(strings.Fields(m)) < 200 {
				t.Errorf("%s phase %d: model_answer of %d words, want the worked answer's part", p.Name, i, len(strings.Fields(m)))
			}
		}
	}
	raw, _, _ := runCmd(t, "interview", "--json", "--prompt", "partner-api")
	for _, field := range []string{`"worked_answer":"# Worked answer`, `"rubric":[{"phase":"Introduction and the question","senior":`} {
		if !strings.Contains(raw, field) {
			t.Errorf("--json does not carry %s", field)
		}
	}
}
