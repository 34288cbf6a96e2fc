package grade

import (
	"strings"
)

// An idea is one thing a point or a red flag needs said, in any of its
// phrasings: "one script | lua | atomic" is said by any of the three. A
// phrasing is said in a sentence when all its words are there (each word
// may be a letter off when it has five or more), close together (within
// the phrasing's length plus two words), in any order, and no negation
// word (not, never, without, instead …) stands in the same clause up to
// three words before it. An idea written with a leading "~" counts even
// when negated ("not a fixed window" still names the fixed window), and so
// does a phrasing that holds a negation word itself ("never earlier").

// phrasing is one way to say an idea, as normalised words.
type phrasing struct {
	words   []string
	negated bool // holds a negation word itself
}

// idea is what an idea line of the data says.
type idea struct {
	text  string
	alts  []phrasing
	anyOK bool // "~": said even under a negation
}

// parseIdea reads "~a | b c | d" into an idea.
func parseIdea(s string) idea {
	s = strings.TrimSpace(s)
	id := idea{text: s}
	if strings.HasPrefix(s, "~") {
		id.anyOK, s = true, s[1:]
	}
	for _, alt := range strings.Split(s, "|") {
		var ph phrasing
		seen := map[string]bool{}
		for _, w := range words(alt) {
			if w.stop || seen[w.norm] {
				continue
			}
			seen[w.norm] = true
			ph.words = append(ph.words, w.norm)
			ph.negated = ph.negated || w.neg
		}
		if len(ph.words) > 0 {
			id.alts = append(id.alts, ph)
		}
	}
	return id
}

// hit is where an idea was said: the sentence, how fully (1 in a sentence,
// less in a list of keywords) and the words the notes used.
type hit struct {
	at     int
	weight float64
	words  string
}

// listWeight is what an idea said in a bare list of keywords is worth,
// against 1 in a sentence.
const listWeight = 0.5

// hits are the sentences that say the idea, each once.
func (id idea) hits(ss []sentence) []hit {
	var out []hit
	for i, s := range ss {
		for _, ph := range id.alts {
			if pos, ok := ph.in(s, id.anyOK); ok {
				w := 1.0
				if !s.said {
					w = listWeight
				}
				out = append(out, hit{at: i, weight: w, words: shown(s, pos)})
				break
			}
		}
	}
	return out
}

// in is where the phrasing is said in s: the positions of its words; false
// when it is not, or only under a negation (unless anyOK).
func (ph phrasing) in(s sentence, anyOK bool) ([]int, bool) {
	ws := s.words
	for a, w := range ws {
		if !near(w.norm, ph.words[0]) {
			continue
		}
		pos := []int{a}
		lo, hi := a, a
		for _, t := range ph.words[1:] {
			best := -1
			for j, v := range ws {
				if near(v.norm, t) && (best < 0 || abs(j-a) < abs(best-a)) {
					best = j
				}
			}
			if best < 0 {
				return nil, false
			}
			pos = append(pos, best)
			lo, hi = min(lo, best), max(hi, best)
		}
		if hi-lo > len(ph.words)+1 {
			continue
		}
		if anyOK || ph.negated || !negatedAt(ws, lo) {
			return pos, true
		}
	}
	return nil, false
}

// negatedAt is whether a negation word stands up to three words before
// position i, in its clause.
func negatedAt(ws []word, i int) bool {
	for k := max(i-3, 0); k < i; k++ {
		if ws[k].neg && ws[k].clause == ws[i].clause {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// shown is the words at pos as the notes wrote them, in their order.
func shown(s sentence, pos []int) string {
	lo, hi := pos[0], pos[0]
	for _, p := range pos {
		lo, hi = min(lo, p), max(hi, p)
	}
	var out []string
	for i := lo; i <= hi; i++ {
		if o := s.words[i].orig; len(out) == 0 || out[len(out)-1] != o {
			out = append(out, o)
		}
	}
	return strings.Join(out, " ")
}

// window is how many consecutive sentences a point's ideas may spread
// over: "The fixed window is wrong. It lets 200 through in two seconds."
const window = 3

// best is the strongest showing of all ideas within one window of
// sentences: its credit (the weakest of its ideas' weights, 0 when an idea
// is not said) and the words that said each idea.
func best(ideas []idea, ss []sentence) (float64, []string) {
	all := make([][]hit, len(ideas))
	for i, id := range ideas {
		if all[i] = id.hits(ss); len(all[i]) == 0 {
			return 0, nil
		}
	}
	var credit float64
	var said []string
	for start := range ss {
		c, ws := 1.0, make([]string, len(ideas))
		for i, hs := range all {
			w := 0.0
			for _, h := range hs {
				if h.at >= start && h.at < start+window && h.weight > w {
					w, ws[i] = h.weight, h.words
				}
			}
			c = min(c, w)
		}
		if c > credit {
			credit, said = c, ws
		}
	}
	return credit, said
}
