package interview

import (
	"fmt"
	"strings"
)

// Probe is a trade-off an interviewer probes in a phase, and the short
// answer that holds it.
type Probe struct {
	Q, A string
}

// TrackPhase is one phase of the 45-minute interview: what to say first,
// what to draw, what to cover and what the interviewer will push on.
type TrackPhase struct {
	Minutes   int
	Title     string
	SayFirst  string   // the opening sentence
	Draw      string   // what goes on the board
	Checklist []string // what a strong answer covers, in order
	Probes    []Probe
}

// Track is the 45-minute interview as it runs: a short introduction and
// the question (3), requirements and scoping (7), the API and the
// high-level design with the request path drawn (15), deep dives chosen by
// the interviewer (15), the wrap-up and the candidate's own questions (5).
// The interviewer pushes back in every phase after the first (LongForm).
// The Skeleton is its 15-minute short form.
var Track = []TrackPhase{
	{3, "Introduction and the question",
		"Let me say the question back in one sentence, then spend a few minutes on requirements before I draw anything.",
		"Nothing yet: the question in one line at the top of the board, and the phases you plan with their minutes.",
		[]string{
			"Restate the question in your own words, in one sentence.",
			"Say how you will spend the time: requirements, the design, the deep dives the interviewer picks, and a few minutes for your questions.",
			"Keep your own introduction to a minute: the interview is the design.",
		},
		[]Probe{
			{"Can you just start designing?", "After two minutes of questions: a design for the wrong key or the wrong shape of limit is wasted time. State the assumptions you make, and move on."},
		}},
	{7, "Requirements and scoping",
		"Before any algorithm: whom do we count, what shape is the limit, at what scale, and what happens when the limiter itself is down?",
		"No boxes yet: write the numbers on the board (active keys, peak decisions per second, servers, regions) and the limits as rules.",
		[]string{
			"The key: user, API key, IP grouped by /24 or /64 (and what a shared address costs), or key x route; identity comes from a verified credential.",
			"The shape: 'at most N in any window' or 'a rate plus a burst', and how big a burst; what each endpoint costs.",
			"The scale: active keys, peak decisions per second, app servers, regions.",
			"Who edits the limits and how often (rules, tiers, overrides), and the failure policy per endpoint.",
			"The limiter's own targets: the latency it may add (a few ms at p99), its availability (above the API's, since every request passes it), and how far over a limit an inexact count may let through.",
			"The response: 429 with Retry-After and quota headers on HTTP, 503 for overload; on gRPC, RESOURCE_EXHAUSTED by google.rpc's convention, though behind Envoy's rate limit filter a client sees UNAVAILABLE unless rate_limited_as_resource_exhausted is set.",
		},
		[]Probe{
			{"Why not just per IP?", "Many users share one address behind CGNAT or a corporate proxy: a per-IP limit punishes all of them. Count the verified user or API key, and keep a generous per-IP or per-/24 limit only for floods before authentication."},
			{"Is 100 per minute a hard cap?", "Ask. A hard cap in any window is a sliding log; 'about 100 a minute with bursts' is a token bucket, which lets C + R·W through in some window by design."},
		}},
	{15, "API and the high-level design",
		"The limiter is a decision: given who is asking and for what, allow or deny, with what remains and when it resets; I will choose where that decision runs (a library call, a middleware, a sidecar, or a service like Envoy's ShouldRateLimit) and say why.",
		"The request path, left to right or top to bottom: client, edge / WAF, API gateway, the service with its library or sidecar, the limiter service, Redis Cluster; mark where each limit lives and what each hop costs.",
		[]string{
			"The API: ShouldRateLimit(domain, descriptors, hits) → code (OK / OVER_LIMIT), remaining, reset; chapter 10's service speaks Envoy's protocol.",
			"The rules: a domain, nested descriptors (key, optional value), a limit per leaf, tiers per plan, overrides for one customer, validated and hot-reloaded.",
			"Where each limit lives: floods at the edge, per API key at the gateway, per user and per route in the service, in-flight caps in front of each dependency.",
			"The component: a library call or a middleware (17.4 ns in process, but per node), a sidecar, or a central service over Redis (18 µs p50 on loopback to one Redis node in the course's lab, plus a cross-zone round trip of about 0.5-2 ms in production); choose one and say what it costs.",
			"One shared count per key: one Lua script reads, decides, writes and sets the expiry; keys under a hash tag; time from Redis TIME.",
		},
		[]Probe{
			{"Library, sidecar or service?", "A library is cheapest and counts per node; a central service shares one count and costs a network hop per decision. Put the shared count behind a service when many languages or teams use it, and keep a local tier (deny cache, prefetch) so most decisions never leave the node."},
			{"Push or poll the rules?", "Either, as long as a bad file never replaces a good one: validate, then swap atomically, keep the old rules on error and count the failure. Poll a file or config store every few seconds for simplicity; push (xDS style) when changes must land everywhere at once."},
		}},
	{15, "Deep dives chosen by the interviewer",
		"Pick the dive with me: the algorithm, the store and its numbers, hot keys, failure, many regions, or overload; each has a number I can derive.",
		"The dive's own picture: a timeline across a window boundary, a shard map with the hot key's primary, the failover's lost writes.",
		[]string{
			"The algorithm: one row of the selection table and what it gives up (boundary spike, estimate error, bursts upstream, queueing delay).",
			"The numbers: 5.8 µs of Redis CPU per token-bucket decision is 173k/s per core pipelined, 79k/s at one round trip; 224 to 384 B per key.",
			"Hot keys: prefetch quota and a local deny cache for keys already over their limit; never split the limit into fixed shares, and shard a counter (write one shard, read the sum) only when reading every shard per decision is affordable.",
			"Failure: fail open or closed per endpoint, decided in advance; a failover forgets acknowledged writes (106 extra of 1,000 in chapter 06).",
			"Many regions: a static split wastes quota, async sync overshoots by regions x rate x lag, leases follow demand.",
			"Overload: cap requests in flight (Little's law) and shed by priority with 503; a rate per key does not replace them.",
		},
		[]Probe{
			{"Why not more shards for the hot key?", "One key lives in one slot on one primary whatever the cluster size (87 % of the calls in chapter 06's test). Prefetch cut that primary's calls 46x; splitting the limit into fixed shares mis-counts (4 x 25 against 70/10/10/10 traffic admits 55 of 100). A sharded counter that reads the sum counts right, at the cost of a read of every shard per decision."},
			{"Your numbers came from a laptop?", "The inputs did; the figures are derived: decisions per core = 1e6 / µs per decision, with the range set by pipelining, and bytes per key = MEMORY USAGE plus what it leaves out, times fragmentation and replicas."},
		}},
	{5, "Wrap-up and your questions",
		"In one breath: the design, what it gives up, and how we would know it works.",
		"The dashboard: 429 rate per rule, fail-open decisions, store p99, keys near their limit, shadow would-rejects.",
		[]string{
			"Name the trade-offs out loud: approximate across regions, bounded over-admission after a failover, bursts by design.",
			"Observability: alert on the 429 rate per rule, the fail-open count, the store's p99 and near-limit keys; page on the limiter failing, not on customers being limited.",
			"Rollout: shadow mode first, then one rule and one share of keys at a time, with a kill switch.",
			"Take the pushback in every phase: answer with the number and the chapter that proves it.",
			"Ask your own questions: who owns the limits today, what the last incident was, what they would change first.",
		},
		[]Probe{
			{"What would you do differently at 10x?", "Keep the design and move decisions closer: a local tier (prefetch, deny cache) takes most traffic off Redis, and the primaries grow with the per-core range."},
		}},
}

// TrackMinutes is the long form's total length.
func TrackMinutes() int {
	n := 0
	for _, p := range Track {
		n += p.Minutes
	}
	return n
}

// TrackMarkdown renders the 45-minute track as Markdown.
func TrackMarkdown() string {
	var b strings.Builder
	for i, p := range Track {
		fmt.Fprintf(&b, "%d. **%s** (%d min)\n", i+1, p.Title, p.Minutes)
		fmt.Fprintf(&b, "   - *Say first:* %s\n", p.SayFirst)
		fmt.Fprintf(&b, "   - *Draw:* %s\n", p.Draw)
		for _, c := range p.Checklist {
			fmt.Fprintf(&b, "   - [ ] %s\n", c)
		}
		for _, q := range p.Probes {
			fmt.Fprintf(&b, "   - *Probe:* %s %s\n", q.Q, q.A)
		}
	}
	return b.String()
}
