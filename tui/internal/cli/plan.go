package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const planUsage = `usage: tui plan [--id evening|week] [--json]

Prints the course's study plans: one evening (at most 150 minutes, each
phase of the 45-minute track, then the 15-minute mock) and one week (every
chapter and its exercises). Each step says what to do, where (a README
anchor, the app's key, a make target), its minutes and what you can say
after it. Reading minutes are the section's words at 200 a minute. In the
course: tui, then G; tui progress says which steps are done.

  --id ID   only one plan: evening or week
  --json    the plans as JSON instead:
            {"plans":[{"id","title","minutes",
              "steps":[{"id","kind","chapter","what","where","minutes"}]}]}
`

// The JSON shape of `plan --json` (SPEC §6): a plan's minutes are the sum
// of its steps'.
type (
	planJSON struct {
		ID      string         `json:"id"`
		Title   string         `json:"title"`
		Minutes int            `json:"minutes"`
		Steps   []planStepJSON `json:"steps"`
	}
	planStepJSON struct {
		ID      string `json:"id"`
		Kind    string `json:"kind"`
		Chapter string `json:"chapter"`
		What    string `json:"what"`
		Where   string `json:"where"`
		Minutes int    `json:"minutes"`
	}
)

func runPlan(args []string, stdout, stderr io.Writer) int {
	var id string
	var asJSON bool
	c := newCLIFlags("plan")
	c.str("id", "evening or week", &id)
	c.boolean("json", &asJSON)
	err := c.parse(args)
	if isHelp(err) {
		fmt.Fprint(stdout, planUsage)
		return 0
	}
	plans := plan.Plans()
	if err == nil && id != "" {
		p, ok := plan.ByID(id)
		if !ok {
			err = core.BadParam("id", quoteValue(id), "evening or week")
		}
		plans = []plan.Plan{p}
	}
	if err != nil {
		return badInput(stderr, "plan", err)
	}
	if asJSON {
		out := struct {
			Plans []planJSON `json:"plans"`
		}{}
		for _, p := range plans {
			pj := planJSON{ID: p.ID, Title: p.Title, Minutes: p.Minutes()}
			for _, s := range p.Steps {
				pj.Steps = append(pj.Steps, planStepJSON{s.ID, string(s.Kind), plan.ChapterID(s.Chapter), s.What, s.Where(), s.Minutes})
			}
			out.Plans = append(out.Plans, pj)
		}
		writeJSON(stdout, out)
		return 0
	}
	for i, p := range plans {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writePlan(stdout, p, 80)
	}
	return 0
}

// writePlan prints a plan for people: a heading, then each step with its
// minutes, where to find it and what it lets the candidate say.
func writePlan(w io.Writer, p plan.Plan, width int) {
	fmt.Fprintf(w, "%s · %d minutes · %d steps\n", p.Title, p.Minutes(), len(p.Steps))
	for _, l := range text.Wrap(p.Intro, width) {
		fmt.Fprintln(w, l)
	}
	const pad = "              "
	for _, s := range p.Steps {
		fmt.Fprintln(w)
		lead := fmt.Sprintf("%-4s %3d min  ", s.ID, s.Minutes)
		for _, l := range text.WrapHanging(fmt.Sprintf("[%s %s] %s", plan.ChapterID(s.Chapter), s.Kind, s.What), width, lead, pad) {
			fmt.Fprintln(w, l)
		}
		writeWhere(w, s.Where(), pad+"where ", width)
		for _, l := range text.WrapHanging(s.Say, width, pad+"say   ", pad+"      ") {
			fmt.Fprintln(w, strings.TrimRight(l, " "))
		}
	}
}

// writeWhere prints a place after its lead, wrapped at spaces only and
// each line at the lead's indent: an anchor too long for the line after
// the lead is cut before its '#', the file on the lead's line and the
// heading's part under it, each whole so that it can be copied.
func writeWhere(w io.Writer, where, lead string, width int) {
	if file, anchor, ok := strings.Cut(where, "#"); ok && !strings.Contains(where, " ") && len(lead)+len(where) > width {
		fmt.Fprintln(w, lead+file)
		fmt.Fprintln(w, strings.Repeat(" ", len(lead))+"#"+anchor)
		return
	}
	for _, l := range text.WrapHanging(where, width, lead, strings.Repeat(" ", len(lead))) {
		fmt.Fprintln(w, l)
	}
}
