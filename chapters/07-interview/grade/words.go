package grade

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// vocabulary is data/words.yaml: what the grader knows of English.
type vocabulary struct {
	Abbreviations map[string]string `yaml:"abbreviations"`
	Stop          []string          `yaml:"stop"`
	Negations     []string          `yaml:"negations"`
	Verbs         []string          `yaml:"verbs"`
}

//go:embed data/words.yaml
var wordsYAML []byte

var (
	abbrev    map[string][]string // a word to the words it stands for
	stops     = map[string]bool{}
	negations = map[string]bool{}
	verbs     = map[string]bool{} // stems
)

func init() {
	var v vocabulary
	if err := strictyaml.Decode(wordsYAML, &v); err != nil {
		panic(fmt.Sprintf("grade: data/words.yaml does not load: %v", err))
	}
	abbrev = map[string][]string{}
	for k, s := range v.Abbreviations {
		abbrev[strings.ToLower(k)] = strings.Fields(strings.ToLower(s))
	}
	for _, w := range v.Stop {
		stops[w] = true
	}
	for _, w := range v.Negations {
		negations[w] = true
	}
	for _, w := range v.Verbs {
		verbs[stem(w)] = true
	}
}

// normalise is one token as the words it stands for, each stemmed:
// "rps" is request, per, second; "10k" is 10000; "expires" is expiry's stem.
func normalise(tok string) []string {
	if n, ok := number(tok); ok {
		return []string{n}
	}
	if ws, ok := abbrev[tok]; ok {
		out := make([]string, 0, len(ws))
		for _, w := range ws {
			out = append(out, stemWord(w))
		}
		return out
	}
	return []string{stemWord(tok)}
}

// stemWord is w's stem, or w itself when w is a stop or negation word
// (kept as written so those lists can name them).
func stemWord(w string) string {
	if stops[w] || negations[w] {
		return w
	}
	if ws, ok := abbrev[w]; ok && len(ws) == 1 {
		w = ws[0]
	}
	return stem(w)
}

// number is tok as a plain decimal when it is one: "10k" is 10000, "1.5m"
// 1500000, "2,500" (commas are gone by now) 2500.
func number(tok string) (string, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(tok, "k"):
		mult, tok = 1e3, strings.TrimSuffix(tok, "k")
	case strings.HasSuffix(tok, "m"):
		mult, tok = 1e6, strings.TrimSuffix(tok, "m")
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || tok == "" || tok[0] < '0' || tok[0] > '9' {
		return "", false
	}
	return strconv.FormatFloat(f*mult, 'f', -1, 64), true
}

// scale words after a number multiply it: "10 million" is 10000000.
var scale = map[string]float64{"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}

// suffixes a light stem removes, longest first; a stem keeps at least
// three letters.
var suffixes = []string{"ations", "ation", "ings", "ing", "ures", "ure", "ies", "ied", "ed", "es", "s", "ly"}

// stem cuts one suffix and a final e or y, so that "expire", "expires",
// "expired", "expiry" and "expiring" are one word, and so are "fail",
// "fails", "failed", "failing" and "failure".
func stem(w string) string {
	if len(w) <= 3 || w[0] >= '0' && w[0] <= '9' && !strings.HasSuffix(w, "s") {
		return w
	}
	for _, s := range suffixes {
		if strings.HasSuffix(w, s) && len(w)-len(s) >= 3 && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-len(s)]
			break
		}
	}
	if len(w) > 3 && (strings.HasSuffix(w, "e") || strings.HasSuffix(w, "y")) {
		w = w[:len(w)-1]
	}
	return w
}

// near is whether two normalised words are the same word: equal, or one
// letter apart (a typo, a missing letter) when both have five letters or
// more. Numbers must be equal.
func near(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < 5 || len(b) < 5 || isDigit(a[0]) || isDigit(b[0]) {
		return false
	}
	return editOne(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// editOne is whether a and b differ by one insertion, deletion or
// substitution.
func editOne(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}
