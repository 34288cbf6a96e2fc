package interview

import (
	"fmt"
	"strings"
)

// Push is one pushback the mock interviewer throws at the candidate, in the
// phase of the track where it belongs, with what a strong answer contains
// and where the course proves it.
type Push struct {
	ID      string   `yaml:"id"`      // stable, for the command line and saved progress
	Prompt  string   `yaml:"prompt"`  // what the interviewer says
	Strong  []string `yaml:"strong"`  // what a strong answer contains, in order
	Chapter string   `yaml:"chapter"` // "01" … "09": the chapter that proves it
	Cue     string   `yaml:"cue"`     // a phrase of that chapter's README or drill cards
	Proof   string   `yaml:"proof"`   // the test, table or source that proves it
	Card    string   `yaml:"card"`    // the drill card to practise it (a Question.ID)
	Phase   int      `yaml:"phase"`   // the track's phase it is thrown in (1 requirements … 4 wrap-up)
}

// Pushback is the mock's pushback bank. Each prompt of Mock names the ones
// it throws (Prompt.Pushback); PushbackFor returns them.
var Pushback = []Push{
	{"rules-change-weekly", "The rules change weekly, and sales promises one customer a higher limit by Friday.",
		[]string{"Limits are rules, not code: a domain of nested descriptors, per-plan tiers, per-customer overrides as more specific descriptors.",
			"Validate a new version, swap it in atomically, keep the old rules on error and count the failure; counters of unchanged rules survive.",
			"Hot reload by polling or push, reviewed like code, and a new limit starts in shadow mode."},
		"07", "hot reload", "TestE37_Reload (chapter 10: the rules file edited under traffic takes effect within a second, counters of unchanged rules survive); the rules model in this chapter", "07/rules and overrides", 2},
	{"two-million-rps", "Now it is 2 million requests per second.",
		[]string{"Redo the arithmetic: 5.8 µs per decision is 173k/s per core pipelined, 79k/s at one round trip, so 24 to 51 primaries at half a core each.",
			"Keep most decisions off Redis: deny cache for keys over their limit, prefetch for hot keys, pipelining per node, floods stopped at the edge.",
			"A hot key stays on one primary whatever the cluster size: prefetch, not shards."},
		"07", "24 to 51 primaries", "TestFirstPrinciplesNumbers from chapter 06's server time; TestE22_HotKey", "07/two million per second", 2},
	{"why-not-only-edge", "Why not do all of it at the edge?",
		[]string{"A CDN or WAF edge sees addresses and headers, not the verified user (an Envoy edge that verifies the JWT can count a claim), and counts per PoP: a client reaching two PoPs has two budgets.",
			"Whose edge matters: an AWS WAF rate rule counts over at least a minute with a threshold of at least 10 and acts after a lag that AWS says can reach minutes; Cloudflare's rules allow 10-second periods, and an Envoy edge can count by a JWT claim.",
			"Traffic that enters behind the edge is not counted; the edge is for floods, the service for contracts."},
		"08", "at least 10", "TestE18_NoConfigEnforcesFivePerSecondPerUser; Cloudflare's per-data-centre counters", "07/edge and ddos layering", 2},
	{"region-down", "One of your three regions is down and its users fail over to the other two.",
		[]string{"A static split now rejects legitimate traffic while the lost region's share sits unused.",
			"Leases weighted by recent demand move the quota to where the requests arrive; async sync overshoots by regions x rate x lag.",
			"No decision waits on a cross-region call; without the coordinator, keep the last leases, never unlimited."},
		"09", "leases", "TestE27_ManyRegions (a static split admits 633 of the 1,000; leases admit them all)", "07/one region down", 3},
	{"redis-down", "Redis is down.",
		[]string{"Decided per endpoint in advance: closed for login, OTP and reset; open through a small local bucket for reads; about global / nodes for billed calls.",
			"A deadline of a few ms and a breaker in front, so the outage does not become latency.",
			"Count every fail-open decision and alert on it; after a failover, a bounded over-admission (106 of 1,000 in chapter 06)."},
		"06", "fail open", "the Guard's failure policy (E15); TestE23_FailoverLosesCounts", "06/fail open or closed", 3},
	{"429-below-limit", "A customer says they get 429s while they are below their limit.",
		[]string{"Find the rule and the key that rejected (log, RateLimit-Policy), then the usual causes:",
			"A shared key (their servers behind one NAT address, one API key for many users), or a burst inside an average that is under the limit.",
			"Another layer answered first (WAF 403, the gateway's account throttle), per-node limits on uneven balancing, or counted retries.",
			"Near-limit signals and shadow logs per key show it before the customer does."},
		"07", "below their limit", "the selection table's max in any W (TestE19_MaxInWindowMatchesWorstCaseSearch); chapter 08's layers", "07/429 below the limit", 4},
	{"cgnat", "Many of your users share one IP address behind carrier-grade NAT.",
		[]string{"A per-IP limit becomes a limit on everyone behind that address; a /24 widens it to a neighbourhood.",
			"Key by the verified user or API key; keep per-IP limits for before authentication, generous, and challenge rather than block.",
			"For IPv6, count the /64 and escalate to /56 and /48 only as far as the abuse reaches."},
		"01", "collateral", "chapter 01's IP grouping; TestDrillIPv6EscalationNumbers", "07/cgnat and shared ips", 1},
	{"llm-tokens", "Limit LLM tokens, not requests.",
		[]string{"Reserve input plus the maximum output up front (500 + 2,000 = 2,500), refund what was not used.",
			"Of five concurrent requests against 10,000 tokens a minute, four are admitted, and each of the four refunds 1,700.",
			"Keep a request-rate or in-flight limit beside the token budget."},
		"09", "refund", "TestE28_ReserveThenRefund; TestDrillLLMBudgetNumbers", "09/LLM token budget", 1},
	{"tight-retry-loop", "A client retries every rejection in a tight loop.",
		[]string{"Make the rejection cheap: the deny cache answers an over-limit key from memory, without Redis.",
			"Send an honest Retry-After; a second, stricter rule blocks or challenges a key that keeps hammering.",
			"Clients wait Retry-After plus jitter, retry at one layer inside a 10% retry budget, and throttle themselves adaptively."},
		"09", "retry budget", "TestE34_DenyCache (chapter 10: a key over its limit is answered from memory until its window ends, sparing Redis); TestE26_RetryHerd, TestE26_AdaptiveThrottle", "07/tight retry loop", 3},
	{"how-know-works", "How do you know it works? What do you alert on?",
		[]string{"Per rule: decisions, 429s and the 429 rate with the top keys; near-limit keys; shadow would-rejects against enforced rejects.",
			"Per store: p99 against the budget, errors and timeouts, and the fail-open count: requests that went unlimited.",
			"Page on the limiter failing (fail-open rising, store p99 over budget), not on customers being limited."},
		"07", "fail-open count", "TestE31_ShadowMode, TestE31_NearLimit; TestE38_StoreFails (chapter 10: fail-open and fail-closed decisions counted in /metrics)", "07/what to alert on", 4},
	{"grpc-streaming", "Half of the traffic is gRPC streams and WebSockets that stay open for hours.",
		[]string{"Over quota, google.rpc's convention is RESOURCE_EXHAUSTED (its mapping of 429); gRPC's own HTTP mapping turns a 429 into UNAVAILABLE.",
			"Behind Envoy's rate limit filter a gRPC client sees UNAVAILABLE unless rate_limited_as_resource_exhausted is set: say which yours see, and keep UNAVAILABLE for overload.",
			"Limit stream and connection opens per key, messages per stream with a local bucket, and concurrent streams per key."},
		"07", "RESOURCE_EXHAUSTED", "google.rpc.Code (RESOURCE_EXHAUSTED, HTTP mapping 429); gRPC's status code mapping (429 to UNAVAILABLE); Envoy's rate_limited_as_resource_exhausted", "07/grpc and streaming", 2},
	{"managed-redis", "You deploy on ElastiCache with the defaults.",
		[]string{"The default maxmemory-policy is volatile-lru: every limiter key has a TTL, so each one is an eviction candidate.",
			"An evicted key is a fresh limit: 300 of 300 admitted against L = 50 in chapter 06 (E20).",
			"Set noeviction or dedicate the cluster; never decide from a replica, whose counts are stale."},
		"06", "volatile-lru", "TestE20_EvictionOverAdmits; AWS and Google Cloud documentation of the default", "07/managed redis", 3},
	{"limiter-slo", "What are the limiter's own targets, and what breaks when it breaks?",
		[]string{"Latency: the decision adds a few ms at p99 at most, so most decisions stay local (a deny cache, prefetch) and the store has a deadline.",
			"Availability above the API's, since every request passes it; accuracy as a stated bound on over-admission, not 'exact'.",
			"Blast radius: an outage falls into the failure policy decided per endpoint, never takes the API down; one limiter per region or cell, so one failure stays there."},
		"07", "fail-open count", "the Guard's failure policy (E15); TestE38_StoreFails (chapter 10)", "07/what to alert on", 1},
	{"quota-vs-rate", "Sales also wants a monthly quota of a million calls, billed. Is that the same limiter?",
		[]string{"No: a rate limit protects capacity and may forget (a lost counter admits a little more); a monthly quota is a contract and a bill, so it must be durable, exact and auditable.",
			"Count the quota from the request log into a database with idempotent charges, and enforce it on the hot path with a cached over-quota flag per key.",
			"Keep the rate limit in Redis beside it: the two answer different questions and fail differently."},
		"09", "quota", "chapter 09's cost budgets (E28) for charging by cost; the quota's ledger is outside the course's lab", "09/LLM token budget", 1},
	{"build-vs-buy", "Why build this? Our gateway, our WAF and Envoy's rate limit service exist already.",
		[]string{"Use what fits first: the gateway throttle and the WAF for coarse limits and floods, envoyproxy/ratelimit if Envoy already fronts the services.",
			"Build only what they cannot do: keys from the verified identity, costs per route, our own failure policy per endpoint, self-service rules.",
			"Building means owning an on-call service on every request's path: count that cost before choosing it."},
		"10", "envoyproxy/ratelimit", "chapter 08's layers (TestE18_NoConfigEnforcesFivePerSecondPerUser); chapter 10's service", "08/cloud layers", 2},
	{"multi-limit-charging", "One request matches three limits: per user, per tenant and global. How is it charged, and does a denied request still spend the limits it passed?",
		[]string{"Check every limit, then charge them all only if all admit: one script over keys under one hash tag, or check-then-charge on one shard.",
			"A service that increments each matching counter in one pipeline, as envoyproxy/ratelimit does, charges the limits passed even when another denies: say whether that is acceptable.",
			"Order the limits from the most specific to the global one, and report the one that denied (RateLimit-Policy) so the client knows which to respect."},
		"07", "descriptors", "chapter 10's descriptors (nested rules); hash tags (E21)", "07/rules and overrides", 3},
	{"requirement-change", "Change of plan: limits must now also hold per tenant across all its users, and the free tier gets a daily cap.",
		[]string{"Say back the new requirement and what still holds: the per-user limit stays, a tenant limit nests above it, the daily cap is a quota, not a rate.",
			"Nest the descriptors (tenant, then user) so one decision checks both; the daily cap is a long window on its own key.",
			"Say what it costs: one more key per tenant, one more check per request, and a tenant can now deny its own users."},
		"07", "descriptors", "the rules model in this chapter; chapter 10's nested descriptors", "07/rules and overrides", 3},
	{"cost", "What does this cost to run?",
		[]string{"Memory: keys x bytes per key x (1 + replicas); in the course's lab a token-bucket key takes 224 to 384 B, so 10 M keys need 2.2 to 3.8 GB per copy.",
			"CPU: peak decisions per second over decisions per core, plus the network hop on every request.",
			"Most of the cost is people and latency: an on-call service on the hot path; a local tier keeps most decisions off the network."},
		"07", "224 to 384 B", "TestFirstPrinciplesNumbers from chapter 06's server time", "06/sizing memory and shards", 4},
	{"migrate-old-limiter", "An old limiter lives in nginx today. How do you move to yours?",
		[]string{"Run the new one in shadow mode beside the old: log its would-rejects and compare them per rule with what the old one rejects.",
			"Then enforce rule by rule and a share of keys at a time, with a kill switch; remove the old limits last.",
			"Tell the clients who will see a difference, with their new headers, before they see it."},
		"09", "shadow mode", "TestE31_ShadowMode", "09/shadow rollout", 4},
	{"ownership", "Who owns the limits: your team, or each API team?",
		[]string{"The platform team owns the service, its SLO and the defaults; each API team owns its rules, self-service, as reviewed config.",
			"Guard rails: a ceiling per rule, shadow mode first for a new rule, overrides for one customer that expire.",
			"Alerts go to the owner of the rule for its 429 rate, and to the platform team for the limiter failing."},
		"07", "overrides", "the rules model in this chapter; TestE37_Reload (chapter 10)", "07/rules and overrides", 4},
}

// PushbackByID finds a pushback by its id.
func PushbackByID(id string) (Push, bool) {
	for _, p := range Pushback {
		if p.ID == id {
			return p, true
		}
	}
	return Push{}, false
}

// PushbackFor lists the pushbacks a prompt throws, in its order.
func PushbackFor(p Prompt) []Push {
	var out []Push
	for _, id := range p.Pushback {
		if q, ok := PushbackByID(id); ok {
			out = append(out, q)
		}
	}
	return out
}

// PushbackMarkdown renders the pushback bank as Markdown: each prompt a
// paragraph, then what a strong answer contains as a list of its own (not
// nested: the terminal app's renderer wraps a nested item a few columns too
// wide and then breaks it at a comma, "1," / "700").
func PushbackMarkdown() string {
	var b strings.Builder
	for i, p := range Pushback {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "**%d. \"%s\"** (ch %s; proof: %s; card `%s`)\n\n", i+1, p.Prompt, p.Chapter, p.Proof, p.Card)
		for _, s := range p.Strong {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	return b.String()
}
