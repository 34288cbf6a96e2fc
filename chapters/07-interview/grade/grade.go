// Package grade reads what a candidate wrote in each phase of a mock
// interview and says which of the phase's points the notes show (with the
// words that showed each), which they miss, which red flags they contain,
// and a score. It knows no language model: each point carries its ideas as
// data (data/mock.yaml's ideas, each with its phrasings), red flags sit in
// data/redflags.yaml, and the matching is words after a light
// normalisation (text.go, words.go, match.go), so every verdict can be
// traced to the words that made it.
//
// A point said in a sentence with a verb counts fully; the same ideas in
// a bare list of keywords count half: an interviewer hears a list as
// vocabulary, not as a design.
package grade

import (
	"fmt"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// Shown is a point the notes show.
type Shown struct {
	Point   string   `json:"point"`
	Chapter string   `json:"chapter"`
	Words   []string `json:"words"`  // per idea, the words of the notes that said it
	Credit  float64  `json:"credit"` // 1 said in sentences, 0.5 only in a list of keywords
}

// Missed is a point the notes do not show.
type Missed struct {
	Point   string `json:"point"`
	Chapter string `json:"chapter"`
}

// Phase is one phase's feedback.
type Phase struct {
	Title  string   `json:"title"`
	Shown  []Shown  `json:"shown"`
	Missed []Missed `json:"missed"`
	Flags  []Found  `json:"red_flags"`
	Score  float64  `json:"score"` // the credits over the points, 0 to 1
}

// Points is how many points the phase has.
func (p Phase) Points() int { return len(p.Shown) + len(p.Missed) }

// Result is the feedback on a whole mock.
type Result struct {
	Prompt string  `json:"prompt"`
	Form   string  `json:"form"` // "15-minute" or "45-minute"
	Phases []Phase `json:"phases"`
	Score  float64 `json:"score"` // the credits over all points, 0 to 1
}

// Shown is how many points the notes show, in all phases.
func (r Result) Shown() int {
	n := 0
	for _, p := range r.Phases {
		n += len(p.Shown)
	}
	return n
}

// Points is how many points the mock has.
func (r Result) Points() int {
	n := 0
	for _, p := range r.Phases {
		n += p.Points()
	}
	return n
}

// Flags are the red flags found in all phases.
func (r Result) Flags() []Found {
	var out []Found
	for _, p := range r.Phases {
		out = append(out, p.Flags...)
	}
	return out
}

// The forms of a mock, as the transcript names them.
const (
	ShortForm = "15-minute"
	LongForm  = "45-minute"
)

// Notes grades the notes of a mock of the named prompt: notes[i] is what
// was written in phase i (missing phases count as empty). short picks the
// 15-minute form (the Skeleton's four phases); otherwise the 45-minute
// track with its first deep dives.
func Notes(prompt string, short bool, notes []string) (Result, error) {
	p, ok := interview.MockPrompt(prompt)
	if !ok {
		return Result{}, fmt.Errorf("no mock prompt %q (one of %v)", prompt, interview.MockNames())
	}
	if short {
		return Phases(prompt, ShortForm, p.Phases, notes), nil
	}
	return Phases(prompt, LongForm, interview.LongForm(p), notes), nil
}

// Phases grades notes against the phases as the app ran them (the deep
// dives it drew included): notes[i] belongs to phases[i].
func Phases(prompt, form string, phases []interview.MockPhase, notes []string) Result {
	r := Result{Prompt: prompt, Form: form}
	titles := phaseTitles(form, len(phases))
	credits, points := 0.0, 0
	for i, ph := range phases {
		text := ""
		if i < len(notes) {
			text = notes[i]
		}
		gp := gradePhase(ph.Checklist, read(text))
		gp.Title = titles[i]
		for j := range gp.Flags {
			gp.Flags[j].Phase = i + 1
		}
		for _, s := range gp.Shown {
			credits += s.Credit
		}
		points += gp.Points()
		r.Phases = append(r.Phases, gp)
	}
	if points > 0 {
		r.Score = credits / float64(points)
	}
	return r
}

// phaseTitles are the titles of n phases of the form.
func phaseTitles(form string, n int) []string {
	out := make([]string, n)
	if form == ShortForm {
		for i, s := range interview.Skeleton() {
			if i < n {
				out[i] = s.Title
			}
		}
	} else {
		for i, t := range interview.Track() {
			if i < n {
				out[i] = t.Title
			}
		}
	}
	for i := range out {
		if out[i] == "" {
			out[i] = fmt.Sprintf("Phase %d", i+1)
		}
	}
	return out
}

// gradePhase is one phase's feedback on its sentences.
func gradePhase(checklist []interview.Point, ss []sentence) Phase {
	var p Phase
	credits := 0.0
	for _, pt := range checklist {
		c, ws := best(pointIdeas(pt), ss)
		if c == 0 {
			p.Missed = append(p.Missed, Missed{Point: pt.Text, Chapter: pt.Chapter})
			continue
		}
		credits += c
		p.Shown = append(p.Shown, Shown{Point: pt.Text, Chapter: pt.Chapter, Words: ws, Credit: c})
	}
	if n := p.Points(); n > 0 {
		p.Score = credits / float64(n)
	}
	p.Flags = findFlags(ss)
	return p
}

// pointIdeas are a point's ideas: its data's, or its cue alone.
func pointIdeas(pt interview.Point) []idea {
	lines := pt.Ideas
	if len(lines) == 0 {
		lines = []string{pt.Cue}
	}
	out := make([]idea, 0, len(lines))
	for _, l := range lines {
		if id := parseIdea(l); len(id.alts) > 0 {
			out = append(out, id)
		}
	}
	return out
}
