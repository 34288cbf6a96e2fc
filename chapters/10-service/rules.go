package service

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ratelimit-course/ratelimit/core"
)

// The example rules a learner reads first; Options.Config "" loads them.
//
//go:embed rules/example.yaml
var exampleRules embed.FS

const exampleFile = "rules/example.yaml"

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

// Units are envoyproxy/ratelimit's, in seconds: a month is 30 days and a
// year 365, and every window is aligned to the Unix epoch.
var units = map[string]int64{
	"second": 1, "minute": 60, "hour": 3600, "day": 86400,
	"week": 7 * 86400, "month": 30 * 86400, "year": 365 * 86400,
}

// Algorithms a rule may name in its course field `algorithm`. The default is
// the reference's only one.
const (
	AlgoFixedWindow    = "fixed-window"
	AlgoSlidingCounter = "sliding-counter"
	AlgoTokenBucket    = "token-bucket"
	AlgoGCRA           = "gcra"
)

var algorithms = map[string]bool{AlgoFixedWindow: true, AlgoSlidingCounter: true, AlgoTokenBucket: true, AlgoGCRA: true}

// Rule is one rate_limit of the tree: where it sits (Path, the reference's
// full key such as "api.path_/login.remote_address"), what it allows and how
// it counts.
type Rule struct {
	Domain          string
	Path            string
	Name            string
	Replaces        []string
	Unit            string // "second" … "year"; "" when Unlimited
	RequestsPerUnit uint32
	Unlimited       bool
	Shadow          bool
	Algorithm       string
	File            string
	Line            int
}

// Seconds is the rule's window (its unit) in seconds.
func (r *Rule) Seconds() int64 { return units[r.Unit] }

// signature is what must be equal for a reload to keep a rule's counters.
func (r *Rule) signature() string {
	return fmt.Sprintf("%s|%s|%d|%t|%s", r.Path, r.Unit, r.RequestsPerUnit, r.Unlimited, r.Algorithm)
}

// Label is the rule's name in metrics: its name if it has one, else its path.
func (r *Rule) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return r.Path
}

// node is one level of a domain's tree: children by "key" or "key_value",
// the trailing-* patterns among them in file order, and the rule that ends here.
type node struct {
	children  map[string]*node
	wildcards []wildcard
	rule      *Rule
}

// wildcard is a child whose value ends in '*': it matches "key_value" by prefix.
type wildcard struct {
	prefix string // "key_val" for value "val*"
	child  string // the map key, "key_val*"
}

// domainRules is one domain's tree and its failure mode ("" = the default).
type domainRules struct {
	name        string
	failureMode string
	root        node
	file        string
}

// RuleSet is every domain loaded from one file or directory.
type RuleSet struct {
	domains map[string]*domainRules
	rules   []*Rule
	source  string
}

// Rules lists every rule in load order.
func (s *RuleSet) Rules() []*Rule { return s.rules }

// The reference's YAML keys, and the course's two additions.
var validKeys = map[string]bool{
	"domain": true, "key": true, "value": true, "descriptors": true, "rate_limit": true, "unit": true,
	"requests_per_unit": true, "unlimited": true, "shadow_mode": true, "quota_mode": true, "name": true,
	"replaces": true, "detailed_metric": true, "value_to_metric": true, "share_threshold": true, "metadata": true,
	"algorithm": true, "failure_mode": true,
}

