package doclint

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A figure the text calls measured names how to measure it again: in its
// paragraph or the one after it (the table it introduces), a command (`go test …`, `go run …`, `make …`), a test or
// benchmark by name, or the chapter or worked example (E12) whose
// measurement it quotes.
var (
	fence       = regexp.MustCompile("(?s)```.*?```")
	measuredFig = regexp.MustCompile(`(?i)\bmeasured\b`)
	digit       = regexp.MustCompile(`[0-9]`)
	sentenceEnd = regexp.MustCompile(`[.!?](\s|$)`)
	regenerates = regexp.MustCompile("`(go (test|run|build)|make |redis-cli|go tool)[^`]*`|\\b(Test|Benchmark|Fuzz)[A-Z0-9_]\\w*|\\bmake [a-z]|\\b[Cc]hapter \\d\\d|\\bch \\d\\d|\\bE\\d\\d?\\b")
)

// measuredElsewhere are paragraphs this test does not hold yet, by file and
// their first words, each with the reason.
var measuredElsewhere = map[string]string{}

func TestMeasuredFiguresNameTheirCommand(t *testing.T) {
	checked := 0
	eachMarkdown(t, func(f, text string) {
		name, _ := filepath.Rel(root, f)
		paras := strings.Split(fence.ReplaceAllString(text, ""), "\n\n")
		for i, para := range paras {
			next := ""
			if i+1 < len(paras) {
				next = paras[i+1]
			}
			if !measuredFig.MatchString(para) || regenerates.MatchString(para+"\n"+next) {
				checked++
				continue
			}
			first := strings.TrimSpace(para)
			skip := false
			for k := range measuredElsewhere {
				file, start, _ := strings.Cut(k, "|")
				skip = skip || file == name && strings.HasPrefix(first, start)
			}
			if skip {
				continue
			}
			for _, s := range sentences(para) {
				if measuredFig.MatchString(s) && digit.MatchString(s) {
					t.Errorf("%s: %q quotes a measured figure and its paragraph names no command, test or chapter that measures it",
						name, strings.Join(strings.Fields(s), " "))
				}
			}
		}
	})
	if checked < 20 {
		t.Fatalf("%d paragraphs checked, want at least 20", checked)
	}
}

// sentences cuts a paragraph after each '.', '!' or '?' that a space or
// its end follows.
func sentences(para string) []string {
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(para)
		if loc == nil {
			return append(out, para)
		}
		out = append(out, para[:loc[0]+1])
		para = para[loc[1]:]
	}
}
