//go:build !exercise10

package rules

import "strings"

// The matching itself, which the exercise (exercise.go, -tags exercise10)
// replaces: match.go has what both share.

// walk is Match, telling step (if not nil) each level's move: the one
// code path for the decision and for Explain's trace.
func (d *Domain) walk(entries []Entry, step func(Step)) *Rule {
	level := &d.root
	var found *Rule
	for i, e := range entries {
		full := e.Key + "_" + e.Value
		how, name := Exact, full
		next := level.children[full]
		if next == nil {
			for _, w := range level.wildcards {
				if strings.HasPrefix(full, w.prefix) {
					how, name = Wildcard, w.child
					next = level.children[w.child]
					break
				}
			}
		}
		if next == nil {
			how, name = KeyOnly, e.Key
			next = level.children[e.Key]
		}
		if next != nil && next.rule != nil && i == len(entries)-1 {
			found = next.rule
		}
		report(step, e, how, name, next, i < len(entries)-1)
		if next == nil || len(next.children) == 0 {
			break
		}
		level = next
	}
	return found
}

// limitsToCheck matches every descriptor of a request and then applies the
// two rules that cross descriptors, as the reference does: a rule whose
// name another matched rule replaces is dropped (nil), and an unlimited rule
// is reported in unlimited[i] and counts nothing.
func (d *Domain) limitsToCheck(descs [][]Entry) (rules []*Rule, unlimited []bool) {
	rules = make([]*Rule, len(descs))
	unlimited = make([]bool, len(descs))
	var replaced map[string]bool
	for i, entries := range descs {
		r := d.Match(entries)
		if r == nil {
			continue
		}
		for _, name := range r.Replaces {
			if replaced == nil {
				replaced = map[string]bool{}
			}
			replaced[name] = true
		}
		if r.Unlimited {
			unlimited[i] = true
			continue
		}
		rules[i] = r
	}
	for i, r := range rules {
		if r != nil && r.Name != "" && replaced[r.Name] {
			rules[i] = nil
		}
	}
	return rules, unlimited
}
