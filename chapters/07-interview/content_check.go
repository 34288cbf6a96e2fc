package interview

import (
	"fmt"
	"strconv"
)

// check is what the data files must hold for the chapter to work: every
// field a reader sees present, ids unique, and every id one file names in
// another known (a prompt's pushback and dives, each pushback's and dive's
// drill card, each rubric's prompt). It returns every fault it finds.
func (c content) check() []error {
	var k checker
	k.track(c.track)
	k.skeleton(c.skeleton)
	cards := k.cards(c.drill)
	pushes := k.pushback(c.pushback, cards, len(c.track))
	dives := k.dives(c.dives, cards)
	prompts := k.prompts(c.mock, pushes, dives, len(c.skeleton))
	k.rubric(c.rubric, prompts)
	k.worked(c.worked, prompts, len(c.skeleton))
	return k.errs
}

// checker collects the faults of the data files.
type checker struct{ errs []error }

func (k *checker) fail(file, format string, a ...any) {
	k.errs = append(k.errs, fmt.Errorf("%s: %s", file, fmt.Sprintf(format, a...)))
}

// track checks the 45-minute track: five phases (the rubric's rows), each
// with its minutes, title, opening, board and checklist, and each probe
// with its question and answer.
func (k *checker) track(track []TrackPhase) {
	const file = "data/track.yaml"
	if len(track) != 5 {
		k.fail(file, "%d phases, want 5", len(track))
	}
	for i, p := range track {
		where := fmt.Sprintf("phase %d (%q)", i+1, p.Title)
		k.fields(file, where, "title", p.Title, "say_first", p.SayFirst, "draw", p.Draw)
		k.list(file, where, "checklist", p.Checklist)
		k.minutes(file, where, p.Minutes)
		for j, q := range p.Probes {
			k.fields(file, fmt.Sprintf("%s probe %d", where, j+1), "q", q.Q, "a", q.A)
		}
	}
}

// skeleton checks the 15-minute answer: steps with minutes, a title and
// points.
func (k *checker) skeleton(steps []Step) {
	const file = "data/skeleton.yaml"
	if len(steps) == 0 {
		k.fail(file, "no steps")
	}
	named := map[int]bool{} // the track's phases whose pushback a step throws
	for i, s := range steps {
		where := fmt.Sprintf("step %d (%q)", i+1, s.Title)
		k.fields(file, where, "title", s.Title)
		k.list(file, where, "points", s.Points)
		k.minutes(file, where, s.Minutes)
		for _, f := range s.PushbackFrom {
			if f < 1 || f > 4 || named[f] {
				k.fail(file, "%s: pushback_from %d, want a track phase from 1 to 4 named by one step", where, f)
			}
			named[f] = true
		}
	}
	if len(steps) > 0 && len(named) != 4 {
		k.fail(file, "pushback_from names %d of the track's phases 1 to 4: the others' pushback is never thrown", len(named))
	}
}

// minutes adds a fault unless m is above 0.
func (k *checker) minutes(file, where string, m int) {
	if m < 1 {
		k.fail(file, "%s: %d minutes, want above 0", where, m)
	}
}

// cards checks the drill cards and returns their ids.
func (k *checker) cards(drill []Question) map[string]bool {
	const file = "data/cards.yaml"
	ids := map[string]bool{}
	for i, q := range drill {
		where := fmt.Sprintf("card %d (%q)", i+1, q.ID)
		k.fields(file, where, "id", q.ID, "topic", q.Topic, "q", q.Q, "say_first", q.SayFirst, "a", q.A)
		k.chapter(file, where, q.Chapter)
		if ids[q.ID] {
			k.fail(file, "card id %q twice", q.ID)
		}
		ids[q.ID] = true
	}
	return ids
}

// pushback checks the pushback bank against the cards and returns its ids.
func (k *checker) pushback(bank []Push, cards map[string]bool, phases int) map[string]bool {
	const file = "data/pushback.yaml"
	ids := map[string]bool{}
	for i, p := range bank {
		where := fmt.Sprintf("pushback %d (%q)", i+1, p.ID)
		k.fields(file, where, "id", p.ID, "prompt", p.Prompt, "cue", p.Cue, "proof", p.Proof)
		k.list(file, where, "strong", p.Strong)
		k.chapter(file, where, p.Chapter)
		if !cards[p.Card] {
			k.fail(file, "%s: card %q is not a card of data/cards.yaml", where, p.Card)
		}
		if p.Phase < 1 || p.Phase >= phases {
			k.fail(file, "%s: phase %d, want 1 to %d (a Track phase after the introduction)", where, p.Phase, phases-1)
		}
		if ids[p.ID] {
			k.fail(file, "pushback id %q twice", p.ID)
		}
		ids[p.ID] = true
	}
	return ids
}

