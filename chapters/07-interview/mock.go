package interview

import "slices"

// A mock interview runs the Skeleton against one design question: the
// interviewer states a prompt, and each of the four phases has the
// follow-up questions an interviewer asks in it and the points a strong
// answer covers. The points are the course's own: each names the chapter
// that teaches it and a cue, a phrase that chapter's README or drill cards
// use, so a test can tell a point the course makes from one it does not.

// Point is one item of a phase's checklist.
type Point struct {
	Text    string `yaml:"text"`    // what a strong answer says, in a line
	Chapter string `yaml:"chapter"` // "01" … "09": where the course teaches it
	Cue     string `yaml:"cue"`     // a phrase of that chapter's README or drill cards
	// Ideas are what counts as saying the point, for the grade package:
	// each idea lists its phrasings separated by "|", and the point is
	// shown when every idea is said. None: the cue is the one idea.
	Ideas []string `yaml:"ideas,omitempty"`
}

// MockPhase is what happens in one step of the Skeleton, or of the Track
// (LongForm), where the interviewer also pushes back.
type MockPhase struct {
	Questions []string `yaml:"questions"` // what the interviewer asks, in order
	Checklist []Point  `yaml:"checklist"` // what a strong answer covers
	Pushback  []Push   `yaml:"-"`         // thrown in this phase (the track only), in order
}

// Prompt is one design question of the mock interview. Phases[i] belongs to
// Skeleton[i]: the same four steps, timed by Skeleton[i].Minutes. On the
// 45-minute track (Track, LongForm) the same content runs longer: the
// deep dives are drawn from the prompt's bank (Dives), and the interviewer
// pushes back in each phase after the introduction (each Push names its
// phase).
type Prompt struct {
	Name     string      `yaml:"name"`     // short id for the command line, e.g. "per-user-api"
	Title    string      `yaml:"title"`    // a few words
	Ask      string      `yaml:"ask"`      // what the interviewer says first
	Phases   []MockPhase `yaml:"phases"`   // one per step of the Skeleton
	Pushback []string    `yaml:"pushback"` // ids into Pushback, in the order thrown (PushbackFor)
	Dives    []string    `yaml:"dives"`    // its deep-dive bank: DiveAlgorithm, DiveFailure and ids into Dives
}

// Mock is the mock interview's question bank, from data/mock.yaml: a deep
// copy, so a caller's changes stay its own.
func Mock() []Prompt {
	out := make([]Prompt, len(loaded.mock))
	for i, p := range loaded.mock {
		out[i] = p.clone()
	}
	return out
}

// clone is p with slices of its own.
func (p Prompt) clone() Prompt {
	p.Pushback, p.Dives = slices.Clone(p.Pushback), slices.Clone(p.Dives)
	p.Phases = slices.Clone(p.Phases)
	for i, ph := range p.Phases {
		p.Phases[i] = MockPhase{Questions: slices.Clone(ph.Questions), Checklist: clonePoints(ph.Checklist), Pushback: slices.Clone(ph.Pushback)}
	}
	return p
}

// clonePoints is a checklist with slices of its own.
func clonePoints(pts []Point) []Point {
	out := slices.Clone(pts)
	for i := range out {
		out[i].Ideas = slices.Clone(out[i].Ideas)
	}
	return out
}

// MockPrompt finds a prompt by name.
func MockPrompt(name string) (Prompt, bool) {
	for _, p := range loaded.mock {
		if p.Name == name {
			return p.clone(), true
		}
	}
	return Prompt{}, false
}

// MockNames lists the prompts' names, for messages.
func MockNames() []string {
	names := make([]string, len(loaded.mock))
	for i, p := range loaded.mock {
		names[i] = p.Name
	}
	return names
}

// ShortForm is the prompt run in the 15-minute form: its phases, one per
// Skeleton step, each with the pushback of the track's phases the step
// names (Step.PushbackFrom), in the prompt's order.
func ShortForm(p Prompt) []MockPhase {
	phases := p.clone().Phases
	for _, q := range PushbackFor(p) {
		for i, s := range loaded.skeleton {
			if i < len(phases) && slices.Contains(s.PushbackFrom, q.Phase) {
				phases[i].Pushback = append(phases[i].Pushback, q)
			}
		}
	}
	return phases
}

// LongForm is the prompt run on the 45-minute track with the first two
// dives of its bank; LongFormWith chooses them.
func LongForm(p Prompt) []MockPhase { return LongFormWith(p, nil) }

