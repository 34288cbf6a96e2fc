package service

// Entry is one (key, value) of a descriptor, as the proxy sends it.
type Entry struct{ Key, Value string }

// Match walks a domain's tree with one descriptor's entries, as
// envoyproxy/ratelimit's GetLimit does: at each level "key_value" first,
// then the level's trailing-* patterns in file order, then "key" alone
// (any value); the rule applies only when the last entry lands on a node
// that has one. A walk that finds nothing, or a node without children before
// the entries run out, matches no rule (nil): that descriptor is OK and
// counted nowhere.
func (d *domainRules) Match(entries []Entry) *Rule { return d.walk(entries, nil) }

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
