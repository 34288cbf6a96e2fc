package interview

import (
	"fmt"
	"strings"
)

// Step is one part of the spoken answer.
type Step struct {
	Minutes int
	Title   string
	Points  []string // what to say, in order
}

// Skeleton is the 15-minute answer, the short form of Track: contract
// first, then the algorithm, then many machines, then failure and the
// response. Do not open with a Redis command. Its figures are derived in
// numbers.go from chapter 06's measurements.
var Skeleton = []Step{
	{3, "Pin down the contract and the scale", []string{
		"Who is the key: user, API key, IP (grouped by CIDR, escalating /64 to /56 to /48 for IPv6), or (key, route)? On login: the network before authentication and the account being tried.",
		"Is the limit 'at most N in any window' or 'a rate plus a burst'? How big a burst?",
		"How many app servers, how many active keys, what peak QPS? Do endpoints cost differently?",
	}},
	{5, "Pick the algorithm and the per-key state", []string{
		"Choose a row of the selection table and say what it gives up: the boundary spike, the estimate's error, bursts reaching upstream, or queueing delay.",
		"Estimate the memory: keys x bytes per key. MEMORY USAGE says 168 B for a token bucket (136 B fixed window, sliding counter, GCRA) and leaves out the expires entry, the hash-table buckets and fragmentation: plan 224 to 384 B per token-bucket key, 2.2 to 3.8 GB for 10 M keys per copy, times 1 + replicas; a sliding log pays 32 to 123 B per entry.",
	}},
	{4, "Share the state atomically across machines", []string{
		"One shared counter per key; read, compute, write and set the expiry in one Lua script; take the time from the Redis server.",
		"Estimate the shards from server time: a token-bucket script costs 5.8 µs of Redis's one thread, so one core makes 173k decisions/s with round trips amortised (pipelining) and 79k/s at one request per round trip; at half a core each, 200k/s is 3 to 6 primaries. Replicas add no decision capacity.",
		"Hot keys: prefetch quota locally, accepting that some strands on idle nodes; not fixed shares of the limit (a sharded counter reading the sum is exact, at a read per shard).",
	}},
	{3, "Failure, overload, monitoring and the response", []string{
		"Counter down: fail closed for login / OTP / reset, fail open with a small local bucket for reads, local limit ~ global / nodes for billed calls.",
		"Overload is not a rate: cap requests in flight (Little's law: 100 rps x 0.2 s = 20) and shed by priority with 503 + Retry-After; 429 is for one client over its quota.",
		"Roll out in shadow mode first; watch the 429 rate per rule, keys near their limit and the counter's latency.",
		"Reject with 429, Retry-After rounded up, and quota headers on every response.",
	}},
}

// SkeletonMinutes is the answer's total length.
func SkeletonMinutes() int {
	n := 0
	for _, s := range Skeleton {
		n += s.Minutes
	}
	return n
}

// SkeletonMarkdown renders the skeleton as a numbered Markdown list.
func SkeletonMarkdown() string {
	var b strings.Builder
	for i, s := range Skeleton {
		fmt.Fprintf(&b, "%d. **%s** (about %d min)\n", i+1, s.Title, s.Minutes)
		for _, p := range s.Points {
			fmt.Fprintf(&b, "   - %s\n", p)
		}
	}
	return b.String()
}
