// Package history finds passages in which a text tells its own past
// ("this chapter used to…", "before this version…") instead of saying what
// is true now and why. The course's READMEs are lessons: what changed
// between versions belongs in git, and a measured figure belongs, with its
// conditions, in a section of its own.
package history

import (
	"regexp"
	"strings"
)

// phrases are the words that narrate a text's past. Each is matched on the
// text with its line breaks folded to spaces, case-insensitively, so a
// phrase split by the wrap of a Markdown paragraph is still found.
var phrases = regexp.MustCompile(`(?i)\b(` + strings.Join([]string{
	`used to`,
	`before this version`,
	`(?:this|an earlier|the previous|the earlier) version`,
	`this round`,
	`no longer`,
	`since then`,
	`before these changes`,
	`what changed`,
	`as before`,
	`(?:was|were) changed`,
	`before, `,
	`the issue saw`,
	`the review that found`,
	`any ?more`,
}, "|") + `)`)

// usage marks "used to" meant as "employed for" ("a key is used to route"),
// which tells no history.
var usage = regexp.MustCompile(`(?i)\b(?:is|are|be|been|being|was|were|gets?)\s+$`)

// Passage is one place where a text tells its history.
type Passage struct {
	Phrase  string // the words found, as written
	Line    int    // 1-based line of the text where the phrase starts
	Excerpt string // the phrase with up to 40 characters either side
}

// Find returns every passage of text that narrates the text's own past, in
// order of appearance.
func Find(text string) []Passage {
	flat := strings.Join(strings.Fields(text), " ")
	// The fold keeps the words in order, so a match's line is found by
	// counting the words before it.
	var found []Passage
	for _, m := range phrases.FindAllStringIndex(flat, -1) {
		phrase := flat[m[0]:m[1]]
		if strings.EqualFold(phrase, "used to") && usage.MatchString(flat[:m[0]]) {
			continue
		}
		if m[1] < len(flat) && isWordByte(flat[m[1]-1]) && isWordByte(flat[m[1]]) {
			continue // the start of a longer word: "used tokens"
		}
		found = append(found, Passage{
			Phrase:  phrase,
			Line:    lineOf(text, len(strings.Fields(flat[:m[0]]))),
			Excerpt: flat[max(0, m[0]-40):min(len(flat), m[1]+40)],
		})
	}
	return found
}

// isWordByte reports whether b is an ASCII letter or digit, a byte that
// continues a word.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// lineOf returns the 1-based line of text on which its word number w
// (counted from 0) starts.
func lineOf(text string, w int) int {
	for i, line := range strings.Split(text, "\n") {
		n := len(strings.Fields(line))
		if w < n {
			return i + 1
		}
		w -= n
	}
	return strings.Count(text, "\n") + 1
}
