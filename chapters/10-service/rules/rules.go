package rules

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The example rules a learner reads first, one domain a file (api, which
// fails open, and payments, which fails closed); Options.Config "" loads them.
//
//go:embed *.yaml
var exampleRules embed.FS

const exampleDir = ""

// RuleError is a rules file refused: the file, the line, the field and what
// is wrong, on one line. The old rules stay in force when a reload gets one.
type RuleError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
}

// Rule is one rate_limit of the tree: where it sits (Path, the reference's
// full key such as "api.path_/login.remote_address"), what it allows and how
// it counts.
type Rule struct {
	Domain          string
	Path            string
	Name            string
	Replaces        []string
	Unit            Unit // the zero Unit when Unlimited
	RequestsPerUnit uint32
	Unlimited       bool
	Shadow          bool // shadow_mode: a refusal is answered OK
	Quota           bool // quota_mode: a refusal is answered OK unless shadow
	Algorithm       Algorithm
	File            string
	Line            int
}

// ID is a rule's identity: what must be equal for a reload to keep the
// rule's counters (and its deny cache entries).
type ID struct {
	path      string
	unit      Unit
	limit     uint32
	unlimited bool
	algorithm Algorithm
}

// ID is the rule's identity.
func (r *Rule) ID() ID {
	return ID{path: r.Path, unit: r.Unit, limit: r.RequestsPerUnit, unlimited: r.Unlimited, algorithm: r.Algorithm}
}

// Label is the rule's name in metrics: its name if it has one, else its path.
func (r *Rule) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return r.Path
}

// node is one level of a domain's tree: children by "key" or "key_value",
// the trailing-* patterns among them in file order, the rule that ends here,
// and share: a wildcard with share_threshold, whose values all count as one.
type node struct {
	children  map[string]*node
	wildcards []wildcard
	rule      *Rule
	share     bool
}

// wildcard is a child whose value ends in '*': it matches "key_value" by prefix.
type wildcard struct {
	prefix string // "key_val" for value "val*"
	child  string // the map key, "key_val*"
}

// Domain is one domain's tree and its failure mode ("" = the default);
// shares says whether any wildcard of it has share_threshold.
type Domain struct {
	name        string
	failureMode FailureMode
	root        node
	file        string
	shares      bool
}

// RuleSet is every domain loaded from one file or directory.
type RuleSet struct {
	domains map[string]*Domain
	rules   []*Rule
	source  string
}

// Rules lists every rule in load order.
func (s *RuleSet) Rules() []*Rule { return s.rules }

// Domain is the domain named name, or nil when the set has none.
func (s *RuleSet) Domain(name string) *Domain { return s.domains[name] }

// DomainNames lists the set's domains, sorted.
func (s *RuleSet) DomainNames() []string {
	names := make([]string, 0, len(s.domains))
	for n := range s.domains {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Source is where the set was loaded from, as the log names it.
func (s *RuleSet) Source() string { return s.source }

// Name is the domain's name.
func (d *Domain) Name() string { return d.name }

// FailureMode is the domain's own failure_mode ("" when it sets none).
func (d *Domain) FailureMode() FailureMode { return d.failureMode }

// The reference's YAML keys (its validKeys), and the course's two
// additions. MIGRATING.md, "Rule fields", says how each is decided.
var validKeys = map[string]bool{
	"domain": true, "key": true, "value": true, "descriptors": true, "rate_limit": true, "unit": true,
	"requests_per_unit": true, "unlimited": true, "shadow_mode": true, "quota_mode": true, "name": true,
	"replaces": true, "detailed_metric": true, "value_to_metric": true, "share_threshold": true,
	"algorithm": true, "failure_mode": true,
}

// LoadRules reads a rules file, or every *.yaml and *.yml file in a
// directory (sorted by name), or the embedded example rules when path is "".
// The first thing wrong is returned as a *RuleError.
func LoadRules(path string) (*RuleSet, error) {
	set := &RuleSet{domains: map[string]*Domain{}, source: path}
	if path == "" {
		files, _ := fs.Glob(exampleRules, exampleDir+"*.yaml") // sorted
		set.source = "rules/ (the embedded examples)"
		for _, f := range files {
			b, err := exampleRules.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if err := set.add(f, b); err != nil {
				return nil, err
			}
		}
		return set, nil
	}
	files, err := Files(path)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, &RuleError{File: f, Line: 0, Field: "file", Msg: err.Error()}
		}
		if err := set.add(f, b); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// Files is the rules files at path: path itself, or the *.yaml and *.yml
// files directly inside it, sorted; a *RuleError when there are none.
func Files(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &RuleError{File: path, Field: "config", Msg: "cannot read: " + err.Error()}
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, &RuleError{File: path, Field: "config", Msg: "cannot list: " + err.Error()}
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && !strings.HasPrefix(n, ".") && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			files = append(files, filepath.Join(path, n))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, &RuleError{File: path, Field: "config", Msg: "no *.yaml or *.yml file in the directory"}
	}
	return files, nil
}
