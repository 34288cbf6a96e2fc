package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const interviewUsage = `usage: tui interview [--prompt NAME] [--short] [--width 80] [--json]

Prints the plan of the timed mock interview (chapter 07): each design
question, and for each phase of the 45-minute track its minutes, what to say
first and draw, what the interviewer asks and the points a strong answer
covers (with the chapter that teaches each); the pushbacks the interviewer
throws, each in its phase, with what a strong answer contains, the chapter
and the test that prove it; and the bank of deep dives the interviewer draws
two from (here the first two run). The interactive course runs it on a
clock: tui, then M.

  --prompt NAME  only one question: %s
  --short        the 15-minute short form instead (four phases, no pushback)
  --width W      wrap at W columns, 40 to 200 (default 80)
  --json         the plan as JSON instead:
                 {"form":"45-minute","minutes":45,"prompts":[{"name","title","ask",
                   "phases":[{"title","minutes","say_first","draw","model_answer","lean","strong","questions":[…],
                     "checklist":[{"point","chapter"}],"pushback":[id…]}],
                   "pushback":[{"id","prompt","strong":[…],"chapter","proof","card","phase"}],
                   "dives":[{"id","title","questions":[…],"checklist":[…],"card"}],
                   "worked_answer":"…","rubric":[{"phase","senior","staff"}],
                   "risks":[{"name","why"}],"requirement_change":{"change","lean","strong"}}],
                 "scoring":{"levels":[…],"dimensions":[{"id","title","weight","across",
                   "anchors":{"no_hire","lean_hire","hire","strong_hire"}}],
                   "phases":[{"phase","weights":{id:weight}}],
                   "red_flags":[{"id","behaviour","why","chapter"}],"pushback":{"what","anchors"}}}
                 worked_answer is a staff-level answer in Markdown, one "## "
                 heading per phase; rubric says per phase what a senior answer
                 does and what a staff answer adds; lean and strong are what a
                 lean hire and a strong hire say in the phase; scoring is the
                 rubric by behaviour, weights of 100
                 (--short: "form":"15-minute", "minutes":15, no say_first, draw,
                 pushback, dives, worked_answer, rubric, lean, strong, risks,
                 requirement_change nor scoring)
`

// The JSON shape of `interview --json`.
type (
	interviewPlan struct {
		Form    string             `json:"form"` // "45-minute" or "15-minute"
		Minutes int                `json:"minutes"`
		Prompts []interviewPrompt  `json:"prompts"`
		Scoring *interview.Scoring `json:"scoring,omitempty"` // the rubric by behaviour (45-minute form)
	}
	interviewPrompt struct {
		Name     string           `json:"name"`
		Title    string           `json:"title"`
		Ask      string           `json:"ask"`
		Phases   []interviewPhase `json:"phases"`
		Pushback []interviewPush  `json:"pushback,omitempty"`
		Dives    []interviewDive  `json:"dives,omitempty"`
		// The staff-level worked answer (Markdown, one "## " heading per
		// phase of the track) and the senior-vs-staff rubric per phase:
		// the 45-minute form only, whose phases they follow.
		WorkedAnswer string         `json:"worked_answer,omitempty"`
		Rubric       []rubricRowOut `json:"rubric,omitempty"`
		// The two risks a strong answer prioritises and the turn where the
		// interviewer changes a requirement (interview_judgment.go).
		Risks  []riskOut  `json:"risks,omitempty"`
		Change *changeOut `json:"requirement_change,omitempty"`
	}
	rubricRowOut struct {
		Phase  string `json:"phase"`
		Senior string `json:"senior"`
		Staff  string `json:"staff"`
	}
	interviewDive struct {
		ID        string           `json:"id"`
		Title     string           `json:"title"`
		Questions []string         `json:"questions"`
		Checklist []interviewPoint `json:"checklist"`
		Card      string           `json:"card"`
	}
	interviewPhase struct {
		Title    string `json:"title"`
		Minutes  int    `json:"minutes"`
		SayFirst string `json:"say_first,omitempty"`
		Draw     string `json:"draw,omitempty"`
		// ModelAnswer is this phase of the worked answer (45-minute form).
		ModelAnswer string `json:"model_answer,omitempty"`
		// What a lean hire and a strong hire say in this phase (45-minute form).
		Lean      string           `json:"lean,omitempty"`
		Strong    string           `json:"strong,omitempty"`
		Questions []string         `json:"questions"`
		Checklist []interviewPoint `json:"checklist"`
		Pushback  []string         `json:"pushback,omitempty"` // ids thrown in this phase
	}
	interviewPoint struct {
		Point   string `json:"point"`
		Chapter string `json:"chapter"`
	}
	interviewPush struct {
		ID      string   `json:"id"`
		Prompt  string   `json:"prompt"`
		Strong  []string `json:"strong"`
		Chapter string   `json:"chapter"`
		Proof   string   `json:"proof"`
		Card    string   `json:"card"`
		Phase   int      `json:"phase"` // the phase it is thrown in, from 1
	}
)

