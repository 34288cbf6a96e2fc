package text

import (
	"regexp"
	"strings"
)

// Some spaces must not become line breaks: a line that ends "116" with
// "000 001." below it, or "0.6" above "s", reads as two numbers or a number
// without its unit. Glue names those spaces, so that every wrapper of the
// course (Wrap, and the chapter text's renderer) keeps both sides together:
//
//   - between the groups of a number written with spaces ("116 000 001");
//   - between a number and its unit ("0.6 s", "2 shared cores", "50 %");
//   - on both sides of "=" ("L = 3");
//   - after "+", "−" or "×" written as a word, and before one when a short
//     term comes first ("C + R·W", "100 + 10 × 200 s");
//   - between "ch" or "chapter" and its number ("ch 07").

// units are the words that follow a number as its unit.
var units = map[string]bool{
	"s": true, "ms": true, "µs": true, "ns": true, "min": true, "h": true,
	"B": true, "KB": true, "MB": true, "GB": true, "KiB": true, "MiB": true,
	"%": true, "x": true, "×": true, "shared": true, "cores": true,
}

// operators join the terms of a formula written with spaces.
var operators = map[string]bool{"+": true, "−": true, "×": true}

var (
	// trim is the markup and punctuation around a word's text.
	trim     = "`*_()[]{}\"'“”,.;:!?"
	endDigit = regexp.MustCompile(`[0-9]$`)
	group    = regexp.MustCompile(`^[0-9]{3}([.][0-9]+)?$`)
)

// glued reports whether the space between words a and b must not break.
func glued(a, b string) bool {
	if a == "=" || b == "=" || operators[a] {
		return true
	}
	if operators[b] && len([]rune(strings.Trim(a, trim))) <= 4 {
		return true // C + R·W
	}
	na := strings.TrimRight(a, "`*_)") // a number may close a code span
	nb := strings.TrimLeft(b, "`*_(")
	if na == "" || nb == "" {
		return false
	}
	number := endDigit.MatchString(na)
	next := strings.TrimRight(nb, trim)
	switch {
	case number && group.MatchString(next):
		return true // 116 000 001
	case number && units[next]:
		return true // 0.6 s
	case strings.Trim(a, trim) == "ch" || strings.Trim(a, trim) == "chapter":
		return nb[0] >= '0' && nb[0] <= '9' // ch 07
	}
	return false
}

// Glue returns s with every space that must not break (see glued) written
// as joiner; other whitespace is kept as it is.
func Glue(s, joiner string) string {
	var b strings.Builder
	prev := ""
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\n' && s[j] != '\t' {
			j++
		}
		word := s[i:j]
		b.WriteString(word)
		if word != "" {
			prev = word
		}
		if j == len(s) {
			break
		}
		// One space between two words: glue it if the words say so.
		if s[j] == ' ' && j+1 < len(s) && s[j+1] != ' ' && s[j+1] != '\n' {
			k := j + 1
			for k < len(s) && s[k] != ' ' && s[k] != '\n' && s[k] != '\t' {
				k++
			}
			if prev != "" && glued(prev, s[j+1:k]) {
				b.WriteString(joiner)
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[j])
		if s[j] != ' ' {
			prev = ""
		}
		i = j + 1
	}
	return b.String()
}
