package rules

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ratelimit-course/ratelimit/core"
)

// The rules parser walks yaml.v3's node tree rather than decoding into
// structs, so that every error can name the line it is on: one file, one
// line, one field, as a person fixing it needs.

// add parses one file's domain into the set.
func (s *RuleSet) add(file string, b []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return syntaxError(file, b, err)
	}
	if len(doc.Content) == 0 {
		return &RuleError{File: file, Line: 1, Field: "domain", Msg: "empty file: a rules file names a domain"}
	}
	p := parser{file: file}
	if err := p.noDuplicateKeys(&doc); err != nil {
		return err
	}
	root := doc.Content[0]
	if err := p.mapping(root, "domain"); err != nil {
		return err
	}
	d := &Domain{file: file, root: node{children: map[string]*node{}}}
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
			var mode string
			if err := p.str(v, "failure_mode", &mode); err != nil {
				return err
			}
			var err error
			if d.failureMode, err = ParseFailureMode(mode); err != nil {
				return p.err(v, "failure_mode", fmt.Sprintf("%q: accepted open or closed", mode))
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
	d.shares = hasShare(&d.root)
	s.domains[d.name] = d
	return nil
}

// noDuplicateKeys refuses a key written twice in one mapping, anywhere in
// the file. yaml.v3 refuses one only when it decodes into a map or a
// struct, not into nodes, and here the last value won: two `domain:` lines
// made the whole first domain vanish, two `requests_per_unit:` kept the
// second limit without a word.
func (p parser) noDuplicateKeys(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if f, dup := first[k.Value]; dup {
				return p.err(k, k.Value, fmt.Sprintf("duplicate key (first on line %d): one of the two values would be lost", f.Line))
			}
			first[k.Value] = k
		}
	}
	for _, c := range n.Content {
		if err := p.noDuplicateKeys(c); err != nil {
			return err
		}
	}
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
		if err := p.descriptor(item, parent, domain, prefix, out); err != nil {
			return err
		}
	}
	return nil
}

// descriptorFields is what one descriptor's mapping holds, read but not
// yet checked.
type descriptorFields struct {
	key, value      string
	shadow, quota   bool
	share           bool
	rl, children    *yaml.Node // nil when absent
	modeAt, shareAt *yaml.Node // the first mode set true, share_threshold: where an error points
}

// descriptor loads one item of a descriptors list into parent: its key
// checks, its rule if it has a rate_limit, and its own descriptors below it.
func (p parser) descriptor(item *yaml.Node, parent *node, domain, prefix string, out *[]*Rule) error {
	f, err := p.descriptorKeys(item)
	if err != nil {
		return err
	}
	if f.key == "" {
		return p.err(item, "key", "descriptor has an empty key")
	}
	final := f.key
	if f.value != "" {
		final += "_" + f.value
	}
	if _, dup := parent.children[final]; dup {
		return p.err(item, "key", fmt.Sprintf("duplicate descriptor composite key '%s%s'", prefix, final))
	}
	if i := strings.IndexByte(final, '*'); i >= 0 && i != len(final)-1 {
		return p.err(item, "value", fmt.Sprintf("%q: '*' is accepted only at the end of a value", f.value))
	}
	if f.share && !strings.HasSuffix(final, "*") {
		return p.err(f.shareAt, "share_threshold", fmt.Sprintf("can only be used with a wildcard value (ending in '*'), but found key '%s'", final))
	}
	if f.modeAt != nil && f.rl == nil {
		return p.err(f.modeAt, f.modeAt.Value, "applies to the rate_limit of its own descriptor, and this one has no rate_limit (the descriptors below do not inherit it)")
	}
	n := &node{children: map[string]*node{}, share: f.share}
	if f.rl != nil {
		r, err := p.rateLimit(f.rl, domain, prefix+final)
		if err != nil {
			return err
		}
		r.Shadow, r.Quota = f.shadow, f.quota
		n.rule = r
		*out = append(*out, r)
	}
	if strings.HasSuffix(final, "*") {
		parent.wildcards = append(parent.wildcards, wildcard{prefix: strings.TrimSuffix(final, "*"), child: final})
	}
	if f.children != nil {
		if err := p.descriptors(f.children, n, domain, prefix+final+".", out); err != nil {
			return err
		}
	}
	parent.children[final] = n
	return nil
}

