package grade

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// Source is what a file to grade holds: the prompt and form when it is a
// transcript the app saved (tui mock --last), and the notes per phase.
type Source struct {
	Prompt string   // "" for a plain file
	Form   string   // ShortForm, LongForm, or "" for a plain file
	Notes  []string // notes[i] is phase i+1's
	Points []string // the checklist points a transcript lists, ticked or not
}

var (
	questionRe = regexp.MustCompile("^- Question \\(`([^`]+)`\\)")
	formRe     = regexp.MustCompile(`^- Form: (\d+-minute)`)
	phaseRe    = regexp.MustCompile(`^## Phase (\d+)\b`)
	pointRe    = regexp.MustCompile(`^- \[[ x]\] (.*) \(chapter \d+[,)]`)
)

// ErrNoPhases is the error of a file with no "## Phase N" section.
var ErrNoPhases = errors.New(`no "## Phase N" section (N from 1): write one per phase, or give a transcript the app saved`)

// Parse reads a transcript the app saved, or a plain file with one
// "## Phase N" section per phase (N from 1), into notes per phase. In a
// transcript only the block quoted under "### What you said" is notes:
// the points, the strong answer and earlier feedback are not.
func Parse(text string) (Source, error) {
	var src Source
	byPhase := map[int][]string{}
	phase, said := 0, false
	transcript := false
	for _, line := range strings.Split(text, "\n") {
		if m := questionRe.FindStringSubmatch(line); m != nil && phase == 0 {
			src.Prompt, transcript = m[1], true
		}
		if m := formRe.FindStringSubmatch(line); m != nil && phase == 0 {
			src.Form = m[1]
		}
		if m := phaseRe.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n < 1 {
				return Source{}, fmt.Errorf("%q: phases count from 1", strings.TrimSpace(line))
			}
			if _, dup := byPhase[n]; dup {
				return Source{}, fmt.Errorf("%q: phase %d twice", strings.TrimSpace(line), n)
			}
			phase, said = n, !transcript
			byPhase[n] = nil
			continue
		}
		if phase == 0 {
			continue
		}
		if strings.HasPrefix(line, "## ") {
			phase = 0
			continue
		}
		if transcript {
			if m := pointRe.FindStringSubmatch(line); m != nil {
				src.Points = append(src.Points, m[1])
			}
			if strings.HasPrefix(line, "### ") {
				said = strings.TrimSpace(line[4:]) == "What you said"
				continue
			}
			if !said || !(strings.HasPrefix(line, ">") || strings.TrimSpace(line) == "") {
				continue
			}
			line = strings.TrimPrefix(strings.TrimPrefix(line, ">"), " ")
		}
		byPhase[phase] = append(byPhase[phase], line)
	}
	if len(byPhase) == 0 {
		return Source{}, ErrNoPhases
	}
	last := 0
	for n := range byPhase {
		last = max(last, n)
	}
	src.Notes = make([]string, last)
	for n, ls := range byPhase {
		src.Notes[n-1] = strings.TrimSpace(strings.Join(ls, "\n"))
	}
	return src, nil
}

// Grade grades src against the named prompt ("" takes the transcript's) in
// the form short says. For a 45-minute transcript the deep dives are the
// ones its points name, as the app drew them.
func Grade(src Source, prompt string, short bool) (Result, error) {
	if prompt == "" {
		prompt = src.Prompt
	}
	p, ok := interview.MockPrompt(prompt)
	if !ok {
		return Result{}, fmt.Errorf("no mock prompt %q (one of %v)", prompt, interview.MockNames())
	}
	phases, form := p.Phases, ShortForm
	if !short {
		phases, form = interview.LongFormWith(p, divesNamed(p, src.Points)), LongForm
	}
	if len(src.Notes) > len(phases) {
		return Result{}, fmt.Errorf("%d phases of notes, but the %s form has %d", len(src.Notes), form, len(phases))
	}
	return Phases(prompt, form, phases, src.Notes), nil
}

// divesNamed are the ids of p's deep dives whose points are listed.
func divesNamed(p interview.Prompt, points []string) []string {
	var out []string
	for _, d := range interview.DivesFor(p) {
		for _, pt := range d.Checklist {
			if slices.Contains(points, pt.Text) {
				out = append(out, d.ID)
				break
			}
		}
	}
	return out
}
