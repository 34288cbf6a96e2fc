package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/sim"
	"github.com/ratelimit-course/ratelimit/core"
)

const prefetchUsage = `usage: tui prefetch [--nodes 4] [--per-node 2] [--limit 20] [--batch 8]
                    [--order 1,2,1,2,2] [--rtt 1] [--json]

Replays one window of requests against a central counter (one round trip per
request) and with local quota prefetch (each node borrows --batch permits per
round trip). --order lists the node of each request; without it every node gets
--per-node requests, round-robin. At most %d requests in all.

Neither design admits more than --limit in the window. That holds per aligned
window only: across a window edge either can admit 2 × limit within one
window's width, as any fixed window can.
`

// prefetchJSON is the CONTRACT-CLI.md §4 shape of `prefetch --json`.
type prefetchJSON struct {
	Central  sim.CentralMetrics  `json:"central"`
	Prefetch sim.PrefetchMetrics `json:"prefetch"`
	Nodes    []sim.NodeQuota     `json:"nodes"`
}

// runPrefetch is the headless chapter 06 prefetch simulation (CONTRACT-CLI.md §4).
func runPrefetch(args []string, stdout, stderr io.Writer) int {
	cfg, asJSON, err := parsePrefetchArgs(args)
	if isHelp(err) {
		fmt.Fprintf(stdout, prefetchUsage, sim.MaxRequests)
		return 0
	}
	if err != nil {
		return badInput(stderr, "prefetch", err)
	}
	res, err := sim.Prefetch(cfg)
	if err != nil {
		return badInput(stderr, "prefetch", err)
	}
	if asJSON {
		writeJSON(stdout, prefetchJSON{Central: res.Central, Prefetch: res.Prefetch, Nodes: res.Nodes})
	} else {
		writePrefetchTable(stdout, res)
	}
	return 0
}

// parsePrefetchArgs reads the flags. Malformed values come back as a
// *core.ParamError naming the flag, like out-of-range ones do.
func parsePrefetchArgs(args []string) (sim.PrefetchConfig, bool, error) {
	cfg := sim.PrefetchConfig{Nodes: 4, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	var asJSON bool
	c := newCLIFlags("prefetch")
	c.integer("nodes", fmt.Sprintf("an integer from 1 to %d", sim.MaxNodes), &cfg.Nodes)
	c.integer("per-node", fmt.Sprintf("an integer from 0 to %d / --nodes", sim.MaxRequests), &cfg.PerNode)
	c.integer("limit", fmt.Sprintf("an integer from 0 to %d", sim.MaxLimit), &cfg.Limit)
	c.integer("batch", fmt.Sprintf("an integer from 1 to %d", sim.MaxLimit), &cfg.Batch)
	c.value("order", orderAccept, func(s string) (err error) { cfg.Order, err = parseOrder(s); return err })
	c.value("rtt", fmt.Sprintf("an integer number of ms from 0 to %d", sim.MaxRTTMS),
		func(s string) (err error) { cfg.RTTMS, err = strconv.ParseInt(s, 10, 64); return err })
	c.boolean("json", &asJSON)
	if err := c.parse(args); err != nil {
		return cfg, false, err
	}
	if c.isSet("order") && c.isSet("per-node") {
		return cfg, false, errors.New("--per-node cannot be combined with --order (the order lists every request): accepted one of them")
	}
	return cfg, asJSON, nil
}

const orderAccept = "a comma-separated list of node numbers, e.g. 1,2,1,2,2"

// parseOrder reads "1,2,1,2,2". Whether each node exists is checked by
// sim.Prefetch, which knows --nodes. A list longer than the replay's
// bound is refused before it is read, and a bad item is quoted alone.
func parseOrder(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, core.BadParam("order", strconv.Quote(s), orderAccept)
	}
	if n := strings.Count(s, ",") + 1; n > sim.MaxRequests {
		return nil, core.BadParam("order", fmt.Sprintf("(%d entries)", n),
			fmt.Sprintf("at most %d node numbers, to keep the replay small", sim.MaxRequests))
	}
	parts := strings.Split(s, ",")
	order := make([]int, 0, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, core.BadParam("order", fmt.Sprintf("%s (item %d)", quoteValue(p), i+1), orderAccept)
		}
		order = append(order, n)
	}
	return order, nil
}

// Width of the quota bar: the node table then fits 80 columns.
const quotaBarWidth = 34