// descriptorKeys reads the keys of one descriptor's mapping, refusing
// one that is unknown or not accepted in a descriptor.
func (p parser) descriptorKeys(item *yaml.Node) (descriptorFields, error) {
	var f descriptorFields
	if err := p.mapping(item, "descriptors"); err != nil {
		return f, err
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		if err := p.known(k); err != nil {
			return f, err
		}
		var err error
		switch k.Value {
		case "key":
			err = p.str(v, "key", &f.key)
		case "value":
			err = p.str(v, "value", &f.value)
		case "shadow_mode":
			err = p.mode(k, v, &f.shadow, &f.modeAt)
		case "quota_mode":
			err = p.mode(k, v, &f.quota, &f.modeAt)
		case "share_threshold":
			f.shareAt = k
			err = p.boolean(v, "share_threshold", &f.share)
		case "detailed_metric":
			// It names the reference's statsd series by the request's
			// values; the metrics here are labelled by rule, whatever it says.
			var detailed bool
			err = p.mode(k, v, &detailed, &f.modeAt)
		case "value_to_metric":
			var toMetric bool // statsd names only, as detailed_metric
			err = p.boolean(v, "value_to_metric", &toMetric)
		case "rate_limit":
			f.rl = v
		case "descriptors":
			f.children = v
		default:
			err = p.err(k, k.Value, "not accepted in a descriptor")
		}
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// mode reads a boolean of the descriptor's rate_limit (shadow_mode,
// quota_mode, detailed_metric) into out, and remembers the first set true:
// without a rate_limit beside it, it would change nothing.
func (p parser) mode(k, v *yaml.Node, out *bool, at **yaml.Node) error {
	if err := p.boolean(v, k.Value, out); err != nil {
		return err
	}
	if *out && *at == nil {
		*at = k
	}
	return nil
}

// hasShare reports whether any wildcard under n has share_threshold.
func hasShare(n *node) bool {
	for _, c := range n.children {
		if c.share || hasShare(c) {
			return true
		}
	}
	return false
}

// rateLimit loads one rate_limit block, with the reference's checks (a unit
// second…year unless unlimited, none when unlimited; replaces entries
// non-empty and not the rule's own name) and the course's bounds.
func (p parser) rateLimit(m *yaml.Node, domain, path string) (*Rule, error) {
	if err := p.mapping(m, "rate_limit"); err != nil {
		return nil, err
	}
	r := &Rule{Domain: domain, Path: path, Algorithm: AlgoFixedWindow, File: p.file, Line: m.Line}
	f, err := p.rateLimitKeys(m, r)
	if err != nil {
		return nil, err
	}
	if err := p.unit(m, r, f); err != nil {
		return nil, err
	}
	for _, rep := range r.Replaces {
		if rep == r.Name {
			return nil, p.err(m, "replaces", "should not contain name of same descriptor")
		}
	}
	return r, nil
}

// rateLimitFields is what the checks after a rate_limit block's keys need:
// the unit as written, lower-cased, and the nodes of unit and
// requests_per_unit (nil when absent), whose lines their errors name.
type rateLimitFields struct {
	unit              string
	unitNode, rpuNode *yaml.Node
}

// rateLimitKeys reads the keys of a rate_limit block into r, refusing one
// that is unknown or not accepted there.
func (p parser) rateLimitKeys(m *yaml.Node, r *Rule) (rateLimitFields, error) {
	var f rateLimitFields
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if err := p.known(k); err != nil {
			return f, err
		}
		var err error
		switch k.Value {
		case "unit":
			f.unitNode = v
			err = p.str(v, "unit", &f.unit)
			f.unit = strings.ToLower(f.unit)
		case "requests_per_unit":
			f.rpuNode = v
			n, perr := strconv.ParseUint(v.Value, 10, 32)
			if v.Kind != yaml.ScalarNode || perr != nil {
				return f, p.err(v, "requests_per_unit", fmt.Sprintf("%q: expected a whole number from 0 to %d", v.Value, core.MaxCount))
			}
			r.RequestsPerUnit = uint32(n)
		case "unlimited":
			err = p.boolean(v, "unlimited", &r.Unlimited)
		case "name":
			err = p.str(v, "name", &r.Name)
		case "algorithm":
			var name string
			if err = p.str(v, "algorithm", &name); err == nil {
				if r.Algorithm, err = parseAlgorithm(name); err != nil {
					err = p.err(v, "algorithm", err.Error())
				}
			}
		case "replaces":
			err = p.replaces(v, r)
		default:
			err = p.err(k, k.Value, "not accepted in rate_limit")
		}
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// unit sets r.Unit from the unit read: none when unlimited, and then
// writing one is an error; otherwise one of second…year is required, and
// requests_per_unit is held to the course's bound.
func (p parser) unit(m *yaml.Node, r *Rule, f rateLimitFields) error {
	var validUnit bool
	r.Unit, validUnit = ParseUnit(f.unit)
	switch {
	case r.Unlimited && validUnit:
		return p.err(f.unitNode, "unit", "should not specify rate limit unit when unlimited")
	case r.Unlimited:
		r.Unit = 0
	case !validUnit:
		at := m
		if f.unitNode != nil {
			at = f.unitNode
		}
		return p.err(at, "unit", fmt.Sprintf("invalid rate limit unit '%s': accepted second, minute, hour, day, week, month or year", f.unit))
	case r.RequestsPerUnit > core.MaxCount:
		return p.err(f.rpuNode, "requests_per_unit", fmt.Sprintf("%d: accepted 0 to %d (the course's domain)", r.RequestsPerUnit, core.MaxCount))
	}
	return nil
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