// LoadRules reads a rules file, or every *.yaml and *.yml file in a
// directory (sorted by name), or the embedded example rules when path is "".
// The first thing wrong is returned as a *RuleError.
func LoadRules(path string) (*RuleSet, error) {
	set := &RuleSet{domains: map[string]*domainRules{}, source: path}
	if path == "" {
		b, err := exampleRules.ReadFile(exampleFile)
		if err != nil {
			return nil, err
		}
		set.source = exampleFile
		return set, set.add(exampleFile, b)
	}
	files, err := ruleFiles(path)
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

// ruleFiles is path itself, or the YAML files directly inside it.
func ruleFiles(path string) ([]string, error) {
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

// add parses one file's domain into the set.
func (s *RuleSet) add(file string, b []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		line := 0 // yaml.v3 puts the line in the message: "yaml: line 3: …"
		fmt.Sscanf(err.Error(), "yaml: line %d:", &line)
		return &RuleError{File: file, Line: line, Field: "yaml", Msg: strings.TrimPrefix(err.Error(), fmt.Sprintf("yaml: line %d: ", line))}
	}
	if len(doc.Content) == 0 {
		return &RuleError{File: file, Line: 1, Field: "domain", Msg: "empty file: a rules file names a domain"}
	}
	p := parser{file: file}
	root := doc.Content[0]
	if err := p.mapping(root, "domain"); err != nil {
		return err
	}
	d := &domainRules{file: file, root: node{children: map[string]*node{}}}
	var descs *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if err := p.known(k); err != nil {
			return err
		}
		switch k.Value {
		case "domain":
			if err := p.str(v, "domain", &d.name); err != nil {
				return err
			}
		case "failure_mode":
			if err := p.str(v, "failure_mode", &d.failureMode); err != nil {
				return err
			}
			if d.failureMode != "open" && d.failureMode != "closed" {
				return p.err(v, "failure_mode", fmt.Sprintf("%q: accepted open or closed", d.failureMode))
			}
		case "descriptors":
			descs = v
		default:
			return p.err(k, k.Value, "not accepted at the top level (domain, failure_mode, descriptors)")
		}
	}
	if d.name == "" {
		return p.err(root, "domain", "missing or empty: a rules file names a domain")
	}
	if old, dup := s.domains[d.name]; dup {
		return p.err(root, "domain", fmt.Sprintf("duplicate domain %q (also in %s)", d.name, old.file))
	}
	if descs != nil {
		if err := p.descriptors(descs, &d.root, d.name, d.name+".", &s.rules); err != nil {
			return err
		}
	}
	s.domains[d.name] = d
	return nil
}

// parser carries the file name into every error.
type parser struct{ file string }

func (p parser) err(n *yaml.Node, field, msg string) error {
	return &RuleError{File: p.file, Line: n.Line, Field: field, Msg: msg}
}

func (p parser) known(k *yaml.Node) error {
	if !validKeys[k.Value] {
		return p.err(k, k.Value, "unknown key")
	}
	return nil
}

func (p parser) mapping(n *yaml.Node, field string) error {
	if n.Kind != yaml.MappingNode {
		return p.err(n, field, "expected a mapping of keys to values")
	}
	return nil
}

func (p parser) str(n *yaml.Node, field string, out *string) error {
	if n.Kind != yaml.ScalarNode {
		return p.err(n, field, "expected a string")
	}
	*out = n.Value
	return nil
}

func (p parser) boolean(n *yaml.Node, field string, out *bool) error {
	if n.Kind != yaml.ScalarNode || n.Decode(out) != nil {
		return p.err(n, field, fmt.Sprintf("%q: expected true or false", n.Value))
	}
	return nil
}

// descriptors loads one list of descriptors into parent, as the reference's
// loadDescriptors does: the map key is "key" or "key_value", a duplicate is
// refused, and a value ending in '*' is also a prefix pattern.
func (p parser) descriptors(list *yaml.Node, parent *node, domain, prefix string, out *[]*Rule) error {
	if list.Kind != yaml.SequenceNode {
		return p.err(list, "descriptors", "expected a list")
	}
	for _, item := range list.Content {
		if err := p.mapping(item, "descriptors"); err != nil {
			return err
		}
		var key, value string
		var shadow bool
		var rl, children *yaml.Node
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			if err := p.known(k); err != nil {
				return err
			}
			var err error
			switch k.Value {
			case "key":
				err = p.str(v, "key", &key)
			case "value":
				err = p.str(v, "value", &value)
			case "shadow_mode":
				err = p.boolean(v, "shadow_mode", &shadow)
			case "rate_limit":
				rl = v
			case "descriptors":
				children = v
			case "quota_mode", "detailed_metric", "value_to_metric", "share_threshold", "metadata":
				// The reference's metric and quota options: accepted, no effect here.
			default:
				err = p.err(k, k.Value, "not accepted in a descriptor")
			}
			if err != nil {
				return err
			}
		}
		if key == "" {
			return p.err(item, "key", "descriptor has an empty key")
		}
		final := key
		if value != "" {
			final += "_" + value
		}
		if _, dup := parent.children[final]; dup {
			return p.err(item, "key", fmt.Sprintf("duplicate descriptor composite key '%s%s'", prefix, final))
		}
		if i := strings.IndexByte(final, '*'); i >= 0 && i != len(final)-1 {
			return p.err(item, "value", fmt.Sprintf("%q: '*' is accepted only at the end of a value", value))
		}
		n := &node{children: map[string]*node{}}
		if rl != nil {
			r, err := p.rateLimit(rl, domain, prefix+final)
			if err != nil {
				return err
			}
			r.Shadow = shadow
			n.rule = r
			*out = append(*out, r)
		}
		if strings.HasSuffix(final, "*") {
			parent.wildcards = append(parent.wildcards, wildcard{prefix: strings.TrimSuffix(final, "*"), child: final})
		}
		if children != nil {
			if err := p.descriptors(children, n, domain, prefix+final+".", out); err != nil {
				return err
			}
		}
		parent.children[final] = n
	}
	return nil
}