// writePrefetchTable prints the comparison, the per-node accounts with a
// quota bar, and the first requests step by step, all within 80 columns.
func writePrefetchTable(w io.Writer, res sim.PrefetchResult) {
	c := res.Config
	how := "round-robin"
	if len(c.Order) > 0 && !isRoundRobin(c) {
		how = "--order"
	}
	fmt.Fprintf(w, "prefetch: %d nodes, %d requests (%s)\n", c.Nodes, len(c.Order), how)
	fmt.Fprintf(w, "limit %d, batch %d, rtt %d ms\n\n", c.Limit, c.Batch, c.RTTMS)

	fmt.Fprintf(w, "%-10s %8s %9s %12s %10s %9s\n", "", "allowed", "rejected", "round trips", "wait ms", "stranded")
	fmt.Fprintf(w, "%-10s %8d %9d %12d %10d %9s\n", "central",
		res.Central.Allowed, res.Central.Rejected, res.Central.RoundTrips, res.Central.WaitMS, "-")
	p := res.Prefetch
	fmt.Fprintf(w, "%-10s %8d %9d %12d %10d %9d\n\n", "prefetch",
		p.Allowed, p.Rejected, p.RoundTrips, p.WaitMS, p.Stranded)
	fmt.Fprintf(w, "left at the centre: %d   fewer allowed than central: %d\n", p.CentralRemaining, p.FewerThanCentral)
	fmt.Fprintf(w, "rejections while other nodes held quota: %d   round trips saved: %d\n\n",
		p.RejectsWhileStranded, res.Central.RoundTrips-p.RoundTrips)

	fmt.Fprintf(w, "%4s %9s %5s %9s %9s  quota: # used, o stranded, x rejected\n",
		"node", "borrowed", "used", "stranded", "rejected")
	widest := 0
	for _, n := range res.Nodes {
		widest = max(widest, n.Used+n.Stranded+n.Rejected)
	}
	for _, n := range res.Nodes {
		fmt.Fprintf(w, "%4d %9d %5d %9d %9d  %s\n", n.Node, n.Borrowed, n.Used, n.Stranded, n.Rejected,
			quotaBar(n, widest))
	}
	if widest > quotaBarWidth {
		fmt.Fprintf(w, "(bars scaled: %d cells = %d permits)\n", quotaBarWidth, widest)
	}

	const maxSteps = 24
	fmt.Fprintf(w, "\n%3s %4s  %-14s  %-22s  %s\n", "#", "node", "central", "prefetch", "held after, node 1..")
	for i, s := range res.Steps {
		if i == maxSteps {
			fmt.Fprintf(w, "... %d more requests not shown\n", len(res.Steps)-maxSteps)
			break
		}
		fmt.Fprintf(w, "%3d %4d  %-14s  %-22s  %s\n", s.Index, s.Node,
			fmt.Sprintf("%s, %d left", verdict(s.CentralAllowed), s.CentralRemaining), stepText(s), heldText(s.Held, 20))
	}
	if p.RejectsWhileStranded > 0 {
		fmt.Fprintln(w, "* rejected while another node held unused quota")
	}
}

func isRoundRobin(c sim.PrefetchConfig) bool {
	if len(c.Order) != c.Nodes*c.PerNode {
		return false
	}
	for i, n := range c.Order {
		if n != i%c.Nodes+1 {
			return false
		}
	}
	return true
}

func verdict(ok bool) string {
	if ok {
		return "allow"
	}
	return "reject"
}

func stepText(s sim.PrefetchStep) string {
	var t string
	switch s.Reason {
	case sim.ReasonBorrowed:
		t = fmt.Sprintf("borrow %d, allow", s.Granted)
	case sim.ReasonBorrowEmpty:
		t = "borrow 0, reject"
	case sim.ReasonWindowEmpty:
		t = "knows empty, reject"
	default:
		t = "local, " + verdict(s.Allowed)
	}
	if s.WhileStranded {
		t += " *"
	}
	return t
}

// heldText lists the allowances, cut to fit width columns.
func heldText(held []int, width int) string {
	var b strings.Builder
	for i, h := range held {
		next := strconv.Itoa(h)
		if b.Len()+len(next)+1 > width-2 && i < len(held)-1 {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(next)
	}
	return b.String()
}

// quotaBar draws used, stranded and rejected as runs of #, o and x, scaled so
// that the busiest node fills at most quotaBarWidth cells. A non-zero count
// always gets at least one cell.
func quotaBar(n sim.NodeQuota, widest int) string {
	cells := func(v int) int {
		if v == 0 {
			return 0
		}
		if widest <= quotaBarWidth {
			return v
		}
		return max(1, int(int64(v)*quotaBarWidth/int64(widest))) // v up to 1e9: no int32 product
	}
	return strings.Repeat("#", cells(n.Used)) + strings.Repeat("o", cells(n.Stranded)) + strings.Repeat("x", cells(n.Rejected))
}
