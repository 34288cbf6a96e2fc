package rules

import (
	"bytes"
	"fmt"
	"strings"
)

// yamlParserProblems are the problems yaml.v3's parser (not its scanner)
// reports. For these it prints the mark's line as it holds it, counted
// from 0: a `{` left open on line 4 came back as "line 3". (It adds the
// missing 1 for scanner errors only; yaml.v2, which envoyproxy/ratelimit
// uses, prints 0-based lines too, but of the token where parsing stopped,
// which for a `{` left open at the end of a file is line 4's count.)
var yamlParserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected key":              true,
	"did not find expected '-' indicator":    true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found duplicate %TAG directive":         true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// syntaxError is a file yaml.v3 cannot parse, as a RuleError on the line a
// person should look at: the 1-based line of what yaml.v3 points to (the
// opening `{` or `[` it could not close), or the last line when that is the
// end of the file.
func syntaxError(file string, b []byte, err error) error {
	text := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if _, serr := fmt.Sscanf(text, "line %d:", &line); serr == nil {
		text = strings.TrimPrefix(text, fmt.Sprintf("line %d: ", line))
		if yamlParserProblems[text] {
			line++
		}
	}
	if last := bytes.Count(bytes.TrimRight(b, "\n"), []byte("\n")) + 1; line > last {
		line, text = last, text+" (at the end of the file)"
	}
	if line == 0 {
		line = 1
	}
	return &RuleError{File: file, Line: line, Field: "yaml", Msg: text}
}
