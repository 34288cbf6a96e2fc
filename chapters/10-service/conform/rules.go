package conform

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/peer"
)

// The rules are E33's (peer/rules, embedded), written with every domain
// renamed with one suffix: edge-S, internal-S (and the unknown domain
// nowhere-S). A new suffix each time they are written gives the target
// counters no earlier run has touched, whatever its store remembers.

// ruleFiles are the files written, each with the domain it names.
var ruleFiles = []struct{ file, domain string }{{"edge.yaml", "edge"}, {"internal.yaml", "internal"}}

// domainLine is a rules file's domain line.
var domainLine = regexp.MustCompile(`(?m)^domain:[ \t]*(\S+)[ \t]*$`)

// writeRules writes the rules into dir (created if need be), each domain
// renamed with suffix.
func writeRules(dir, suffix string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--write-rules: %v", err)
	}
	for _, f := range ruleFiles {
		text, err := fs.ReadFile(peer.Rules, "rules/"+f.file)
		if err != nil {
			return err
		}
		text = domainLine.ReplaceAll(text, []byte("domain: "+f.domain+suffix))
		if err := os.WriteFile(filepath.Join(dir, f.file), text, 0o644); err != nil {
			return fmt.Errorf("--write-rules: %v", err)
		}
	}
	return nil
}

// readSuffix reads back the suffix of rules that writeRules wrote in dir:
// an error names the file that is missing or not as written.
func readSuffix(dir string) (string, error) {
	suffix := ""
	for i, f := range ruleFiles {
		text, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			return "", fmt.Errorf("--rules-dir: %v (accepted: a directory written by --write-rules)", err)
		}
		m := domainLine.FindSubmatch(text)
		if m == nil || !bytes.HasPrefix(m[1], []byte(f.domain)) {
			return "", fmt.Errorf("--rules-dir: %s: no line \"domain: %s…\" (accepted: a directory written by --write-rules)",
				filepath.Join(dir, f.file), f.domain)
		}
		s := string(m[1][len(f.domain):])
		if i > 0 && s != suffix {
			return "", fmt.Errorf("--rules-dir: %s names domain %s, not %s%s: the files were not written together",
				filepath.Join(dir, f.file), m[1], f.domain, suffix)
		}
		suffix = s
	}
	return suffix, nil
}
