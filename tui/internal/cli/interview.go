package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const interviewUsage = `usage: tui interview [--prompt NAME] [--width 80] [--json]

Prints the plan of the timed mock interview (chapter 07): each design
question, and for each phase of the 15-minute skeleton its minutes, what the
interviewer asks and the points a strong answer covers (with the chapter that
teaches each). The interactive course runs it on a clock: tui, then M.

  --prompt NAME  only one question: %s
  --width W      wrap at W columns, 40 to 200 (default 80)
  --json         the plan as JSON instead:
                 {"minutes":15,"prompts":[{"name","title","ask","phases":[
                   {"title","minutes","questions":[…],"checklist":[{"point","chapter"}]}]}]}
`

// The JSON shape of `interview --json`.
type (
	interviewPlan struct {
		Minutes int               `json:"minutes"`
		Prompts []interviewPrompt `json:"prompts"`
	}
	interviewPrompt struct {
		Name   string           `json:"name"`
		Title  string           `json:"title"`
		Ask    string           `json:"ask"`
		Phases []interviewPhase `json:"phases"`
	}
	interviewPhase struct {
		Title     string           `json:"title"`
		Minutes   int              `json:"minutes"`
		Questions []string         `json:"questions"`
		Checklist []interviewPoint `json:"checklist"`
	}
	interviewPoint struct {
		Point   string `json:"point"`
		Chapter string `json:"chapter"`
	}
)

// mockPlan is the plan of the prompts given (all when names is empty).
func mockPlan(prompts []interview.Prompt) interviewPlan {
	plan := interviewPlan{Minutes: interview.SkeletonMinutes()}
	for _, p := range prompts {
		ip := interviewPrompt{Name: p.Name, Title: p.Title, Ask: p.Ask}
		for i, ph := range p.Phases {
			step := interview.Skeleton[min(i, len(interview.Skeleton)-1)]
			iph := interviewPhase{Title: step.Title, Minutes: step.Minutes, Questions: ph.Questions}
			for _, pt := range ph.Checklist {
				iph.Checklist = append(iph.Checklist, interviewPoint{Point: pt.Text, Chapter: pt.Chapter})
			}
			ip.Phases = append(ip.Phases, iph)
		}
		plan.Prompts = append(plan.Prompts, ip)
	}
	return plan
}

// runInterview prints the mock interview's plan.
func runInterview(args []string, stdout, stderr io.Writer) int {
	var name string
	width, asJSON := 80, false
	accept := "one of " + strings.Join(interview.MockNames(), ", ")
	c := newCLIFlags("interview")
	c.str("prompt", accept, &name)
	c.integer("width", "an integer from 40 to 200", &width)
	c.boolean("json", &asJSON)
	err := c.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, interviewUsage, strings.Join(interview.MockNames(), ", "))
		return 0
	}
	if err == nil && (width < 40 || width > 200) {
		err = core.BadParam("width", width, "an integer from 40 to 200")
	}
	prompts := interview.Mock
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
	plan := mockPlan(prompts)
	if asJSON {
		out, _ := json.Marshal(plan)
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	print := func(lines []string) {
		for _, l := range lines {
			fmt.Fprintln(stdout, l)
		}
	}
	print(text.WrapHanging(fmt.Sprintf("Mock interview: %d minutes in %d phases. Answer aloud, on the clock; "+
		"tick the points you covered.", plan.Minutes, len(interview.Skeleton)), width, "", ""))
	for _, p := range plan.Prompts {
		fmt.Fprintln(stdout)
		print(text.WrapHanging(fmt.Sprintf("%s (%s): %s", p.Title, p.Name, p.Ask), width, "", "  "))
		for i, ph := range p.Phases {
			fmt.Fprintln(stdout)
			print(text.WrapHanging(fmt.Sprintf("%d. %s (%d min)", i+1, ph.Title, ph.Minutes), width, "  ", "     "))
			for _, q := range ph.Questions {
				print(text.WrapHanging("asks: "+q, width, "     ", "           "))
			}
			for _, pt := range ph.Checklist {
				print(text.WrapHanging(fmt.Sprintf("[ ] %s (ch %s)", pt.Point, pt.Chapter), width, "     ", "         "))
			}
		}
	}
	return 0
}
