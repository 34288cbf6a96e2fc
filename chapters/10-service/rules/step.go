package rules

// How a walk moves: Explain (the service's explain.go) shows each Step
// of a descriptor's walk, and the walk reports them through report (match.go).

// How is how one entry moved down one level of a domain's tree.
type How int

const (
	NoMatch  How = iota // no child takes the entry: the walk ends, no rule
	Exact               // the child "key_value"
	Wildcard            // a child "key_prefix*" whose prefix the value starts with
	KeyOnly             // the child "key": any value, each its own counter
)

func (h How) String() string {
	return [...]string{"no match", "exact value", "wildcard", "key only"}[h]
}

// Step is one entry's move: how it matched and the child it took (its name
// in the tree, such as "path_/search*"), the rule on that child if any,
// and End when that child has no children while entries remain (the walk
// stops there and matches no rule).
type Step struct {
	Entry Entry
	How   How
	Node  string
	Rule  *Rule
	End   bool
}
