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
	scoringOut struct {
		Levels     []string           `json:"levels"`
		Dimensions []dimensionOut     `json:"dimensions"`
		Phases     []phaseWeightsOut  `json:"phases"`
		RedFlags   []redFlagOut       `json:"red_flags"`
		Pushback   pushbackScoringOut `json:"pushback"`
	}
	dimensionOut struct {
		ID      string            `json:"id"`
		Title   string            `json:"title"`
		Weight  int               `json:"weight"` // of 100
		Across  bool              `json:"across,omitempty"`
		Anchors interview.Anchors `json:"anchors"`
	}
	phaseWeightsOut struct {
		Phase   string         `json:"phase"`
		Weights map[string]int `json:"weights"` // dimension id → weight of 100
	}
	redFlagOut struct {
		ID        string `json:"id"`
		Behaviour string `json:"behaviour"`
		Why       string `json:"why"`
		Chapter   string `json:"chapter"`
	}
	pushbackScoringOut struct {
		What    string            `json:"what"`
		Anchors interview.Anchors `json:"anchors"`
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

// scoringPlan is chapter 07's rubric by behaviour, as JSON.
func scoringPlan() *scoringOut {
	s := interview.Behaviour()
	out := &scoringOut{Levels: s.Levels, Pushback: pushbackScoringOut{s.Pushback.What, s.Pushback.Anchors}}
	for _, d := range s.Dimensions {
		out.Dimensions = append(out.Dimensions, dimensionOut{d.ID, d.Title, d.Weight, d.Across, d.Anchors})
	}
	for _, p := range s.Phases {
		out.Phases = append(out.Phases, phaseWeightsOut{p.Phase, p.Weights})
	}
	for _, f := range s.RedFlags {
		out.RedFlags = append(out.RedFlags, redFlagOut{f.ID, f.Behaviour, f.Why, f.Chapter})
	}
	return out
}
