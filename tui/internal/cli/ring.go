package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/ratelimit-course/ratelimit/tui/internal/ringview"
)

const ringUsage = `usage: tui ring [--peers N] [--join|--leave] [--keys K] [--json]

Chapter 11's hash ring (512 virtual nodes per peer): which peer owns how many
of K sample keys (default 100000) among N peers (default 3), and with --join
(a peer joins) or --leave (the last peer leaves) the fraction of keys that
moved, beside 1/(N+1) for a join and 1/N for a leave.
`

// runRing is the headless ring report.
func runRing(args []string, stdout, stderr io.Writer) int {
	var asJSON, join, leave bool
	peers, keys := 3, 100000
	c := newCLIFlags("ring")
	c.integer("peers", "1 to 64", &peers)
	c.integer("keys", "1 to 1000000", &keys)
	c.boolean("join", &join)
	c.boolean("leave", &leave)
	c.boolean("json", &asJSON)
	if code, ok := c.parseAll(args, stdout, stderr, ringUsage); !ok {
		return code
	}
	if join && leave {
		return badInput(stderr, "ring", errors.New("--join and --leave: accepted one of them, not both"))
	}
	if keys < 1 || keys > 1000000 {
		return badInput(stderr, "ring", fmt.Errorf("--keys %d: accepted 1 to 1000000", keys))
	}
	event := map[bool]string{true: "join", false: "none"}[join]
	if leave {
		event = "leave"
	}
	ch, err := ringview.Simulate(peers, event, keys)
	if err != nil {
		return badInput(stderr, "ring", err)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(ch)
		return 0
	}
	fmt.Fprintf(stdout, "%d peers, %d virtual nodes each, %d keys\n", ch.Peers, ch.VNodes, ch.Keys)
	names := make([]string, 0, len(ch.After))
	for p := range ch.Before {
		names = append(names, p)
	}
	for p := range ch.After {
		if _, ok := ch.Before[p]; !ok {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	fmt.Fprintf(stdout, "%-8s %8s %8s\n", "peer", "before", "after")
	for _, p := range names {
		fmt.Fprintf(stdout, "%-8s %8d %8d\n", p, ch.Before[p], ch.After[p])
	}
	if ch.Event != "none" {
		fmt.Fprintf(stdout, "%s: %.3f of keys moved (a perfect split moves %.3f); their counts start over\n", ch.Event, ch.Moved, ch.Expected)
	}
	return 0
}
