package ring

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ratelimit-course/ratelimit/core"
)

// Change is what one membership change does to a ring's keys: who owns how
// many before and after, and the fraction that moved (their counts start
// over on the new owner) beside the fraction a perfect split would move.
type Change struct {
	Peers    int            `json:"peers"`
	Event    string         `json:"event"` // "join", "leave" or "none"
	Keys     int            `json:"keys"`
	VNodes   int            `json:"vnodes"`
	Before   map[string]int `json:"before"`
	After    map[string]int `json:"after"`
	Moved    float64        `json:"moved"`
	Expected float64        `json:"expected"`
}

// Simulate builds a ring of peers named peer-1 … peer-N, applies event (a
// peer-(N+1) joins, peer-N leaves, or nothing) and counts where keys sample
// keys go.
func Simulate(peers int, event string, keys int) (Change, error) {
	before, after, expected, err := Rings(peers, event)
	if err != nil {
		return Change{}, err
	}
	ks := Keys(keys)
	return Change{Peers: peers, Event: event, Keys: keys, VNodes: DefaultVNodes,
		Before: before.Shares(ks), After: after.Shares(ks), Moved: Moved(before, after, ks), Expected: expected}, nil
}

// Rings returns the ring of peer-1 … peer-N before and after event, and the
// fraction of keys a perfect split would move: 1/(N+1) for a join, 1/N for
// a leave.
func Rings(peers int, event string) (before, after *Ring, expected float64, err error) {
	if peers < 1 || peers > 64 {
		return nil, nil, 0, core.BadParam("peers", peers, "1 to 64")
	}
	names := make([]string, peers)
	for i := range names {
		names[i] = fmt.Sprintf("peer-%d", i+1)
	}
	if before, err = NewRing(DefaultVNodes, names...); err != nil {
		return nil, nil, 0, err
	}
	switch event {
	case "join":
		after, err = before.With(fmt.Sprintf("peer-%d", peers+1))
		expected = 1 / float64(peers+1)
	case "leave":
		if peers < 2 {
			return nil, nil, 0, core.BadParam("peers", peers, "at least 2 for a peer to leave")
		}
		after, err = before.Without(names[peers-1])
		expected = 1 / float64(peers)
	case "none":
		after = before
	default:
		err = core.BadParam("event", event, "join, leave or none")
	}
	return before, after, expected, err
}

// Arcs divides the circle into cells equal arcs and names the owner of the
// start of each: the ring as a strip, for the app's ring screen.
func (r *Ring) Arcs(cells int) []string {
	out := make([]string, max(cells, 0))
	for i := range out {
		h := uint64(float64(i) / float64(cells) * (1 << 64))
		j, _ := slices.BinarySearchFunc(r.points, h, func(p point, h uint64) int { return cmp.Compare(p.hash, h) })
		out[i] = r.points[j%len(r.points)].peer
	}
	return out
}
