package course

import (
	"regexp"
	"strings"
	"sync"
)

// SectionOf is the heading (without markup) of the first section of
// chapter num's README that says phrase (case and line breaks aside; the
// introduction above the first heading is not a section): where to read
// what a mock's point or pushback names by its cue. "" when the chapter or
// the phrase is not there (a cue may live in the chapter's drill cards
// only).
func SectionOf(num int, phrase string) string {
	k := sectionKey{num, phrase}
	if s, ok := sections.Load(k); ok {
		return s.(string)
	}
	s := sectionOf(num, phrase)
	sections.Store(k, s)
	return s
}

// sections keeps what SectionOf found: a summary asks on every frame.
var sections sync.Map // sectionKey → string

type sectionKey struct {
	num    int
	phrase string
}

var spaces = regexp.MustCompile(`\s+`)

// sectionOf is SectionOf, uncached.
func sectionOf(num int, phrase string) string {
	idx := Index(num)
	if idx < 0 || strings.TrimSpace(phrase) == "" {
		return ""
	}
	heading, fenced := "", false
	var para []string // the paragraph so far, lower case, one line each
	want := spaces.ReplaceAllString(strings.ToLower(strings.TrimSpace(phrase)), " ")
	for _, l := range strings.Split(chapterList[idx].README, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
		}
		if h := strings.TrimLeft(l, "#"); !fenced && len(h) < len(l) && len(l)-len(h) >= 2 && strings.HasPrefix(h, " ") {
			heading, para = strings.TrimSpace(h), nil
			continue
		}
		if strings.TrimSpace(l) == "" {
			para = nil
			continue
		}
		para = append(para, strings.ToLower(l))
		if heading != "" && strings.Contains(spaces.ReplaceAllString(strings.Join(para, " "), " "), want) {
			return strings.NewReplacer("`", "", "**", "", "*", "").Replace(heading)
		}
	}
	return ""
}
