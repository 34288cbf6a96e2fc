package cli

import (
	"fmt"
	"io"

	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ready"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const progressUsage = `usage: tui progress [--json]

Prints what the saved progress says about being ready: for each topic (the
drill's chapters) the cards answered, the share got on the last try, and the
last mock's points on it that you said; how far each study plan has come;
and the next three things to review, each with where to find it. The course
saves as you go (the drill, the mock, the plans); tui --reset-progress
forgets it. In the course: tui, then Y.

  --json    the same as JSON:
            {"topics":[{"chapter","title","cards","answered","got","hit_rate",
               "mock_points","mock_ticked"}],"mocks",
             "plans":[{"id","title","steps","done","minutes","done_minutes",
               "steps_done":[…]}],
             "review":[{"what","where","why"}]}
`

func runProgress(args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	c := newCLIFlags("progress")
	c.boolean("json", &asJSON)
	if code, ok := c.parseAll(args, stdout, stderr, progressUsage); !ok {
		return code
	}
	st, note := progress.Load()
	if note != "" {
		fmt.Fprintln(stderr, note)
	}
	r := ready.Of(st.P)
	if asJSON {
		writeJSON(stdout, r)
		return 0
	}
	writeReady(stdout, r, 80)
	return 0
}

// writeReady prints the report for people.
func writeReady(w io.Writer, r ready.Report, width int) {
	fmt.Fprintf(w, "Ready? %s finished\n\n", text.Count(r.Mocks, "mock interview"))
	fmt.Fprintln(w, ready.TopicHeader)
	for _, t := range r.Topics {
		fmt.Fprintln(w, t.Row())
	}
	fmt.Fprintln(w, "\nPlans")
	for _, p := range r.Plans {
		fmt.Fprintf(w, "  %-12s %d of %d steps done, %d of %d minutes\n", p.Title, p.Done, p.Steps, p.DoneMinutes, p.Minutes)
	}
	fmt.Fprintln(w, "\nReview next")
	for i, v := range r.Review {
		for _, l := range text.WrapHanging(v.What, width, fmt.Sprintf("  %d. ", i+1), "     ") {
			fmt.Fprintln(w, l)
		}
		writeWhere(w, v.Where, "     where ", width)
		for _, l := range text.WrapHanging(v.Why, width, "     why   ", "           ") {
			fmt.Fprintln(w, l)
		}
	}
}