// mockPlan is the plan of the prompts given: the 45-minute track with its
// pushbacks, or (short) the 15-minute skeleton.
func mockPlan(prompts []interview.Prompt, short bool) interviewPlan {
	scoring := interview.Behaviour()
	plan := interviewPlan{Form: "45-minute", Minutes: interview.TrackMinutes(), Scoring: &scoring}
	if short {
		plan = interviewPlan{Form: "15-minute", Minutes: interview.SkeletonMinutes()}
	}
	for _, p := range prompts {
		ip := interviewPrompt{Name: p.Name, Title: p.Title, Ask: p.Ask}
		phases := p.Phases
		if !short {
			phases = interview.LongForm(p)
		}
		for i, ph := range phases {
			var iph interviewPhase
			if short {
				step := interview.Skeleton()[min(i, len(interview.Skeleton())-1)]
				iph = interviewPhase{Title: step.Title, Minutes: step.Minutes}
			} else {
				step := interview.Track()[min(i, len(interview.Track())-1)]
				iph = interviewPhase{Title: step.Title, Minutes: step.Minutes, SayFirst: step.SayFirst, Draw: step.Draw,
					ModelAnswer: interview.WorkedPhase(p.Name, i)}
			}
			iph.Questions = ph.Questions
			for _, pt := range ph.Checklist {
				iph.Checklist = append(iph.Checklist, interviewPoint{Point: pt.Text, Chapter: pt.Chapter})
			}
			for _, q := range ph.Pushback {
				iph.Pushback = append(iph.Pushback, q.ID)
			}
			ip.Phases = append(ip.Phases, iph)
		}
		if !short {
			for _, q := range interview.PushbackFor(p) {
				ip.Pushback = append(ip.Pushback, interviewPush{q.ID, q.Prompt, q.Strong, q.Chapter, q.Proof, q.Card, q.Phase + 1})
			}
			for _, d := range interview.DivesFor(p) {
				id := interviewDive{ID: d.ID, Title: d.Title, Questions: d.Questions, Card: d.Card}
				for _, pt := range d.Checklist {
					id.Checklist = append(id.Checklist, interviewPoint{Point: pt.Text, Chapter: pt.Chapter})
				}
				ip.Dives = append(ip.Dives, id)
			}
			ip.WorkedAnswer, _ = interview.WorkedAnswer(p.Name)
			for _, r := range interview.RubricFor(p.Name) {
				ip.Rubric = append(ip.Rubric, rubricRowOut{r.Phase, r.Senior, r.Staff})
			}
			addLeanStrong(&ip)
		}
		plan.Prompts = append(plan.Prompts, ip)
	}
	return plan
}

