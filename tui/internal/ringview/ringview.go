// Package ringview is what the app's ring screen and `tui ring` show of
// chapter 11's ring: the rings before and after a peer joins or leaves, who
// owns how many sample keys, and the fraction that moved.
package ringview

import (
	"fmt"

	ring "github.com/ratelimit-course/ratelimit/chapters/11-ring"
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
	ks := make([]string, keys)
	for i := range ks {
		ks[i] = fmt.Sprintf("key-%d", i)
	}
	return Change{Peers: peers, Event: event, Keys: keys, VNodes: ring.DefaultVNodes,
		Before: shares(before, ks), After: shares(after, ks), Moved: ring.Moved(before, after, ks), Expected: expected}, nil
}

// shares counts the keys each peer of r owns.
func shares(r *ring.Ring, keys []string) map[string]int {
	s := map[string]int{}
	for _, p := range r.Peers() {
		s[p] = 0
	}
	for _, k := range keys {
		s[r.Owner(k)]++
	}
	return s
}

// Rings returns the ring of peer-1 … peer-N before and after event, and the
// fraction of keys a perfect split would move: 1/(N+1) for a join, 1/N for
// a leave.
func Rings(peers int, event string) (before, after *ring.Ring, expected float64, err error) {
	if peers < 1 || peers > 64 {
		return nil, nil, 0, core.BadParam("peers", peers, "1 to 64")
	}
	names := make([]string, peers)
	for i := range names {
		names[i] = fmt.Sprintf("peer-%d", i+1)
	}
	if before, err = ring.NewRing(ring.DefaultVNodes, names...); err != nil {
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
