package cli

import interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"

// What `interview --json` adds on the 45-minute form for judging an answer
// rather than its coverage: per prompt, its two risks and the
// requirement-change turn (each phase carries its own lean and strong
// versions); per plan, chapter 07's rubric by behaviour.
type (
	riskOut struct {
		Name string `json:"name"`
		Why  string `json:"why"`
	}
	changeOut struct {
		Change string `json:"change"` // what the interviewer says
		Lean   string `json:"lean"`
		Strong string `json:"strong"` // the visible redesign
	}
)

// addLeanStrong fills ip's risks, its change turn and each phase's lean
// and strong versions, matched to the phases by title.
func addLeanStrong(ip *interviewPrompt) {
	ls, ok := interview.LeanStrong(ip.Name)
	if !ok {
		return
	}
	for _, r := range ls.Risks {
		ip.Risks = append(ip.Risks, riskOut{r.Name, r.Why})
	}
	ip.Change = &changeOut{ls.Change.Phase, ls.Change.Lean, ls.Change.Strong}
	for i := range ip.Phases {
		for _, v := range ls.Phases {
			if v.Phase == ip.Phases[i].Title {
				ip.Phases[i].Lean, ip.Phases[i].Strong = v.Lean, v.Strong
			}
		}
	}
}
