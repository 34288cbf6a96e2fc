package grade

import (
	"regexp"
	"strconv"
	"strings"
)

// Notes are read as sentences of words. A paragraph's lines are joined
// (notes are often wrapped), bullets and table rows start sentences of
// their own, and a sentence ends at . ; ! or ? before a space. Each word is
// normalised the same way an idea's phrasing is: lower case, contractions
// opened ("don't" is "do not"), numbers written out ("10k" and "10,000"
// are both 10000), abbreviations expanded (words.go) and a light stem
// ("expires", "expired" and "expiry" are all "expir").

// word is one normalised word of a sentence, with what the notes wrote.
type word struct {
	norm   string // normalised and stemmed
	orig   string // as written
	clause int    // a comma, colon or bracket starts a new clause: negation stops there
	neg    bool   // a negation word: not, no, never, without, instead
	stop   bool   // a stop word: read for verbs, skipped when matching
}

// sentence is one sentence of the notes.
type sentence struct {
	text  string // as written
	words []word
	said  bool // a sentence with a verb, not a bare list of keywords (said)
}

var (
	bulletRe   = regexp.MustCompile(`^\s*([-*+•]|\d+[.)])\s+`)
	sentEndRe  = regexp.MustCompile(`[.;!?]+(\s+|$)`)
	thousandRe = regexp.MustCompile(`(\d),(\d{3})\b`)
	tokenRe    = regexp.MustCompile(`\d+(\.\d+)?(k|m)?\b|[\p{L}\p{N}]+|[,:()—]`)
)

// split is text as sentences: paragraphs joined, bullets, table rows and
// code lines on their own.
func split(text string) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, sentEndRe.Split(strings.Join(para, " "), -1)...)
			para = nil
		}
	}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			flush()
			fenced = !fenced
			continue
		}
		switch {
		case fenced || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#"):
			flush()
			out = append(out, strings.Trim(t, "#| "))
		case t == "":
			flush()
		case bulletRe.MatchString(t):
			flush()
			para = append(para, bulletRe.ReplaceAllString(t, ""))
		default:
			para = append(para, strings.TrimLeft(t, "> "))
		}
	}
	flush()
	return out
}

// contractions opened before the words are cut.
var contractions = strings.NewReplacer(
	"’", "'", "can't", "can not", "won't", "will not", "n't", " not",
	"'d ", " would ", "'ll ", " will ", "'re ", " are ", "'ve ", " have ", "'m ", " am ",
	"it's", "it is", "that's", "that is", "'s ", " ", "µs", " microsecond ", "μs", " microsecond ",
	"×", " x ", "->", " to ", "→", " to ",
)

// words is one sentence as normalised words.
func words(s string) []word {
	s = contractions.Replace(strings.ToLower(s) + " ")
	s = thousandRe.ReplaceAllString(thousandRe.ReplaceAllString(s, "$1$2"), "$1$2")
	var out []word
	clause := 0
	toks := tokenRe.FindAllString(s, -1)
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		if strings.ContainsAny(tok, ",:()—") {
			clause++
			continue
		}
		ns := normalise(tok)
		if n, ok := number(tok); ok && i+1 < len(toks) && scale[toks[i+1]] > 0 {
			f, _ := strconv.ParseFloat(n, 64)
			ns = []string{strconv.FormatFloat(f*scale[toks[i+1]], 'f', -1, 64)}
			tok += " " + toks[i+1]
			i++
		}
		for _, n := range ns {
			out = append(out, word{norm: n, orig: tok, clause: clause, neg: negations[n], stop: stops[n]})
		}
	}
	return out
}

// read is the notes as sentences, each marked said or not.
func read(text string) []sentence {
	var out []sentence
	for _, s := range split(text) {
		ws := words(s)
		content := make([]word, 0, len(ws))
		for _, w := range ws {
			if !w.stop {
				content = append(content, w)
			}
		}
		if len(content) > 0 {
			out = append(out, sentence{text: strings.TrimSpace(s), words: content, said: said(s, ws)})
		}
	}
	return out
}

// said is whether a sentence connects its ideas: it has a verb, and it is
// not a list of four or more fragments, two in three of them four words
// or shorter ("token bucket, Lua, TTL, 429"), which reads as keywords
// whatever words it holds.
func said(s string, ws []word) bool {
	frags := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(",;/|·", r) })
	if len(frags) >= 4 {
		short := 0
		for _, f := range frags {
			if len(strings.Fields(f)) <= 4 {
				short++
			}
		}
		if short*3 >= len(frags)*2 {
			return false
		}
	}
	for _, w := range ws {
		if verbs[w.norm] {
			return true
		}
	}
	return false
}