// rateLimit loads one rate_limit block, with the reference's checks (a unit
// second…year unless unlimited, none when unlimited; replaces entries
// non-empty and not the rule's own name) and the course's bounds.
func (p parser) rateLimit(m *yaml.Node, domain, path string) (*Rule, error) {
	if err := p.mapping(m, "rate_limit"); err != nil {
		return nil, err
	}
	r := &Rule{Domain: domain, Path: path, Algorithm: AlgoFixedWindow, File: p.file, Line: m.Line}
	var unitNode, rpuNode *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if err := p.known(k); err != nil {
			return nil, err
		}
		var err error
		switch k.Value {
		case "unit":
			unitNode = v
			err = p.str(v, "unit", &r.Unit)
			r.Unit = strings.ToLower(r.Unit)
		case "requests_per_unit":
			rpuNode = v
			n, perr := strconv.ParseUint(v.Value, 10, 32)
			if v.Kind != yaml.ScalarNode || perr != nil {
				return nil, p.err(v, "requests_per_unit", fmt.Sprintf("%q: expected a whole number from 0 to %d", v.Value, core.MaxCount))
			}
			r.RequestsPerUnit = uint32(n)
		case "unlimited":
			err = p.boolean(v, "unlimited", &r.Unlimited)
		case "name":
			err = p.str(v, "name", &r.Name)
		case "algorithm":
			err = p.str(v, "algorithm", &r.Algorithm)
			if err == nil && !algorithms[r.Algorithm] {
				err = p.err(v, "algorithm", fmt.Sprintf("%q: accepted fixed-window, sliding-counter, token-bucket or gcra", r.Algorithm))
			}
		case "replaces":
			err = p.replaces(v, r)
		default:
			err = p.err(k, k.Value, "not accepted in rate_limit")
		}
		if err != nil {
			return nil, err
		}
	}
	_, validUnit := units[r.Unit]
	switch {
	case r.Unlimited && validUnit:
		return nil, p.err(unitNode, "unit", "should not specify rate limit unit when unlimited")
	case r.Unlimited:
		r.Unit = ""
	case !validUnit:
		at := m
		if unitNode != nil {
			at = unitNode
		}
		return nil, p.err(at, "unit", fmt.Sprintf("invalid rate limit unit '%s': accepted second, minute, hour, day, week, month or year", r.Unit))
	case r.RequestsPerUnit > core.MaxCount:
		return nil, p.err(rpuNode, "requests_per_unit", fmt.Sprintf("%d: accepted 0 to %d (the course's domain)", r.RequestsPerUnit, core.MaxCount))
	}
	for _, rep := range r.Replaces {
		if rep == r.Name {
			return nil, p.err(m, "replaces", "should not contain name of same descriptor")
		}
	}
	return r, nil
}

// replaces reads a list of {name: …}.
func (p parser) replaces(v *yaml.Node, r *Rule) error {
	if v.Kind != yaml.SequenceNode {
		return p.err(v, "replaces", "expected a list of {name: …}")
	}
	for _, e := range v.Content {
		if err := p.mapping(e, "replaces"); err != nil {
			return err
		}
		name := ""
		for i := 0; i+1 < len(e.Content); i += 2 {
			if e.Content[i].Value != "name" {
				return p.err(e.Content[i], "replaces", fmt.Sprintf("unknown key %q (accepted: name)", e.Content[i].Value))
			}
			if err := p.str(e.Content[i+1], "name", &name); err != nil {
				return err
			}
		}
		if name == "" {
			return p.err(e, "replaces", "should not have an empty replaces entry")
		}
		r.Replaces = append(r.Replaces, name)
	}
	return nil
}
