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
		p.Phases[i] = MockPhase{Questions: slices.Clone(ph.Questions), Checklist: slices.Clone(ph.Checklist), Pushback: slices.Clone(ph.Pushback)}
	}
	return p
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
			{"Restate the question in one sentence, in your own words", "07", "restate the question"},
			{"Say the four questions you will settle before any algorithm: the key, the traffic's shape, shared state, placement", "01", "four questions"},
			{"Say how you will spend the 45 minutes, keeping time for the deep dives and your questions", "07", "45-minute"},
		},
	}
	reqs := MockPhase{
		Questions: append(append([]string{}, p.Phases[0].Questions...),
			"What latency, availability and accuracy does the limiter itself promise?"),
		Checklist: append(append([]Point{}, p.Phases[0].Checklist...),
			Point{"The limiter's own targets: a few ms at p99 added, availability above the API's, a stated bound on over-admission", "07", "own targets"}),
	}
	design := MockPhase{
		Questions: append([]string{
			"Where does the decision run: a library call, a middleware, a sidecar, or a service like Envoy's ShouldRateLimit? Choose one.",
			"Draw the request path: where does each limit live?"}, p.Phases[2].Questions...),
		Checklist: append([]Point{
			{"Choose the API's shape and say what it costs: a library call or middleware (per node), a sidecar, or a decision service such as ShouldRateLimit(domain, descriptors, hits)", "07", "sidecar"},
			{"The request path drawn, client to Redis Cluster, with the limit each hop holds and its cost", "07", "request path"},
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
			{"Name the trade-offs out loud: approximate across regions, bounded over-admission after a failover, bursts by design", "07", "trade-offs out loud"},
			{"Say how you would know it works: the 429 rate per rule, the fail-open count, the store's p99", "07", "fail-open count"},
			{"Ask your own questions: who owns the limits, the last incident, what they would change first", "07", "your own questions"},
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
