// Package labflag holds what the lab's flags accept, in the words that every
// command taking them (tui sim, worst and plot) prints when one is bad, so
// the commands cannot drift apart.
package labflag

import (
	"maps"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// ScenarioNames are the --scenario values: chapter 05's scenarios, and
// custom for a sequence given on the command line.
func ScenarioNames() []string { return append(lab.ScenarioNames(), "custom") }

// Accept says what each of the lab's common flags takes, plus the given
// flags of one command.
func Accept(more map[string]string) map[string]string {
	words := map[string]string{
		"algo":       "one of " + strings.Join(lab.AlgorithmNames(), ", "),
		"scenario":   "one of " + strings.Join(ScenarioNames(), ", "),
		"window":     "an integer number of ms > 0 (at most 1e12)",
		"limit":      "an integer >= 1",
		"capacity":   "an integer >= 1",
		"rate":       "a finite number > 0 (requests per second)",
		"subwindows": "an integer >= 1",
		"arrivals":   "integers from 0 to 1e12 in non-decreasing order (ms), comma-separated",
		"costs":      "comma-separated integers, one per arrival",
	}
	maps.Copy(words, more)
	return words
}

// ParseAlgo reads the name given to --algo, --left or --right: the one
// place a command turns a name into a lab.Algorithm. The budget p is
// checked first, so a command line with a bad budget and a bad name reports
// the budget, as lab.Run would. A bad name is a *core.ParamError for "algo"
// listing the accepted names; the caller renames it for --left or --right.
func ParseAlgo(name string, p lab.Params) (lab.Algorithm, error) {
	if err := p.Validate(); err != nil {
		return "", err
	}
	return lab.ParseAlgorithm(name)
}
