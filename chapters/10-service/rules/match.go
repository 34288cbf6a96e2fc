package rules

import "strings"

// Entry is one (key, value) of a descriptor, as the proxy sends it.
type Entry struct{ Key, Value string }

// Match walks a domain's tree with one descriptor's entries, as
// envoyproxy/ratelimit's GetLimit does: at each level "key_value" first,
// then the level's trailing-* patterns in file order, then "key" alone
// (any value); the rule applies only when the last entry lands on a node
// that has one. A walk that finds nothing, or a node without children before
// the entries run out, matches no rule (nil): that descriptor is OK and
// counted nowhere.
func (d *Domain) Match(entries []Entry) *Rule { return d.walk(entries, nil) }

// Walk is Match telling step (if not nil) each level's move, for Explain's
// trace: the walk the decision makes (walk.go's, or exercise.go's).
func (d *Domain) Walk(entries []Entry, step func(Step)) *Rule { return d.walk(entries, step) }

// LimitsToCheck is the rules a request counts, one a descriptor (nil:
// counted nowhere), and which descriptors matched an unlimited rule:
// limitsToCheck (walk.go's, or exercise.go's).
func (d *Domain) LimitsToCheck(descs [][]Entry) (rules []*Rule, unlimited []bool) {
	return d.limitsToCheck(descs)
}

// report tells step, when there is one, how entry e moved down one level
// of the tree for Explain's trace: the child next it took (nil: no child
// took it, the walk ends), how it was found and its name in the tree
// ("key_value", a wildcard's "key_prefix*", or "key"), and more when
// entries remain after e. walk calls it once per entry it looks at.
func report(step func(Step), e Entry, how How, name string, next *node, more bool) {
	if step == nil {
		return
	}
	st := Step{Entry: e, How: NoMatch}
	if next != nil {
		st.How, st.Node, st.Rule = how, name, next.rule
		st.End = len(next.children) == 0 && more
	}
	step(st)
}

// Counted is the entries a matched descriptor's counter is named by: its
// own, except that an entry a share_threshold wildcard took counts under
// the wildcard's value ("files/*"), so every value it takes shares one
// counter, as in the reference (GetLimit's ShareThresholdKeyPattern, used
// by GenerateCacheKey). It reads the walk's own trace, so it holds for the
// exercise's walk too. A value written as the pattern itself lands on the
// wildcard by its exact name and so on the same counter, as there.
func (d *Domain) Counted(entries []Entry) []Entry {
	if !d.shares {
		return entries
	}
	out, level, i, copied := entries, &d.root, 0, false
	d.walk(entries, func(st Step) {
		var next *node
		if level != nil && st.How != NoMatch {
			next = level.children[st.Node]
		}
		if st.How == Wildcard && next != nil && next.share {
			if !copied {
				out, copied = append([]Entry(nil), entries...), true
			}
			out[i].Value = strings.TrimPrefix(st.Node, st.Entry.Key+"_")
		}
		level, i = next, i+1
	})
	return out
}
