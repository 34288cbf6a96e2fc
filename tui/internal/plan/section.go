package plan

import (
	"strings"
	"unicode"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// WordsPerMinute is the reading speed the plans assume.
const WordsPerMinute = 200

// Section is the text under a level-2 heading of chapter n's README, up to
// the next level-2 heading (its level-3 parts included); ok is false when
// the chapter has no such heading.
func Section(n int, heading string) (text string, ok bool) {
	var b strings.Builder
	in, fenced := false, false
	for _, line := range strings.Split(chapters.README(n), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && (strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "# ")) {
			if in {
				break
			}
			in = strings.TrimSpace(strings.TrimPrefix(line, "## ")) == heading && strings.HasPrefix(line, "## ")
			ok = ok || in
			continue
		}
		if in {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String(), ok
}

// Headings are the level-2 headings of chapter n's README, in order.
func Headings(n int) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(chapters.README(n), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if h, ok := strings.CutPrefix(line, "## "); ok && !fenced {
			out = append(out, strings.TrimSpace(h))
		}
	}
	return out
}

// Words counts the words of a text: the runs between spaces that hold a
// letter or a digit (a table's bars and a list's dashes are not words).
func Words(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// ReadingMinutes is how long words take to read, rounded up to a minute.
func ReadingMinutes(words int) int { return (words + WordsPerMinute - 1) / WordsPerMinute }

// HeadingText is a heading as the reader shows it: without the backticks
// of its code spans and with its spaces collapsed. A step's section, a
// README's "## " line and a rendered heading row compare equal through it
// ("Window: the aligned grid (`fixed-window`)" is shown without its
// backticks).
func HeadingText(h string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(h, "`", "")), " ")
}

// IsHeading reports whether shown, a heading row as the reader shows it
// (wrapped, it holds only the heading's start), is heading.
func IsHeading(shown, heading string) bool {
	s, h := HeadingText(shown), HeadingText(heading)
	return s != "" && (s == h || strings.HasPrefix(h, s))
}
