package ring

import (
	"fmt"

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
	if peers < 1 || peers > 64 {
		return Change{}, core.BadParam("peers", peers, "1 to 64")
	}
	names := make([]string, peers)
	for i := range names {
		names[i] = fmt.Sprintf("peer-%d", i+1)
	}
	before, err := NewRing(DefaultVNodes, names...)
	if err != nil {
		return Change{}, err
	}
	after, expected := before, 0.0
	switch event {
	case "join":
		after, err = before.With(fmt.Sprintf("peer-%d", peers+1))
		expected = 1 / float64(peers+1)
	case "leave":
		if peers < 2 {
			return Change{}, core.BadParam("peers", peers, "at least 2 for a peer to leave")
		}
		after, err = before.Without(names[peers-1])
		expected = 1 / float64(peers)
	case "none":
	default:
		return Change{}, core.BadParam("event", event, "join, leave or none")
	}
	if err != nil {
		return Change{}, err
	}
	ks := Keys(keys)
	return Change{Peers: peers, Event: event, Keys: keys, VNodes: DefaultVNodes,
		Before: before.Shares(ks), After: after.Shares(ks), Moved: Moved(before, after, ks), Expected: expected}, nil
}
