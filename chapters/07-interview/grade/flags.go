package grade

import (
	_ "embed"
	"fmt"

	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// A red flag is something an interviewer marks down whatever else was
// said: counting per node, INCR then EXPIRE as two commands, failing
// everything closed, and the rest of data/redflags.yaml. A flag is found
// when all its ideas are said in one sentence, not negated, and none of
// its unless phrasings (the context that makes it right) is in that
// sentence.

// RedFlag is one entry of data/redflags.yaml.
type RedFlag struct {
	ID      string   `yaml:"id"`
	Text    string   `yaml:"text"`    // what the candidate said, in a line
	Fix     string   `yaml:"fix"`     // what to say instead
	Chapter string   `yaml:"chapter"` // where the course teaches it
	Ideas   []string `yaml:"ideas"`   // all said in one sentence
	Unless  []string `yaml:"unless"`  // any said in that sentence clears it
}

// Found is a red flag in a phase's notes.
type Found struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Fix     string `json:"fix"`
	Chapter string `json:"chapter"`
	Words   string `json:"words"` // the sentence that raised it
	Phase   int    `json:"phase"` // from 1
}

//go:embed data/redflags.yaml
var flagsYAML []byte

type flagRule struct {
	RedFlag
	ideas  []idea
	unless idea
}

var flagRules = loadFlags()

func loadFlags() []flagRule {
	var fs []RedFlag
	if err := strictyaml.Decode(flagsYAML, &fs); err != nil {
		panic(fmt.Sprintf("grade: data/redflags.yaml does not load: %v", err))
	}
	out := make([]flagRule, 0, len(fs))
	for _, f := range fs {
		r := flagRule{RedFlag: f}
		for _, l := range f.Ideas {
			r.ideas = append(r.ideas, parseIdea(l))
		}
		for _, l := range f.Unless {
			u := parseIdea("~" + l)
			r.unless.alts = append(r.unless.alts, u.alts...)
		}
		r.unless.anyOK = true
		out = append(out, r)
	}
	return out
}

// RedFlags are the red flags the grader looks for, from data/redflags.yaml.
func RedFlags() []RedFlag {
	out := make([]RedFlag, len(flagRules))
	for i, r := range flagRules {
		out[i] = r.RedFlag
	}
	return out
}

// findFlags are the red flags said in ss, each once, at its first sentence.
func findFlags(ss []sentence) []Found {
	var out []Found
	for _, r := range flagRules {
		for i := range ss {
			one := ss[i : i+1]
			if len(r.unless.alts) > 0 && len(r.unless.hits(one)) > 0 {
				continue
			}
			var said []string
			for _, id := range r.ideas {
				hs := id.hits(one)
				if len(hs) == 0 {
					said = nil
					break
				}
				said = append(said, hs[0].words)
			}
			if len(said) == len(r.ideas) && len(said) > 0 {
				out = append(out, Found{ID: r.ID, Text: r.Text, Fix: r.Fix, Chapter: r.Chapter, Words: ss[i].text})
				break
			}
		}
	}
	return out
}
