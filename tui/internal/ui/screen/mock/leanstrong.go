package mock

import (
	"fmt"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// Between phases the review shows, before the worked answer, what a lean
// hire and a strong hire say in the phase just played (chapter 07's
// interview.LeanStrong): the strong one is the shorter, and that is the
// lesson. The wrap-up adds the turn where the interviewer changes a
// requirement, and the deep dives open on the prompt's two risks.

// leanStrongMarkdown is that panel for phase (a Track phase) of the prompt
// named prompt, as Markdown; "" when chapter 07 has no versions for it.
func leanStrongMarkdown(prompt string, phase int) string {
	ls, ok := interview.LeanStrong(prompt)
	if !ok || phase < 0 || phase >= len(ls.Phases) {
		return ""
	}
	var b strings.Builder
	if phase == deepDives {
		var names []string
		for _, r := range ls.Risks {
			names = append(names, r.Name)
		}
		fmt.Fprintf(&b, "**The two risks here:** %s.\n\n", strings.Join(names, "; "))
	}
	v := ls.Phases[phase]
	fmt.Fprintf(&b, "**Lean hire:** %s\n\n**Strong hire:** %s\n\n", v.Lean, v.Strong)
	if phase == len(ls.Phases)-1 && ls.Change.Strong != "" {
		c := ls.Change
		fmt.Fprintf(&b, "**The interviewer changes a requirement:** %s\n\n**Lean hire:** %s\n\n**Strong hire:** %s\n\n", c.Phase, c.Lean, c.Strong)
	}
	return b.String()
}
