package menu

import (
	"strings"
	"sync"
	"unicode"

	"github.com/charmbracelet/bubbles/list"
)

// The / filter finds entries by words, not by scattered letters. The list's
// own filter is fuzzy: "red" is r…e…d anywhere in an entry's long
// description, which nearly every entry has. Here a typed word matches an
// entry's title or description when one of their words starts with it (the
// filter runs as you type), or a chapter's text when one of its words is it
// ("login" finds chapter 01, which is about logins, though its summary says
// nothing of them). Entries matched by title or description come first.

// bodySep separates an entry's title and description from its chapter text
// in its FilterValue.
const bodySep = "\x00"

// filterItems is the menu list's Filter: the entries every word of term
// matches, those matched by title or description first.
func filterItems(term string, targets []string) []list.Rank {
	typed := words(term)
	var head, body []list.Rank
	for i, t := range targets {
		shortWords, longWords := splitTarget(t)
		switch {
		case all(typed, func(w string) bool { return hasPrefix(shortWords, w) }):
			head = append(head, list.Rank{Index: i})
		case len(longWords) > 0 && all(typed, func(w string) bool { return hasPrefix(shortWords, w) || contains(longWords, w) }):
			body = append(body, list.Rank{Index: i})
		}
	}
	return append(head, body...)
}

// split holds each entry's words, title and description apart from its
// chapter text: the filter runs at every key typed, and a chapter's text is
// thousands of words, split once.
var split sync.Map // FilterValue → [2][]string

func splitTarget(t string) (short, long []string) {
	if v, ok := split.Load(t); ok {
		w := v.([2][]string)
		return w[0], w[1]
	}
	s, l, _ := strings.Cut(t, bodySep)
	w := [2][]string{words(s), words(l)}
	split.Store(t, w)
	return w[0], w[1]
}

// words are s's words in lower case: runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func all(ws []string, ok func(string) bool) bool {
	for _, w := range ws {
		if !ok(w) {
			return false
		}
	}
	return true
}

func hasPrefix(ws []string, p string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

func contains(ws []string, x string) bool {
	for _, w := range ws {
		if w == x {
			return true
		}
	}
	return false
}
