package mock

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The review of every phase of every prompt opens on chapter 07's lean and
// strong versions of it, before the worked answer; the deep dives name the
// two risks and the wrap-up carries the requirement-change turn.
func TestReviewShowsLeanAndStrong(t *testing.T) {
	for _, p := range interview.Mock() {
		ls, ok := interview.LeanStrong(p.Name)
		if !ok || len(ls.Phases) != len(interview.Track()) {
			t.Fatalf("%s: no lean and strong versions", p.Name)
		}
		for i, v := range ls.Phases {
			got := strongAnswer(p.Name, i)
			lean, strong := strings.Index(got, v.Lean), strings.Index(got, v.Strong)
			worked := strings.Index(got, strings.SplitN(interview.WorkedPhase(p.Name, i), "\n", 2)[0])
			if lean < 0 || strong < lean || worked < strong {
				t.Errorf("%s phase %d: lean at %d, strong at %d, worked answer at %d: want them in that order", p.Name, i, lean, strong, worked)
			}
			hasRisks := strings.Contains(got, "**The two risks here:** "+ls.Risks[0].Name)
			hasChange := strings.Contains(got, ls.Change.Strong)
			if hasRisks != (i == deepDives) || hasChange != (i == len(ls.Phases)-1) {
				t.Errorf("%s phase %d: risks shown %v, change shown %v", p.Name, i, hasRisks, hasChange)
			}
		}
	}
	for _, c := range []struct {
		prompt string
		phase  int
	}{{"no-such-prompt", 0}, {"login", -1}, {"login", len(interview.Track())}} {
		if got := leanStrongMarkdown(c.prompt, c.phase); got != "" {
			t.Errorf("leanStrongMarkdown(%q, %d) = %q, want nothing", c.prompt, c.phase, got)
		}
	}
}