// runInterview prints the mock interview's plan.
func runInterview(args []string, stdout, stderr io.Writer) int {
	var name string
	width, asJSON, short := 80, false, false
	accept := "one of " + strings.Join(interview.MockNames(), ", ")
	c := newCLIFlags("interview")
	c.str("prompt", accept, &name)
	c.integer("width", "an integer from 40 to 200", &width)
	c.boolean("json", &asJSON)
	c.boolean("short", &short)
	err := c.parse(args)
	if isHelp(err) {
		fmt.Fprintf(stdout, interviewUsage, strings.Join(interview.MockNames(), ", "))
		return 0
	}
	if err == nil && (width < 40 || width > 200) {
		err = core.BadParam("width", width, "an integer from 40 to 200")
	}
	prompts := interview.Mock()
	if err == nil && c.isSet("prompt") {
		p, ok := interview.MockPrompt(name)
		if !ok {
			err = core.BadParam("prompt", strconv.Quote(name), accept)
		}
		prompts = []interview.Prompt{p}
	}
	if err != nil {
		return badInput(stderr, "interview", err)
	}
	plan := mockPlan(prompts, short)
	if asJSON {
		writeJSON(stdout, plan)
		return 0
	}
	w := wrapper{out: stdout, width: width}
	intro := "Mock interview, the 45-minute track: %d minutes in %d phases, with pushback in each after the first. " +
		"Answer aloud, on the clock; tick the points you covered."
	if short {
		intro = "Mock interview, the 15-minute short form: %d minutes in %d phases. " +
			"Answer aloud, on the clock; tick the points you covered."
	}
	w.print(fmt.Sprintf(intro, plan.Minutes, len(plan.Prompts[0].Phases)), "", "")
	for _, p := range plan.Prompts {
		w.prompt(p)
	}
	return 0
}

// wrapper prints the plan as text wrapped to a width.
type wrapper struct {
	out   io.Writer
	width int
}

// print wraps s with the first line's indent and the following lines'.
func (w wrapper) print(s, first, rest string) {
	for _, l := range text.WrapHanging(s, w.width, first, rest) {
		fmt.Fprintln(w.out, l)
	}
}

// prompt prints one question: its phases with what to say, draw, be asked
// and cover, then its deep dives and its pushback.
func (w wrapper) prompt(p interviewPrompt) {
	fmt.Fprintln(w.out)
	w.print(fmt.Sprintf("%s (%s): %s", p.Title, p.Name, p.Ask), "", "  ")
	for i, ph := range p.Phases {
		fmt.Fprintln(w.out)
		w.print(fmt.Sprintf("%d. %s (%d min)", i+1, ph.Title, ph.Minutes), "  ", "     ")
		if ph.SayFirst != "" {
			w.print("say first: "+ph.SayFirst, "     ", "           ")
			w.print("draw: "+ph.Draw, "     ", "           ")
		}
		for _, q := range ph.Questions {
			w.print("asks: "+q, "     ", "           ")
		}
		for _, pt := range ph.Checklist {
			w.print(fmt.Sprintf("[ ] %s (ch %s)", pt.Point, pt.Chapter), "     ", "         ")
		}
	}
	if len(p.Dives) > 0 {
		fmt.Fprintln(w.out)
		w.print("Deep dives the interviewer draws two from (the weakest of your drill first, else at random):", "  ", "  ")
		for _, d := range p.Dives {
			w.print(fmt.Sprintf("- %s (%s): %s", d.Title, d.ID, strings.Join(d.Questions, " ")), "  ", "    ")
		}
	}
	if len(p.Pushback) > 0 {
		fmt.Fprintln(w.out)
		w.print("Pushback, one at a time, in the phase named:", "  ", "  ")
		for i, q := range p.Pushback {
			w.print(fmt.Sprintf("%d. (phase %d) \"%s\"", i+1, q.Phase, q.Prompt), "  ", "     ")
			for _, st := range q.Strong {
				w.print("- "+st, "     ", "       ")
			}
			w.print(fmt.Sprintf("proof: ch %s, %s; card %s", q.Chapter, q.Proof, q.Card), "     ", "       ")
		}
	}
}