// LongFormWith is the prompt run on the 45-minute track: LongFormWith(p,
// dives)[i] belongs to Track[i] and is timed by Track[i].Minutes. The
// introduction restates the question; requirements keep the short form's
// first phase and ask for the limiter's own targets; the design adds the
// API's shape and the drawn request path to sharing the state; the deep
// dives are the ones named (ids of DivesFor(p); none named: the first
// DivesRun); the wrap-up closes with the candidate's questions. Each of
// the prompt's pushbacks is thrown in the phase it names.
func LongFormWith(p Prompt, dives []string) []MockPhase {
	if len(p.Phases) != len(loaded.skeleton) {
		return nil
	}
	intro := MockPhase{
		Questions: []string{"Tell me in a minute who you are; then, here is the question. How will you go about it?"},
		Checklist: []Point{
			{Text: "Restate the question in one sentence, in your own words", Chapter: "07", Cue: "restate the question",
				Ideas: []string{"question | prompt | asked | say it back | restate | in one sentence | so we need | let me say | so the task"}},
			{Text: "Say the four questions you will settle before any algorithm: the key, the traffic's shape, shared state, placement", Chapter: "01", Cue: "four questions",
				Ideas: []string{"who is the user | whom do we count | what do we count | key by | the key | a user could be | which key | identity", "burst | hard cap | shape | per minute | a rate | window | cost"}},
			{Text: "Say how you will spend the 45 minutes, keeping time for the deep dives and your questions", Chapter: "07", Cue: "45-minute",
				Ideas: []string{"minutes | agenda | plan | spend our time | time", "deep dive | dives | questions | sum up | summary"}},
		},
	}
	reqs := MockPhase{
		Questions: append(append([]string{}, p.Phases[0].Questions...),
			"What latency, availability and accuracy does the limiter itself promise?"),
		Checklist: append(append([]Point{}, p.Phases[0].Checklist...),
			Point{Text: "The limiter's own targets: a few ms at p99 added, availability above the API's, a stated bound on over-admission", Chapter: "07", Cue: "own targets",
				Ideas: []string{"own targets | its targets | limiter itself | the limiter's | slo | latency | p99 | availability", "millisecond | ms | 99.9 | availability | accurate | over-admission | p99"}}),
	}
	design := MockPhase{
		Questions: append([]string{
			"Where does the decision run: a library call, a middleware, a sidecar, or a service like Envoy's ShouldRateLimit? Choose one.",
			"Draw the request path: where does each limit live?"}, p.Phases[2].Questions...),
		Checklist: append([]Point{
			{Text: "Choose the API's shape and say what it costs: a library call or middleware (per node), a sidecar, or a decision service such as ShouldRateLimit(domain, descriptors, hits)", Chapter: "07", Cue: "sidecar",
				Ideas: []string{"~library | sidecar | middleware | limiter service | decision service | shouldratelimit | central service", "shouldratelimit | one call | descriptor | hop | round trip | cost | domain"}},
			{Text: "The request path drawn, client to Redis Cluster, with the limit each hop holds and its cost", Chapter: "07", Cue: "request path",
				Ideas: []string{"edge | gateway | waf | load balancer | proxy", "redis | cluster | shared store | limiter service | service"}},
		}, p.Phases[2].Checklist...),
	}
	bank := DivesFor(p)
	if len(dives) == 0 {
		for _, d := range bank[:min(DivesRun, len(bank))] {
			dives = append(dives, d.ID)
		}
	}
	var deep MockPhase
	for _, id := range dives {
		for _, d := range bank {
			if d.ID == id {
				deep.Questions = append(deep.Questions, d.Questions...)
				deep.Checklist = append(deep.Checklist, d.Checklist...)
			}
		}
	}
	wrap := MockPhase{
		Questions: []string{"Sum up your design in a minute: what does it give up?", "What would you like to ask me?"},
		Checklist: []Point{
			{Text: "Name the trade-offs out loud: approximate across regions, bounded over-admission after a failover, bursts by design", Chapter: "07", Cue: "trade-offs out loud",
				Ideas: []string{"gives up | give up | trade-off | tradeoff | accept | at the cost | what this costs | approximate", "region | failover | burst | exact | fairness | lost refund | best effort | stranded"}},
			{Text: "Say how you would know it works: the 429 rate per rule, the fail-open count, the store's p99", Chapter: "07", Cue: "fail-open count",
				Ideas: []string{"429 | rejection | rejected | decisions | challenge | 503", "per rule | per tier | per partner | p99 | fail-open count | fallback count | dashboard | alert | page | metric"}},
			{Text: "Ask your own questions: who owns the limits, the last incident, what they would change first", Chapter: "07", Cue: "your own questions",
				Ideas: []string{"who owns | owner | own the | ownership", "incident | last attack | last time | ever | taken down | support ticket | what would you change"}},
		},
	}
	phases := []MockPhase{intro, reqs, design, deep, wrap}
	for _, q := range PushbackFor(p) {
		if q.Phase > 0 && q.Phase < len(phases) {
			phases[q.Phase].Pushback = append(phases[q.Phase].Pushback, q)
		}
	}
	return phases
}
