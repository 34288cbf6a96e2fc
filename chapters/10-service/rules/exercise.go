//go:build exercise10

package rules

// This file is your exercise. Built with `-tags exercise10` (make exercise
// CH=10), it stands in for the reference walk (walk.go, built without the
// tag), and the chapter's tests run against your
// matching: the whole service (E32, over gRPC and HTTP, in memory, in the
// package above this one) and the terminal app's Explain decide with it. The README's "Run the exercise"
// says which tests to pass in which order; match_test.go has the first.
//
// What you work on, all in rules.go (loading the YAML fills it in; you
// only read it):
//
//   - d.root is the domain's top level, a node. A node has children (a
//     map from the child's name to the child), wildcards (the level's
//     trailing-* children, in the order the file wrote them) and rule
//     (nil when the YAML put no rate_limit there).
//   - A child's name is "key_value" for a descriptor entry with a value,
//     "key" for one without (any value), and "key_prefix*" for a value
//     that ends in '*'. A wildcard has that name in child and "key_prefix"
//     (the '*' dropped) in prefix: it takes an entry whose "key_value"
//     starts with prefix.
//   - A Rule has Name ("" when unnamed), Replaces (names of other rules)
//     and Unlimited.

// Until you write them, walk matches nothing and limitsToCheck counts
// nothing: the tests fail with what they expected (exercise_test.go first
// names the function to write), and nothing panics.

// walk finds the rule that one descriptor's entries land on, or nil.
// Match (match.go) is walk(entries, nil).
//
// Start at &d.root. For each entry e, in order, find the child of the
// current level that takes it, trying in this order and keeping the first
// that exists:
//
//  1. exact: the child named e.Key + "_" + e.Value (found as Exact);
//  2. the first wildcard of the level, in file order, whose prefix that
//     same "key_value" string starts with (Wildcard, named w.child);
//  3. key only: the child named e.Key (KeyOnly): any value, each value
//     its own counter.
//
// The first child found is taken even if it has no rule and a later kind
// would have had one: the walk never goes back.
//
// Then call report(step, e, how, name, next, more) (match.go) once for
// this entry, next being the child found (nil if none) and more telling
// whether entries remain after e: that is how Explain traces your walk.
// Entries after the walk has stopped get no report.
//
// The rule applies only when the LAST entry lands on a child with a rule;
// a rule on the way does not count. The walk ends, matching nothing, when
// no child takes an entry, or when the child taken has no children while
// entries remain (the descriptor is deeper than the tree). Otherwise the
// child becomes the current level for the next entry. No entries at all:
// nil.
func (d *Domain) walk(entries []Entry, step func(Step)) *Rule {
	// TODO
	return nil
}

// limitsToCheck decides which rules a request counts: rules[i] for
// descriptor i (nil: counted nowhere), and unlimited[i] when descriptor i
// matched an unlimited rule. Both have len(descs) entries.
//
//  1. Match each descriptor (d.Match).
//  2. A matched rule that is Unlimited sets unlimited[i] and is not kept
//     in rules[i]: it answers OK and counts nothing.
//  3. replaces crosses descriptors: every name in the Replaces of any rule
//     matched in the request (an unlimited one's too) drops, from rules,
//     each kept rule of that Name, whether the replacing descriptor comes
//     before or after it; a replaced rule's own Replaces still apply. An
//     unnamed rule ("" Name) is never dropped.
func (d *Domain) limitsToCheck(descs [][]Entry) (rules []*Rule, unlimited []bool) {
	// TODO
	return make([]*Rule, len(descs)), make([]bool, len(descs))
}
