package menu

import (
	"strings"
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
		short, long, _ := strings.Cut(t, bodySep)
		shortWords, longWords := words(short), words(long)
		switch {
		case all(typed, func(w string) bool { return hasPrefix(shortWords, w) }):
			head = append(head, list.Rank{Index: i})
		case len(longWords) > 0 && all(typed, func(w string) bool { return hasPrefix(shortWords, w) || contains(longWords, w) }):
			body = append(body, list.Rank{Index: i})
		}
	}
	return append(head, body...)
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