// dives checks the deep-dive bank against the cards and returns the ids a
// prompt may name: the bank's and the two every prompt has of its own.
func (k *checker) dives(bank []Dive, cards map[string]bool) map[string]bool {
	const file = "data/dives.yaml"
	ids := map[string]bool{DiveAlgorithm: true, DiveFailure: true}
	for i, d := range bank {
		where := fmt.Sprintf("dive %d (%q)", i+1, d.ID)
		k.fields(file, where, "id", d.ID, "title", d.Title)
		k.list(file, where, "questions", d.Questions)
		k.points(file, where, d.Checklist)
		if !cards[d.Card] {
			k.fail(file, "%s: card %q is not a card of data/cards.yaml", where, d.Card)
		}
		if ids[d.ID] {
			k.fail(file, "dive id %q twice (or one of the prompt's own, %q and %q)", d.ID, DiveAlgorithm, DiveFailure)
		}
		ids[d.ID] = true
	}
	return ids
}

// prompts checks the mock's prompts against the pushback and the dives and
// returns their names.
func (k *checker) prompts(mock []Prompt, pushes, dives map[string]bool, steps int) map[string]bool {
	const file = "data/mock.yaml"
	names := map[string]bool{}
	for i, p := range mock {
		where := fmt.Sprintf("prompt %d (%q)", i+1, p.Name)
		k.fields(file, where, "name", p.Name, "title", p.Title, "ask", p.Ask)
		if len(p.Phases) != steps {
			k.fail(file, "%s: %d phases, want one per Skeleton step (%d)", where, len(p.Phases), steps)
		}
		for j, ph := range p.Phases {
			at := fmt.Sprintf("%s phase %d", where, j+1)
			k.list(file, at, "questions", ph.Questions)
			k.points(file, at, ph.Checklist)
		}
		k.list(file, where, "pushback", p.Pushback)
		for _, id := range p.Pushback {
			if !pushes[id] {
				k.fail(file, "%s: pushback %q is not in data/pushback.yaml", where, id)
			}
		}
		k.list(file, where, "dives", p.Dives)
		for _, id := range p.Dives {
			if !dives[id] {
				k.fail(file, "%s: dive %q is not in data/dives.yaml (nor %q or %q)", where, id, DiveAlgorithm, DiveFailure)
			}
		}
		if names[p.Name] {
			k.fail(file, "prompt name %q twice", p.Name)
		}
		names[p.Name] = true
	}
	return names
}

// rubric checks that every prompt has a rubric and every rubric a prompt,
// each row with both columns.
func (k *checker) rubric(rubric map[string][5][2]string, prompts map[string]bool) {
	const file = "data/rubric.yaml"
	for name := range prompts {
		if _, ok := rubric[name]; !ok {
			k.fail(file, "no rubric for prompt %q", name)
		}
	}
	for name, rows := range rubric {
		if !prompts[name] {
			k.fail(file, "prompt %q is not in data/mock.yaml", name)
		}
		for i, row := range rows {
			k.fields(file, fmt.Sprintf("prompt %q row %d", name, i+1), "senior", row[0], "staff", row[1])
		}
	}
}

// fields adds a fault for each named field that is empty; kv is name,
// value, name, value….
func (k *checker) fields(file, where string, kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			k.fail(file, "%s: %s is missing", where, kv[i])
		}
	}
}

// list adds a fault if the list is empty or holds an empty item.
func (k *checker) list(file, where, field string, list []string) {
	if len(list) == 0 {
		k.fail(file, "%s: %s is missing", where, field)
	}
	for i, s := range list {
		if s == "" {
			k.fail(file, "%s: %s item %d is empty", where, field, i+1)
		}
	}
}

// points checks a checklist: at least one point, each with its text, a
// chapter and a cue.
func (k *checker) points(file, where string, points []Point) {
	if len(points) == 0 {
		k.fail(file, "%s: checklist is missing", where)
	}
	for i, p := range points {
		at := fmt.Sprintf("%s point %d", where, i+1)
		k.fields(file, at, "text", p.Text, "cue", p.Cue)
		k.chapter(file, at, p.Chapter)
	}
}

// chapter adds a fault unless ch is a chapter number as the course writes
// it, two digits from 01 ("04"); TestContentChaptersExist checks that each
// names a chapter of the course.
func (k *checker) chapter(file, where, ch string) {
	if n, err := strconv.Atoi(ch); err != nil || len(ch) != 2 || n < 1 {
		k.fail(file, "%s: chapter %q, want two digits such as \"04\"", where, ch)
	}
}
