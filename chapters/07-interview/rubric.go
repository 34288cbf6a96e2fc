package interview

// The rubric says, for each mock prompt and each phase of the track, what a
// senior answer does and what a staff answer adds. The senior column is
// what the checklist already asks for: correct, complete, sized. The staff
// column is what the interviewers of issue 30 found missing when the course
// was rehearsed as a checklist: framing the ambiguity before solving it,
// choosing what to leave out and saying so, treating the limiter as a
// critical dependency with its own SLO and blast radius, naming who owns
// the limits, planning the rollout and the migration, and the cost. The
// worked answers (answers/*.md) are written to the staff column.

// RubricRow is one phase of one prompt: what a senior answer does and what
// a staff answer adds. Phase is the Track phase's title.
type RubricRow struct{ Phase, Senior, Staff string }

// rubric holds one row per Track phase, in order, for each prompt.
var rubric = map[string][5][2]string{
	"per-user-api": {
		{"Restates the prompt with its numbers (100 per minute, uploads heavier, 20 servers, 10 M active users) and asks who the user is and whether 100 per minute is a hard cap.",
			"Frames each ambiguity as a choice with consequences (account, key or address; a hard cap means a log per user, a rate with a burst a bucket of two numbers; 20 servers make a local count wrong by up to 20x), sets the agenda by phase, says what is left out (billing quotas, bot detection) and asks for the limiter's own targets."},
		{"Asks who the user is (verified account, not a header), whether 100 per minute is a hard cap or a rate with a burst, the cost of an upload, and the servers, active users and peak QPS; bounds the peak from the 20 servers and the 10 M users.",
			"Frames the ambiguity as a choice with consequences (hard cap means a sliding log, a rate with a burst means a token bucket) and asks for the limiter's own latency, availability and accuracy targets up front; says what is left out and why (monthly billing quotas belong to billing, global counting across regions is not worth a cross-region hop for a fairness limit)."},
		{"States ShouldRateLimit(domain, descriptors, hits) with costs per route, draws edge, gateway, service, limiter and Redis Cluster, shares one count per user through one atomic script, and gives the data model with hash tags and TTLs.",
			"Chooses library, sidecar or service for this organisation and says what the choice costs (a same-zone hop per request) and when it would change; puts the rules in a control plane with an owner per limit (product sets the numbers, sales' overrides expire, the platform team owns the mechanism) and a validated, versioned, rollback-able snapshot."},
		{"Shows the fixed window's 2L across a boundary, picks the token bucket and states its C + R·W, fixes the double spend with one Lua script on Redis's clock, and sizes primaries from server time per decision and memory from bytes per key.",
			"Treats the limiter as a critical dependency: a deadline and a breaker, fail open through a local bucket bounded at limit / servers, the fail-open count as the signal of running unprotected, and a failover's bounded over-admission accepted in writing; picks the dives that carry risk and leaves the rest (prefetch only if one user nears a shard's capacity)."},
		{"Summarises the design and what it gives up, lists per-rule and per-store metrics, and alerts on the limiter failing rather than on customers being limited.",
			"Gives the limiter its own SLO (99.99 % of decisions within a few ms) and names its blast radius (the whole API); plans shadow mode, a share of users at a time and a kill switch, and the migration from an old limiter by comparing decisions; states the cost beside the fleet and what changes at 10x."},
	},
	"login": {
		{"Restates the prompt, notices it has no numbers and offers some, and asks whether the goal is stopping guessing, stopping stuffing, or both, and what a real user may see.",
			"Frames guessing and stuffing as two attacks that one key cannot both stop, and the no-lockout clause as ruling out the simplest answer; sets the agenda, scopes fingerprinting, risk scoring and MFA design out to the fraud team, and asks what the login path may spend on the limiter."},
		{"Separates guessing (many passwords on one account) from stuffing (one pair on many accounts), keys by the account being tried and by network (/24, /64), limits before the password hash, and refuses hard lockouts.",
			"Frames what a rate limiter cannot do against a distributed, slow wave (50,000 addresses at two tries each stay under every per-key limit) and scopes it: the limiter prices and reveals the attack, breached-password checks and MFA stop it; counts unknown accounts the same way so the limiter leaks nothing; leaves fingerprinting to the fraud team, out loud."},
		{"Counts failures per account and attempts per network through one call before the hash, reads the client from the rightmost untrusted X-Forwarded-For hop, and shares counts in Redis so the load balancer cannot multiply them.",
			"Decides who owns the rules (the security team, with an emergency path that still validates and logs the author), keeps the total failure rate out of Redis because one global key is one hot primary, and adds the device cookie so a real user passes while the account is attacked."},
		{"Picks the sliding log because 5 per 15 minutes is small and strict, shows what a fixed window or a bucket would let through, makes prune-count-append one script, and answers with 429 and an honest Retry-After.",
			"Treats the failure mode as the design's hardest call: neither fail open (an open door during the attack) nor fail closed (an outage of sign-in) but stricter local limits with a challenge for unknown devices; weighs a cross-region call for the account key against counting per region and chooses by what login tolerates."},
		{"Summarises the layers, what they give up, and the signals: failures in total and per ASN, 429s and challenges per rule, the limiter's p99.",
			"Measures the cost to real users (the share of good logins that met a challenge), gives the limiter the login SLO and names its blast radius (everyone's sign-in), rolls rules out in shadow mode first, and compares the limiter's cost with the CPU a wave burns on hashes and the cost of a takeover."},
	},
	"llm-gateway": {
		{"Restates the prompt with its numbers (10,000 tokens per minute per API key, length unknown until the end) and asks whether tokens mean input plus output.",
			"Frames the choices and their consequences (plain or weighted tokens and who owns the weights, key or tenant, charge after, refuse or reserve and refund), sets the agenda around the two-step charge, leaves monthly spend to billing and model routing to a scheduler, and asks for the limiter's own targets."},
		{"Counts tokens, input plus output, per verified API key; notes the output is unknown up front; asks about bursts and keeps a request rate or in-flight limit beside the budget.",
			"Frames what a token is worth (output costs more, models differ) and who owns the weights; scopes monthly spend out to billing as a durable quota; sets the limiter's targets by what matters here (availability and GPU protection, not a millisecond); uses Little's law to show the budget cannot protect a slow backend."},
		{"Reserves input plus the maximum output before the call and refunds the unused part after, capped at the capacity, through one atomic script per step keyed under the API key's hash tag.",
			"Designs the API around the two-step charge (reserve, then settle) and says what Envoy's protocol does not express; keeps the in-flight cap local because a shared one leaks slots on a crash; puts tiers, model weights and overrides in a control plane with product, sales and platform each owning their part."},
		{"Works the five-requests example (four admitted, each refunds 1,700), fixes the race with a script, and answers overload with 503 and Retry-After, over-quota with 429.",
			"Names the failure modes of the refund (a dead node never refunds) and accepts them with a bound (the bucket refills in a minute) instead of building durable reservations; sheds by priority when the backend slows; says why prefetch is left out here (one hot key is far below a shard)."},
		{"Summarises the design, its trade-offs and the metrics: 429s, keys near their budget, in flight per node, 503s by priority.",
			"Uses reserved versus used tokens to tune the reservation, gives the limiter an SLO and a fail-open default because the in-flight cap does not depend on it, rolls tiers out in shadow mode against real usage, and puts the limiter's cost beside the GPU time it protects."},
	},
	"partner-api": {
		{"Restates the prompt (partners through API Gateway and WAF, contracts in requests per second, shared keys) and asks whether the contract is a hard ceiling or a rate.",
			"Frames whether fairness among a partner's users is ours to promise and what it costs (an identity only the service sees), and enforcement as guarantee or best effort; sets the agenda, leaves monthly quotas to billing and an own proxy fleet to a cost review, and asks for the limiter's own targets."},
		{"Separates the per-partner contract from per-user fairness, notes a usage plan counts API keys so a shared key is one bucket, and that per-user limits need the user id only the service sees.",
			"Frames the second limit as a product decision with a cost (trusting the partner's claim of its users, within its own budget) and asks whether the partner team wants it; scopes monthly totals out to billing; derives that the default account throttle cannot carry a 20,000 rps contract and sizes the raised quota from what was sold."},
		{"Places each limit where it can see what it counts: floods at WAF, the contract in the usage plan, per-user fairness in the service through ShouldRateLimit; knows WAF's windows and thresholds and the gateway throttle as a best-effort token bucket.",
			"Makes one contract store the owner of every layer's limits and generates the usage plans and the service rules from it, so they cannot drift; aligns the status codes (a custom 429 at WAF) so partners see one answer for 'too many'."},
		{"Lists what must hold for 20,000 rps (account, stage and plan throttles), says where a blocked request shows up at each layer, and has clients retry after Retry-After plus jitter.",
			"Spots per-Region counting and pins each partner to a home Region with a rehearsed failover of its contract; lets the inner limiter fail open because the outer layer still caps the partner, so its blast radius is fairness, not availability; builds one dashboard per partner across the three layers for support."},
		{"Summarises the layering and its trade-offs (best effort at the gateway) and the metrics per partner.",
			"States the limiter's SLO and what is AWS's to promise; rolls per-user limits out in shadow mode and shares the would-be rejections with partners first; plans the migration of hand-set usage plans through the contract store; puts the per-request bill at 52 billion requests a month in front of the budget owner and says when an own proxy fleet would pay."},
	},
}

// RubricFor is the rubric of the mock prompt of that name, one row per
// Track phase in order; nil when no prompt has that name.
func RubricFor(prompt string) []RubricRow {
	r, ok := rubric[prompt]
	if !ok {
		return nil
	}
	out := make([]RubricRow, 0, len(Track))
	for i, ph := range Track {
		if i >= len(r) {
			break
		}
		out = append(out, RubricRow{Phase: ph.Title, Senior: r[i][0], Staff: r[i][1]})
	}
	return out
}
