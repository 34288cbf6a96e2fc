package interview

import "strings"

// Question is one drill card: a question an interviewer asks, the sentence
// to say first, and a model answer short enough to say out loud that
// carries the proof (the numbers and the chapter).
type Question struct {
	ID       string `yaml:"id"`        // stable key of saved progress: chapter/topic as first published, never renamed
	Chapter  string `yaml:"chapter"`   // "01" … "09": where the course teaches it
	Topic    string `yaml:"topic"`     // a few words
	Q        string `yaml:"q"`         // the question
	SayFirst string `yaml:"say_first"` // the one-sentence answer, said before the proof
	A        string `yaml:"a"`         // the follow-up: the proof, in about a minute
}

// Drill is the question bank, in course order. Every chapter has at least
// one card; the numbers are the worked examples' numbers and the course's
// measurements. Cards on overload and beyond the counter (in flight,
// shedding, client throttling, regions, cost budgets, fairness, shadow
// rollout) point at chapter 09, which implements each one.
var Drill = []Question{
	{ID: "01/placement", Chapter: "01", Topic: "placement",
		Q: "Where in the request path does a rate limiter belong, and why there?",
		A: "Before the work it protects, once it knows whom to count. For a per-user contract that is after identity and before the business logic, " +
			"so a rejected request never touches the database, and the decision must cost less than the work it saves. " +
			"Login is the exception: authentication is the expensive step, so count by source network before it and by the account being tried. " +
			"Per-node limits are a bug as a per-client contract, but the right tool when the thing protected is the node itself " +
			"(Envoy's local rate limit), and exact when routing is sticky by the limiter's key.",
		SayFirst: "Before the work it protects, right after the request's identity is known."},
	{ID: "01/the four questions", Chapter: "01", Topic: "the four questions",
		Q: "Before naming an algorithm, which four questions do you answer?",
		A: "Key: who is counted (user, API key, IP grouped by CIDR, key x route) and what each endpoint costs. " +
			"Shape: 'at most N in any window' or 'a rate plus a burst'. Shared state: how N servers share one count and what happens when it is down. " +
			"Placement: edge, gateway or service. The four are independent: one token bucket can count API keys at the gateway or users in the service.",
		SayFirst: "Key, shape, shared state and placement: who is counted, what the limit promises, how the servers share it, and where it runs."},
	{ID: "01/keys and costs", Chapter: "01", Topic: "keys and costs",
		Q: "Why group client addresses by /24 or /64, and how do you charge an upload more than a read?",
		A: "A single address is too cheap to rotate: an IPv6 subscriber can use a fresh address per request, and a /64 is the smallest block a customer gets. " +
			"Counting the network costs some collateral (neighbours share a budget) but makes rotation expensive. " +
			"For weights, a token bucket takes cost tokens at once: upload 5, read 1. With 3 tokens left an upload is rejected while a read still passes.",
		SayFirst: "Count networks rather than single addresses, and charge each request its cost in tokens."},
	{ID: "01/IPv6 escalation", Chapter: "01", Topic: "IPv6 escalation",
		Q: "You count IPv6 clients per /64. Can one customer escape that limit?",
		A: "Yes: a /64 is the floor, not a key the client cannot leave. Homes are commonly given a /56 and businesses a /48 (RIPE-690), " +
			"that is 256 or 65,536 /64s, each a fresh budget. Escalate: keep the /64 limit and add a /56 and a /48 limit with larger budgets, all applied together. " +
			"With 10 per /64 and 40 per /56, a customer sending 5 from each of the 256 /64s of its /56 (1,280 requests) passes every /64 check, " +
			"and the /56 layer admits 40; a neighbour in another /56 keeps its own budget. Widen the key only as far as the abuse reaches.",
		SayFirst: "Yes: a /64 is the smallest block a customer gets, not its whole allocation, so add /56 and /48 limits above it."},
	{ID: "01/credential stuffing", Chapter: "01", Topic: "credential stuffing",
		Q: "An attacker tries stolen passwords against your login from 50,000 addresses, two tries each. Which limits catch it?",
		A: "Not a per-IP limit: every address stays under any sane threshold. Key by the account being tried (a few failures per account per 15 minutes, " +
			"then slow down or challenge rather than a hard lockout an attacker could aim at your users), count failures per network (/24, /56) and in total " +
			"to see the wave, and keep the per-IP limit for a single noisy source. All of them run before the password hash is computed: " +
			"the hash is the expensive work being protected.",
		SayFirst: "Key by the account being tried and count failures per network and in total, all before the password hash."},
	{ID: "01/the 429 contract", Chapter: "01", Topic: "the 429 contract",
		Q: "What does a correct rate-limit rejection look like on the wire?",
		A: "Status 429 with Retry-After in whole seconds rounded up, never earlier than a permit exists (0.6 s becomes 1, not 0), and a JSON error body. " +
			"Quota headers go on every response, not only on 429: the current drafts' RateLimit-Policy: \"default\";q=100;w=60 and RateLimit: \"default\";r=42;t=1, " +
			"where since draft -10 t is the seconds until more quota is available (the next permit, 0.6 s away, rounded up), not until the quota is full. The draft says Retry-After should not point earlier than t; sending t equal to Retry-After on a 429 is the course's convention. " +
			"The older trio RateLimit-Limit/-Remaining/-Reset counts delta seconds, never a Unix time. If Retry-After and RateLimit disagree, Retry-After wins.",
		SayFirst: "A 429 with Retry-After rounded up and a JSON body, and quota headers on every response."},
	{ID: "01/client retries", Chapter: "01", Topic: "client retries",
		Q: "A client gets 429 with Retry-After: 3 and its jittered backoff draws 0.4 s. How long does it wait, and why not max(3, 0.4)?",
		A: "3.4 s: Retry-After is the floor and the jitter goes on top. max(Retry-After, backoff) gives every draw below Retry-After the same instant: " +
			"10,000 clients told Retry-After: 30 with up to 1 s of jitter all come back at exactly t = 30 s. With Retry-After + U[0, min(cap, base x 2^n)] " +
			"and 10 s of jitter, none comes back before 30 s and about 1,000 come back each second. min(backoff, Retry-After) is worse: the draw cuts the " +
			"server's answer short and the client is rejected again. A Retry-After too large to represent means wait the longest, never retry now.",
		SayFirst: "3.4 s, because Retry-After is a floor and the jitter belongs on top of it."},
	{ID: "02/boundary attack", Chapter: "02", Topic: "boundary attack",
		Q: "The limit is 5 per second with a fixed window. Can an attacker get 10 through within one second?",
		A: "Yes: 5 just before a boundary and 5 just after. Each window holds 5, but the pair lands inside far less than a second. " +
			"With W = 1000 ms and L = 3, arrivals at 820 880 940 960 1000 1060 1120 1850 give A A A R A A A R: 6 inside 300 ms, max 2L in a window. " +
			"A TTL set on each key's first hit instead of aligned windows only staggers users, so the site-wide spike at the top of the second goes; " +
			"one attacker still fills a window just before it expires and the next just after, 2L-1 in some W. " +
			"Accept it only when you can say why (an hourly anti-scraping cap); otherwise move to a sliding window or a bucket.",
		SayFirst: "Yes: 5 just before a boundary and 5 just after, so a fixed window lets 2L through in some window."},
	{ID: "03/sliding counter error", Chapter: "03", Topic: "sliding counter error",
		Q: "Is the sliding-window counter's estimate a safe, conservative approximation?",
		A: "No, it errs both ways because it assumes the previous window was spread evenly. Previous 3 at 0, 10, 20 ms: at 1200/1220/1240 the estimates " +
			"are 2.40/3.34/3.28, so it rejects two requests a log would allow (true counts 1 and 2). Previous 3 at 970, 980, 990: estimates " +
			"1.50/2.47/3.44 admit two more, 5 inside 540 ms against L = 3. Its exact worst case is 2L, like a fixed window.",
		SayFirst: "No: it assumes the previous window was spread evenly, so it errs both ways, up to 2L."},
	{ID: "03/sliding log cost", Chapter: "03", Topic: "sliding log cost",
		Q: "When is a sliding log the right choice, and what does it cost?",
		A: "When the contract is 'never more than L in any W' and L is small: login, OTP, password reset. It keeps one timestamp per allowed request, " +
			"O(L) per key (a sorted set in Redis), prunes entries whose age has reached W and admits while fewer than L remain. " +
			"In Redis an entry costs 32 to 123 B: about 32 B at L = 100, where the set is a compact listpack, and about 123 B at L = 10,000 as a skiplist (chapter 06, with the course's long member); a key at L = 10,000 holds about 1.2 MB. " +
			"Members must be unique, or two requests in one ms merge into one.",
		SayFirst: "When the contract is exactly L in any W and L is small, because it stores one entry per allowed request."},
	{ID: "04/token bucket burst", Chapter: "04", Topic: "token bucket burst",
		Q: "Capacity 3, refill 3 per second. How many requests can get through in one second?",
		A: "Five in any half-open window [s, s + 1 s), the course's convention: 3 at 0 ms empty the bucket, a token is back by 334 ms and another by 667 ms, " +
			"and the third refill lands at 1000 ms, just outside. Count a closed window [s, s + 1 s] and it is C + R x W = 3 + 3 = 6. " +
			"In general about C + R x W in any W. That burst is the design, not a bug: a token bucket forwards at once, so the burst reaches upstream.",
		SayFirst: "Five in any half-open one-second window, six if the window is closed: about C + R·W, by design."},
	{ID: "04/GCRA vs leaky queue", Chapter: "04", Topic: "GCRA vs leaky queue",
		Q: "Is GCRA a third kind of bucket? What changes if you add a queue?",
		A: "GCRA is the leaky bucket used as a meter: one instant, TAT, and TAT - now <= tau is the same test as tokens >= 1, so it makes exactly " +
			"the token bucket's decisions. Only the queue changes the output: with C = 3, R = 2/s and arrivals at 0, 10, 20, 30 ms, both reject the 4th, " +
			"but the queue sends at 0, 500, 1000 ms (waits 0, 490, 980) while the meter sends all three within 20 ms. " +
			"nginx's limit_req with burst is the queue; with nodelay it is the meter.",
		SayFirst: "GCRA makes the token bucket's decisions with one number; only a queue changes what upstream sees."},
	{ID: "05/average error vs a bound", Chapter: "05", Topic: "average error vs a bound",
		Q: "Cloudflare found its sliding-window counter wrong on only 0.003% of requests. Is an approximate counter accurate enough?",
		A: "For flood control, often; for a contract, no, and that figure is not the course's measure. Cloudflare counts every matching request and, once a source " +
			"crosses the threshold, mitigates it for a period, per data centre; chapter 05's lab counts admitted requests and decides each one. On seeded Poisson " +
			"traffic it finds 0% wrong for keys at half their limit but 16% for keys at their limit: the share depends on how close keys run to L. " +
			"An adversary picks the moments the even-spread assumption fails and reaches 2L every time. An average is not a bound.",
		SayFirst: "An average error is not a bound: an adversary reaches 2L every time."},
	{ID: "06/per-node counting", Chapter: "06", Topic: "per-node counting",
		Q: "Ten pods each enforce 100 per second in memory. What is the real limit, and when is that fine?",
		A: "About 1000 per second: every node counts only what it sees, so the limit multiplies by the node count (3 nodes at 10/s let 30 through). " +
			"Dividing by the node count breaks when traffic is uneven or the fleet scales. One shared counter per key, usually in Redis, holds the fleet to the limit: 10, not 30. " +
			"Per-node limits are right when they protect the node (its CPU, its connections), and exact when the load balancer routes each key to one node.",
		SayFirst: "About 1000 per second: a per-node limit multiplies by the node count."},
	{ID: "06/double spend", Chapter: "06", Topic: "double spend",
		Q: "Two nodes read a balance of 1 from Redis, both write 0 and both allow. What went wrong, and what is the fix?",
		A: "A read-modify-write across round trips: both read before either wrote, so one permit was spent twice. Put the read, the decision and the write " +
			"in one Lua script; Redis runs it atomically, so the same interleaving allows exactly one. The expiry belongs in the same script: an INCR whose " +
			"PEXPIRE never arrived makes a key that never expires and blocks its identity forever. Set the expiry when PTTL < 0, not only when the count is 1, " +
			"and the next request repairs a key that lost its TTL.",
		SayFirst: "A read-modify-write across round trips; one Lua script makes the decision atomic."},
	{ID: "06/clock skew", Chapter: "06", Topic: "clock skew",
		Q: "Your app servers compute the window id from their own clocks. What breaks with a 1-second window?",
		A: "Two servers 200 ms apart put the same instant in different windows, so counts split and limits drift. Take the time inside the script " +
			"with Redis TIME: every decision uses one clock. Scripts replicate by their effects (the default since Redis 5), so a script may call TIME and then write.",
		SayFirst: "The windows split between clocks; take the time from Redis TIME inside the script."},
	{ID: "06/hot keys and prefetch", Chapter: "06", Topic: "hot keys and prefetch",
		Q: "One customer sends tens of thousands of requests per second to one key. Do you shard the key?",
		A: "Not the limit: four shards each with the full limit over-admit, and a quarter each rejects early when traffic is uneven. A sharded counter (write one of N sub-keys, decide on their sum) " +
			"keeps the count whole but reads N keys per decision and loses the atomic check, so it suits long quotas read from a cached sum. For a per-second limit prefetch: a node " +
			"atomically borrows min(batch, remaining) and spends it locally. It never over-admits within a window (over a sliding W it can still reach 2L, like any fixed window), but quota strands: " +
			"limit 6, batch 4, A takes 4 and uses 2, B takes 2 and uses 2, and B's next request is rejected while A holds 2. Delayed write-back is the design that over-admits (4 x 10 = 40).",
		SayFirst: "Don't split the limit: prefetch quota locally and accept that some of it strands; shard only the writes, for long quotas."},
	{ID: "06/fail open or closed", Chapter: "06", Topic: "fail open or closed",
		Q: "Redis times out. Does the limiter allow or reject?",
		A: "It depends on the endpoint, decided in advance. Login, OTP and password reset fail closed (503 with Retry-After, not 429: the client is not over its quota; or a stricter local limit), " +
			"or an attacker just has to break the counter. Ordinary reads fail open through a small per-node token bucket, bounded and never unlimited. " +
			"Billed calls use a local limit of about global / node count. Keep the Redis timeout to a few ms and put a breaker in front.",
		SayFirst: "Decided per endpoint in advance: closed for login and OTP, open through a small local bucket for reads."},
	{ID: "06/sizing memory and shards", Chapter: "06", Topic: "sizing memory and shards",
		Q: "How much Redis does a limiter need for 10 million active keys and 200,000 decisions per second?",
		A: "Memory from MEMORY USAGE and what it leaves out: chapter 06 measured 168 B for a token-bucket key (136 B for a fixed window, a sliding counter or GCRA); " +
			"add the key's expires entry, the hash-table buckets (more during a rehash) and fragmentation, and a token-bucket key costs 224 to 384 B: 10 M keys are 2.2 to 3.8 GB per copy, 4.5 to 7.7 GB with one replica. " +
			"Throughput from server time: a token-bucket script takes 5.8 µs of Redis's one thread, so one core makes at most 173k decisions/s with the round trips amortised (pipelining), " +
			"and 79k/s at one request per round trip, which costs about 6.9 µs more (chapter 06 measured 71k/s). At half a core each, 200k/s needs 3 to 6 primaries; replicas add no decision capacity.",
		SayFirst: "Derive it: bytes per key from MEMORY USAGE plus what it leaves out, decisions per core from the script's server time."},
	{ID: "06/Redis failover", Chapter: "06", Topic: "Redis failover",
		Q: "The limiter's Redis primary dies and a replica is promoted. What goes wrong, and what can you do?",
		A: "Replication is asynchronous, so increments the primary acknowledged but had not shipped are lost, and the new primary admits that many extra requests in the window. " +
			"Often that is acceptable for a rare event. min-replicas-to-write with min-replicas-max-lag makes a primary cut off from its replicas refuse writes, and the failure policy decides; " +
			"WAIT after each decision narrows the loss at a replication round trip per decision. Neither makes Redis strongly consistent. " +
			"While the failover runs, calls time out: that is the fail-open-or-closed decision per endpoint.",
		SayFirst: "Replication is asynchronous, so a failover forgets recent increments and admits that many extra."},
	{ID: "07/choosing the limit", Chapter: "07", Topic: "choosing the limit",
		Q: "How do you choose the number: 100 per minute or 1,000?",
		A: "From both sides. Capacity: what the protected resource sustains under load test, shared among the clients that use it with headroom " +
			"(5,000 rps shared by about 50 heavy tenants is about 100 rps each). Demand: measure real per-key rates first, in shadow mode, and set the limit above what legitimate keys do at their peak, " +
			"so it catches abuse and not customers. The burst is what a legitimate client does at once (a page load, a batch). Publish it per plan, and revisit it with the 429 rate per rule.",
		SayFirst: "From both sides: what the resource sustains, and what legitimate keys do, measured in shadow mode."},
	{ID: "07/the api", Chapter: "07", Topic: "the api",
		Q: "What is the limiter's API?",
		A: "One call per request, made by the gateway or the service's sidecar: ShouldRateLimit(domain, descriptors, hits) returns a code (OK or OVER_LIMIT) and, per descriptor, " +
			"what remains and when the window resets: the shape of Envoy's rate limit service, which chapter 10 builds. The domain names a rule set, a descriptor is an ordered list of " +
			"entries such as [tenant=acme, route=/upload], and hits is the cost. The caller turns OVER_LIMIT into a 429 with Retry-After and the quota headers; on gRPC, RESOURCE_EXHAUSTED from your own code, but Envoy's filter sends UNAVAILABLE unless rate_limited_as_resource_exhausted is set. " +
			"The caller builds the descriptors from the verified identity; the service never counts a key the client chose.",
		SayFirst: "ShouldRateLimit(domain, descriptors, hits) returns a code, what remains and when the window resets."},
	{ID: "07/rules and overrides", Chapter: "07", Topic: "rules and overrides",
		Q: "Limits change every week and one customer needs a higher one. Where do the limits live?",
		A: "In a rule set per domain: descriptors nest (tier = free, then route), each leaf has a unit and a number of requests per unit, and an override is a more specific descriptor " +
			"(customer = acme) that wins over its tier's. The rules live in a reviewed file or config store; the service validates a new version (one error naming file, line and field), " +
			"swaps it in atomically, keeps the old rules on error and counts the failure, and leaves the counters of unchanged rules alone. Poll every few seconds or push; " +
			"either way a bad edit never takes effect, and a new limit starts in shadow mode.",
		SayFirst: "In rules, not code: nested descriptors with a limit per leaf, tiers per plan and overrides per customer, validated and hot-reloaded."},
	{ID: "07/library sidecar or service", Chapter: "07", Topic: "library sidecar or service",
		Q: "Do you put the limiter in a library, a sidecar, or a central service?",
		A: "A library decides in process, 17.4 ns per token-bucket decision (chapter 04), but each node counts alone: right to protect the node, wrong for a per-client contract. " +
			"A shared count needs a store: one decision through one Redis node on loopback is 18 µs p50 and 49 µs p99 (chapter 10, E36), plus a round trip per zone crossed, typically 0.5 to 2 ms. " +
			"A central service, called directly or through a sidecar, puts the rules, the languages and the metrics in one place at the price of its own hop, which chapter 10 measures. " +
			"Most designs use both: a local tier (node protection, deny cache, prefetch) and the service for the shared limit.",
		SayFirst: "Decide by who must share the count and by the latency budget: a library costs nanoseconds but counts per node, a service costs a hop for one shared count."},
	{ID: "07/local deny cache", Chapter: "07", Topic: "local deny cache",
		Q: "An abusive key sends ten times its limit. Does every rejected request cost a Redis call?",
		A: "Not with two tiers. The node keeps a small map of keys known to be over their limit, with the reset the store returned, and rejects those keys from memory until then. " +
			"The decisions do not change, because a key over its limit stays over until its window resets, but Redis sees about the limit plus a few calls per window instead of one per request " +
			"(chapter 10's deny cache, E34). Bound the map (an LRU) so an attacker cannot grow it, and never cache an allow: that is prefetch, with its stranding.",
		SayFirst: "No: once a key is over its limit, remember that on the node until its window resets and reject it from memory."},
	{ID: "07/envoy and rlqs", Chapter: "07", Topic: "envoy and rlqs",
		Q: "How does Envoy do global rate limiting, and what does RLQS change?",
		A: "Envoy's local rate limit filter is a token bucket per Envoy process (or per connection) that answers 429 without a network call. Its global filter calls a rate limit service " +
			"with the domain and the descriptors the route's actions build (remote address, a header, the path), and the service, envoyproxy/ratelimit on Redis for one, answers OK or OVER_LIMIT. " +
			"Run both: the local bucket absorbs floods cheaply, the global call holds the shared contract. RLQS, the rate limit quota service (still work in progress), turns the flow around: " +
			"each proxy reports its usage per bucket and the server pushes quota assignments, so decisions stay local.",
		SayFirst: "A local token bucket per proxy first, then a call to a rate limit service with descriptors; RLQS instead pushes each proxy a quota to spend locally."},
	{ID: "07/per-PoP counting", Chapter: "07", Topic: "per-PoP counting",
		Q: "Cloudflare rate-limits at its edge. Is the count global?",
		A: "No: Cloudflare keeps a counter per combination of the rule's characteristics and does not share counters across data centres, so a rule is a limit per PoP. " +
			"A client that reaches two PoPs has two budgets. That is fine for floods, whose traffic concentrates on the nearby PoPs, and wrong for a contract. " +
			"Its counting is the sliding-window estimate of chapter 03, with that estimate's error. A per-customer contract across the world needs a global store or leases per region, " +
			"and a statement of how approximate it is.",
		SayFirst: "No: counters are kept per data centre, so an edge rule is a limit per PoP."},
	{ID: "07/edge and ddos layering", Chapter: "07", Topic: "edge and ddos layering",
		Q: "Can a rate limiter stop a DDoS?",
		A: "Only its application-layer part, so layer it. L3/L4 floods (SYN, UDP, reflection) fill links and connection tables: anycast, scrubbing and SYN cookies at the network and the edge " +
			"absorb them before any request exists. At L7 the edge counts per IP, network or, if it verifies tokens, a JWT claim (its windows are the vendor's: AWS WAF 1 to 10 minutes, Cloudflare from 10 s) and prefers a challenge to a block, which costs a browser a moment and a bot its attack. " +
			"Behind it the gateway limits per API key and the service per user. A rate limit cannot stop an attack spread thinly over many sources, each under any threshold, " +
			"nor one that fills the link before the edge: say so.",
		SayFirst: "Only the application-layer part: volumetric L3/L4 floods are absorbed by the network and the edge before a limiter sees a request."},
	{ID: "07/managed redis", Chapter: "07", Topic: "managed redis",
		Q: "You run the limiter on ElastiCache or Memorystore with the default settings. What goes wrong?",
		A: "Both default to maxmemory-policy volatile-lru: when memory fills, Redis evicts among keys with a TTL, and every limiter key has one (they are the only candidates when the other data has none). " +
			"An evicted key is a fresh limit: chapter 06 measured that out-of-the-box state, a sliding log evicted before every call admitting 300 of 300 against L = 50 (E20). " +
			"Set noeviction or give the limiter its own cluster, and check the policy at start-up (in the console where CONFIG is disabled). " +
			"Never decide from a replica: replication is asynchronous, so its counts are stale and under-count.",
		SayFirst: "The default policy is volatile-lru, so every limiter key, having a TTL, is an eviction candidate, and an evicted key admits a fresh limit."},
	{ID: "07/what to alert on", Chapter: "07", Topic: "what to alert on",
		Q: "How do you know the limiter works? What do you alert on?",
		A: "Per rule: decisions, 429s and the 429 rate with the top keys behind them, near-limit keys (under 10% of their limit for a set time), and shadow would-rejects beside enforced ones. " +
			"Per store: p99 latency against the budget, errors and timeouts, and the fail-open count, which is the number of requests that went through unlimited. " +
			"Page on the fail-open count rising or the store's p99 breaking its budget; open a ticket when a rule's 429 rate jumps after a release or a rules change. " +
			"Roll every new limit out in shadow mode and compare.",
		SayFirst: "Alert on the limiter failing, not on customers being limited: fail-open decisions, the store's p99 and errors, and a 429 rate per rule that moves."},
	{ID: "07/cgnat and shared ips", Chapter: "07", Topic: "cgnat and shared ips",
		Q: "Many users share one IP address behind carrier-grade NAT. What happens to a per-IP limit?",
		A: "Carrier-grade NAT, mobile networks, corporate proxies and campuses put many users behind one IPv4 address, and grouping by /24 widens that to a neighbourhood: " +
			"one heavy user gets all of them rejected, the collateral damage of a per-IP key. Count the verified user or API key wherever identity exists; keep per-IP or per-/24 limits " +
			"for before authentication (login, signup), set well above what one address's users do, and challenge rather than block. For IPv6 count the /64 and widen to /56 and /48 only as far as the abuse reaches.",
		SayFirst: "It becomes a limit on everyone behind that address, so key by the verified user and keep per-IP limits generous and before authentication only."},
	{ID: "07/grpc and streaming", Chapter: "07", Topic: "grpc and streaming",
		Q: "The API is gRPC with long-lived streams, plus a WebSocket endpoint. What changes?",
		A: "Over quota, answer RESOURCE_EXHAUSTED (google.rpc's code for 429) with the retry delay in the details; keep UNAVAILABLE for overload, as 503. " +
			"But gRPC's table for a bare HTTP status maps 429 to UNAVAILABLE, and Envoy's rate limit filter follows it unless rate_limited_as_resource_exhausted is set: set it, or quota looks like an outage. One stream can carry any number of messages, so a per-call limit sees one request: limit stream opens per key, " +
			"messages or bytes per stream with a local token bucket, and concurrent streams per connection and per key. A WebSocket is the same: limit connection opens per key " +
			"and messages per connection, and close a connection that stays over its message budget.",
		SayFirst: "Answer RESOURCE_EXHAUSTED (behind Envoy, set rate_limited_as_resource_exhausted), and limit stream opens, messages per stream and concurrent streams, not only calls."},
	{ID: "07/app-limited guard", Chapter: "07", Topic: "app-limited guard",
		Q: "Your AIMD concurrency limit keeps growing overnight while traffic is low. Why, and what guards it?",
		A: "AIMD adds 1 per window without a timeout, but at night 5 requests in flight never test a limit of 20: after 100 quiet windows the bare rule reads 120, learned from nothing, and the morning peak meets no protection; guarded, it stays at 20. " +
			"Netflix's AIMDLimit grows only when in flight x 2 >= limit, and Gradient2Limit leaves the limit alone while in flight < limit / 2. Gradient2 compares a long-term average RTT " +
			"with the latest: gradient = clamp(1.5 x long / short, 0.5, 1), 1.5 being the default RTT tolerance, new = limit x gradient + queue (4 by default), smoothed by 0.2 and kept between 20 and 200 by default.",
		SayFirst: "Grow the limit only when in flight is at least half of it: an app-limited client's successes prove nothing about capacity."},
	{ID: "07/two million per second", Chapter: "07", Topic: "two million per second",
		Q: "Traffic grows from 200,000 to 2 million decisions per second. What changes?",
		A: "Redo the arithmetic: at 5.8 µs per token-bucket decision one core makes 173k/s pipelined and 79k/s at one round trip, so at half a core each 2 M/s needs 24 to 51 primaries " +
			"where 200k/s needed 3 to 6 primaries. Before buying them, take calls off Redis: a deny cache answers keys already over their limit, prefetch spends hot keys' quota locally, " +
			"pipelining batches a node's concurrent decisions, and floods stop at the edge. The hot key still lands on one primary whatever the cluster size: prefetch is its answer. " +
			"Memory grows with active keys, not with requests.",
		SayFirst: "Redo the arithmetic from server time, then keep most decisions off Redis."},
	{ID: "07/429 below the limit", Chapter: "07", Topic: "429 below the limit",
		Q: "A customer says they get 429s while below their limit. How do you find out why?",
		A: "Start from the rejection: the rule and the key in the log or the RateLimit-Policy header. Then the usual causes: the key is shared (their servers behind one NAT address, " +
			"one API key for many users); their average is under the limit but a burst is not (a bucket's capacity, a fixed window that resets at another moment than they think, " +
			"a sliding counter's estimate rejecting early); another layer answered first (the WAF's 403, the gateway's account throttle); per-node limits on uneven balancing; " +
			"or their rejected retries counted. Near-limit signals and shadow logs per key show it before they complain.",
		SayFirst: "Find the rule that rejected and the key it counted; the usual answers are a shared key, a burst inside the average, or another layer."},
	{ID: "07/one region down", Chapter: "07", Topic: "one region down",
		Q: "One of three regions goes down and its traffic moves to the other two. What happens to your limits?",
		A: "With a static split of 333 per region, the lost region's users arrive in the other two and find only those regions' shares: legitimate requests are rejected while a third " +
			"of the global quota sits unused. Leases weighted by recent demand move quota to where the requests arrive; counting locally with asynchronous sync keeps working " +
			"but overshoots by regions x rate x lag. No decision may wait on a cross-region call, and when the coordinator is unreachable keep the last leases, never unlimited.",
		SayFirst: "The survivors must take over its share: a static split now rejects legitimate traffic, leases rebalance to follow the demand."},
	{ID: "07/tight retry loop", Chapter: "07", Topic: "tight retry loop",
		Q: "A client retries a rejected request in a tight loop. What protects you, and what should the client do?",
		A: "Every rejected retry still costs a parse, a lookup and, without a local tier, a Redis call: the deny cache answers an over-limit key from memory until its reset. " +
			"Send an honest Retry-After so that a well-behaved client waits, and count rejections in a second, stricter rule that blocks or challenges a key that keeps hammering. " +
			"On the client: wait Retry-After plus jitter, retry at one layer only inside a 10% retry budget, and throttle adaptively (Google SRE) so rejected work is dropped before it is sent.",
		SayFirst: "Make rejection cheap and honest: answer from the deny cache with Retry-After, and escalate if the loop goes on."},
	{ID: "08/cloud layers", Chapter: "08", Topic: "cloud layers",
		Q: "We already have AWS WAF and API Gateway usage plans. Do we still need a limiter in the service?",
		A: "Yes. A WAF rate rule estimates a count per IP, forwarded IP or custom key (a header, cookie, query argument, path, label …) over 1 to 10 minutes with a threshold of at least 10, " +
			"and acts after a lag, usually under 30 s, at times minutes: made for floods, not precise limits. A usage plan (REST APIs only) is a token bucket per API key plus a day/week/month quota, best effort, not a hard cap. " +
			"For '5 per second per user id' AWS WAF is out (its shortest window is a minute; Cloudflare's is 10 s, per data centre); a usage plan with one API key per user approximates it, best effort: it may let a burst over, a user with two keys gets twice, and your service must issue the keys. The service layer enforces it exactly.",
		SayFirst: "Yes: the WAF and the gateway count addresses and API keys coarsely; per-user contracts live in the service."},
	{ID: "08/what the client sees", Chapter: "08", Topic: "what the client sees",
		Q: "A partner trips the WAF rate rule. What does the partner see, and what do your logs show?",
		A: "A 403 by default, or the rule's custom response (status, headers and body: it can be a 429 with Retry-After), while its rate stays above the threshold, " +
			"after a detection lag, so a short burst may pass entirely. Behind CloudFront it answers at the edge; on an API Gateway stage or an ALB, in the Region. " +
			"The application never sees blocked requests, so they appear in WAF logs and metrics, not in your service logs. A usage-plan throttle or quota rejects at the gateway with 429.",
		SayFirst: "A 403 from the WAF by default or a 429 from the gateway, and nothing in your service logs."},
	{ID: "08/gateway throttles", Chapter: "08", Topic: "gateway throttles",
		Q: "A usage plan grants a partner 20,000 requests per second. Will the partner get them?",
		A: "Not unless the account limit is raised. API Gateway applies the usage-plan throttle, the stage throttle and the account throttle, and any can reject first. " +
			"The account's is 10,000 rps with a burst of 5,000 in most Regions (2,500 and 1,250 in some newer ones), shared by every API of the account in that Region; " +
			"the rate can be raised on request, the burst is set by AWS. One API key can be in several usage plans, one per stage.",
		SayFirst: "Not unless the account limit is raised: the account throttle is shared by every API and can reject first."},
	{ID: "09/tenant fairness", Chapter: "09", Topic: "tenant fairness",
		Q: "One tenant's batch job takes the shared capacity and every other tenant slows down. How do you share fairly?",
		A: "Give each tenant its own limit sized by its plan, so no tenant takes more than it bought, and nest keys (tenant, then tenant x user) so one user cannot use the whole tenant's share. " +
			"When shared capacity is scarce, split it max-min fair by weight: each tenant gets min(demand, weighted share) and what small tenants leave is redistributed. " +
			"100 rps, weights A 2, B 1, C 1, demand 150/10/80: A 60, B 10, C 30. A split in proportion to demand gives 62.5/4.2/33.3: the heaviest user takes the most and the small tenant is starved below its demand.",
		SayFirst: "A limit per tenant sized by its plan, and max-min fair shares by weight when capacity is scarce."},
	{ID: "09/LLM token budget", Chapter: "09", Topic: "LLM token budget",
		Q: "You limit an LLM API to 10,000 tokens per minute per key, but a request's output length is unknown until it ends. How do you charge it?",
		A: "Reserve, then refund. Charge the input plus the maximum output up front, 500 + 2,000 = 2,500, so concurrent requests cannot overdraw: " +
			"of five at once four are admitted and the fifth gets 429. Each then uses 300 output tokens and refunds the unused 1,700, so 6,800 come back. " +
			"Charging after the fact lets a burst of long answers spend far past the budget; charging the maximum without a refund wastes it. " +
			"A token bucket with a cost does the reserving; the refund adds tokens back, capped at the capacity. Keep a request-rate or in-flight limit beside it.",
		SayFirst: "Reserve the input plus the maximum output, then refund what was not used."},
	{ID: "09/many regions", Chapter: "09", Topic: "many regions",
		Q: "The limit is 1,000 per minute per customer worldwide, served from three regions. How do you enforce it?",
		A: "Not with one counter across an ocean: a cross-region round trip per request costs more than the request. A static split of 333 each is simple and wastes quota: " +
			"with demand 700/200/100 it admits 333 + 200 + 100 = 633. Counting locally and syncing asynchronously overshoots by at most regions x rate x lag: " +
			"3 x 10/s x 2 s = 60. Leases from a coordinator, weighted by recent demand (700/200/100), admit all 1,000 and rebalance as demand moves. " +
			"Say out loud that the global number is approximate, and by how much.",
		SayFirst: "Not with one counter across an ocean: leases weighted by demand, and say how approximate the global number is."},
	{ID: "09/in flight vs rate", Chapter: "09", Topic: "in flight vs rate",
		Q: "Your token bucket admits 100 rps. The dependency behind it slows from 0.2 s to 5 s. What happens, and what limit would have helped?",
		A: "By Little's law, in flight = rate x latency: 100 x 0.2 = 20 normally, 100 x 5 = 500 once it slows, and the bucket keeps admitting 100 per second " +
			"while threads, connections and memory fill with waiting requests. A concurrency limit of 20 holds 20 in flight and the admitted rate falls to 20 / 5 s = 4 per second by itself. " +
			"A rate limit is a contract per client; an in-flight limit protects the server. Use both.",
		SayFirst: "In flight is rate times latency: 500 pile up behind a rate limit where a concurrency cap holds 20."},
	{ID: "09/shedding and 429 vs 503", Chapter: "09", Topic: "shedding and 429 vs 503",
		Q: "The service is overloaded, though no client is over its quota. Whom do you reject, and with which status?",
		A: "Shed by priority and answer 503 with Retry-After: 429 says 'you asked too much', 503 says 'we are overloaded'. Reserve part of the capacity for critical traffic: " +
			"1,000 slots with 20% reserved, offered 900 ordinary and 300 critical, admits 800 ordinary and 200 critical, and the other 100 of each get 503. " +
			"Shed early and cheaply, before parsing bodies or calling dependencies, and keep the retries of shed requests from becoming the next wave (a retry budget).",
		SayFirst: "Shed by priority with 503 and Retry-After; 429 means this client asked too much."},
	{ID: "09/shadow rollout", Chapter: "09", Topic: "shadow rollout",
		Q: "How do you roll out a new limit without taking down your biggest customer?",
		A: "Shadow mode first: the limiter decides every request and records what it would reject, per key and rule, but serves everything. On the same traffic shadow mode " +
			"counts exactly the rejections enforcement would make, so the log is the real impact. Review who would be hit, raise or exempt them, then enforce gradually " +
			"(one rule, a share of keys, one region) with a kill switch, the 429 rate per rule on a dashboard, and a near-limit signal for keys that stay under 10% remaining.",
		SayFirst: "Shadow mode first: decide and record every would-reject, serve everything."},
	{ID: "09/adaptive client throttling", Chapter: "09", Topic: "adaptive client throttling",
		Q:        "Your backend rejects 60% of one client's requests. Should the client keep sending them?",
		A:        "No: every rejection still costs the backend work. With adaptive throttling (Google SRE) the client counts, over the last two minutes, the requests it attempted and those accepted, and drops a new one locally with probability max(0, (requests - K x accepts) / (requests + 1)): 1,000 and 400 with K = 2 give 200/1001, about 0.20. It ends up sending about K times what is accepted: wanting 1,000 a minute against a backend that accepts 400, it sends 800 (about 440 with K = 1.1). Dropped requests count as attempts, so the drops fade by themselves when the backend recovers.",
		SayFirst: "No: the client drops requests locally in proportion to what the backend rejects."},
	{ID: "09/retry budget", Chapter: "09", Topic: "retry budget",
		Q:        "Every layer of your stack retries failures three times. What happens when the bottom fails, and what bounds it?",
		A:        "Retries multiply: 3 attempts at each of three layers is 27 attempts at the bottom per user request, on a backend that is already failing. Retry at one layer only, with jitter on top of Retry-After, inside a retry budget: a retry is allowed only while retries stay within 10% of requests. 1,000 failing requests wanting 3 retries each would be 4,000 attempts; the budget allows exactly 100 retries, 1,100 attempts.",
		SayFirst: "Retries multiply per layer, 27 attempts at the bottom; retry at one layer inside a 10% budget."},
	{ID: "09/adaptive concurrency limits", Chapter: "09", Topic: "adaptive concurrency limits",
		Q:        "You have an in-flight limit, but nobody knows the right number and it changes as you scale. How does it find itself?",
		A:        "Like TCP's congestion window. AIMD adds 1 per clean window and multiplies by 0.9 on a timeout: from 20, ten clean windows give 30 and one timeout 27; against a dependency that times out above 25 in flight it saws between 23 and 26. The gradient rule watches latency instead: new = limit x clamp(no-load RTT / current RTT, 0.5, 1) + queue, so 100 x 10/20 + 4 = 54. Keep a floor, count timeouts as congestion, and re-measure the no-load RTT. Netflix's library adds a tolerance (GradientLimit 2x the no-load RTT, Gradient2Limit 1.5x its long-term RTT) and smoothing by default, so quote the rule as a rule.",
		SayFirst: "Like TCP's congestion window: AIMD or a latency gradient finds the limit."},
	{ID: "09/near-limit signal", Chapter: "09", Topic: "near-limit signal",
		Q:        "How do you learn a customer is about to hit a limit before they complain?",
		A:        "Watch Remaining, not only rejections: fire when a key stays under 10% of its limit for a set time, once per episode, and re-arm when it recovers. A bucket of 100 refilled at 10/s with a key sending 20/s is under 10 left from 8.95 s; with a 30 s hold the signal fires at 38.95 s, before a long run of 429s. Run it beside shadow mode when you roll out a limit, per key and per rule.",
		SayFirst: "Watch Remaining: signal when a key stays under 10% of its limit for a set time."},
	{ID: "09/slow dependency or overload", Chapter: "09", Topic: "slow dependency or overload",
		Q:        "The dependency is slow and the service is overloaded. Which limits act, in which order?",
		A:        "A rate limit does not help: it keeps admitting 100/s while by Little's law 100 x 5 s = 500 requests wait. Cap requests in flight per dependency, ideally adaptively: a limit of 20 holds 20 and admits 4/s. Shed by priority at the door, before the expensive work, with a reserve for critical traffic and 503 + Retry-After: 1,000 slots with 20% reserved, 900 ordinary then 300 critical, admits 800 + 200. Keep 429 for a client over its own quota, and have clients add jitter on top, throttle themselves and respect a retry budget.",
		SayFirst: "Cap in flight per dependency, shed by priority at the door, and keep 429 for quotas."},
}

// DrillChapters lists the chapters the drill covers, in order.
func DrillChapters() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range Drill {
		if !seen[q.Chapter] {
			seen[q.Chapter] = true
			out = append(out, q.Chapter)
		}
	}
	return out
}

// DrillMarkdown renders the drill's topics as a Markdown table, one row per
// chapter: what the cards cover, not their answers.
func DrillMarkdown() string {
	var rows [][]string
	for _, ch := range DrillChapters() {
		var topics []string
		for _, q := range Drill {
			if q.Chapter == ch {
				topics = append(topics, q.Topic)
			}
		}
		rows = append(rows, []string{ch, strings.Join(topics, ", ")})
	}
	return markdownTable([]string{"Chapter", "Cards"}, rows)
}
