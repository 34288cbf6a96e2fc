package interview

import "strings"

// Question is one drill card: a question an interviewer asks and a model
// answer short enough to say out loud.
type Question struct {
	Chapter string // "01" … "09": where the course teaches it
	Topic   string // a few words
	Q       string
	A       string
}

// Drill is the question bank, in course order. Every chapter has at least
// one card; the numbers are the worked examples' numbers and the course's
// measurements. Cards on overload and beyond the counter (in flight,
// shedding, client throttling, regions, cost budgets, fairness, shadow
// rollout) point at chapter 09, which implements each one.
var Drill = []Question{
	{"01", "placement", "Where in the request path does a rate limiter belong, and why there?",
		"Before the work it protects, once it knows whom to count. For a per-user contract that is after identity and before the business logic, " +
			"so a rejected request never touches the database, and the decision must cost less than the work it saves. " +
			"Login is the exception: authentication is the expensive step, so count by source network before it and by the account being tried. " +
			"Per-node limits are a bug as a per-client contract, but the right tool when the thing protected is the node itself " +
			"(Envoy's local rate limit), and exact when routing is sticky by the limiter's key."},
	{"01", "the four questions", "Before naming an algorithm, which four questions do you answer?",
		"Key: who is counted (user, API key, IP grouped by CIDR, key x route) and what each endpoint costs. " +
			"Shape: 'at most N in any window' or 'a rate plus a burst'. Shared state: how N servers share one count and what happens when it is down. " +
			"Placement: edge, gateway or service. The four are independent: one token bucket can count API keys at the gateway or users in the service."},
	{"01", "keys and costs", "Why group client addresses by /24 or /64, and how do you charge an upload more than a read?",
		"A single address is too cheap to rotate: an IPv6 subscriber can use a fresh address per request, and a /64 is the smallest block a customer gets. " +
			"Counting the network costs some collateral (neighbours share a budget) but makes rotation expensive. " +
			"For weights, a token bucket takes cost tokens at once: upload 5, read 1. With 3 tokens left an upload is rejected while a read still passes."},
	{"01", "IPv6 escalation", "You count IPv6 clients per /64. Can one customer escape that limit?",
		"Yes: a /64 is the floor, not a key the client cannot leave. Homes are commonly given a /56 and businesses a /48 (RIPE-690), " +
			"that is 256 or 65,536 /64s, each a fresh budget. Escalate: keep the /64 limit and add a /56 and a /48 limit with larger budgets, all applied together. " +
			"With 10 per /64 and 40 per /56, a customer sending 5 from each of the 256 /64s of its /56 (1,280 requests) passes every /64 check, " +
			"and the /56 layer admits 40; a neighbour in another /56 keeps its own budget. Widen the key only as far as the abuse reaches."},
	{"01", "credential stuffing", "An attacker tries stolen passwords against your login from 50,000 addresses, two tries each. Which limits catch it?",
		"Not a per-IP limit: every address stays under any sane threshold. Key by the account being tried (a few failures per account per 15 minutes, " +
			"then slow down or challenge rather than a hard lockout an attacker could aim at your users), count failures per network (/24, /56) and in total " +
			"to see the wave, and keep the per-IP limit for a single noisy source. All of them run before the password hash is computed: " +
			"the hash is the expensive work being protected."},
	{"01", "the 429 contract", "What does a correct rate-limit rejection look like on the wire?",
		"Status 429 with Retry-After in whole seconds rounded up, never earlier than a permit exists (0.6 s becomes 1, not 0), and a JSON error body. " +
			"Quota headers go on every response, not only on 429: the current drafts' RateLimit-Policy: \"default\";q=100;w=60 and RateLimit: \"default\";r=42;t=1, " +
			"where since draft -10 t is the seconds until more quota is available (the next permit, 0.6 s away, rounded up), not until the quota is full; on a 429 t equals Retry-After. " +
			"The older trio RateLimit-Limit/-Remaining/-Reset counts delta seconds, never a Unix time. If Retry-After and RateLimit disagree, Retry-After wins."},
	{"01", "client retries", "A client gets 429 with Retry-After: 3 and its jittered backoff draws 0.4 s. How long does it wait, and why not max(3, 0.4)?",
		"3.4 s: Retry-After is the floor and the jitter goes on top. max(Retry-After, backoff) gives every draw below Retry-After the same instant: " +
			"10,000 clients told Retry-After: 30 with up to 1 s of jitter all come back at exactly t = 30 s. With Retry-After + U[0, min(cap, base x 2^n)] " +
			"and 10 s of jitter, none comes back before 30 s and about 1,000 come back each second. min(backoff, Retry-After) is worse: the draw cuts the " +
			"server's answer short and the client is rejected again. A Retry-After too large to represent means wait the longest, never retry now."},
	{"02", "boundary attack", "The limit is 5 per second with a fixed window. Can an attacker get 10 through within one second?",
		"Yes: 5 just before a boundary and 5 just after. Each window holds 5, but the pair lands inside far less than a second. " +
			"With W = 1000 ms and L = 3, arrivals at 820 880 940 960 1000 1060 1120 1850 give A A A R A A A R: 6 inside 300 ms, max 2L in a window. " +
			"A TTL set on each key's first hit instead of aligned windows only staggers users, so the site-wide spike at the top of the second goes; " +
			"one attacker still fills a window just before it expires and the next just after, 2L-1 in some W. " +
			"Accept it only when you can say why (an hourly anti-scraping cap); otherwise move to a sliding window or a bucket."},
	{"03", "sliding counter error", "Is the sliding-window counter's estimate a safe, conservative approximation?",
		"No, it errs both ways because it assumes the previous window was spread evenly. Previous 3 at 0, 10, 20 ms: at 1200/1220/1240 the estimates " +
			"are 2.40/3.34/3.28, so it rejects two requests a log would allow (true counts 1 and 2). Previous 3 at 970, 980, 990: estimates " +
			"1.50/2.47/3.44 admit two more, 5 inside 540 ms against L = 3. Its exact worst case is 2L, like a fixed window."},
	{"03", "sliding log cost", "When is a sliding log the right choice, and what does it cost?",
		"When the contract is 'never more than L in any W' and L is small: login, OTP, password reset. It keeps one timestamp per allowed request, " +
			"O(L) per key (a sorted set in Redis), prunes entries whose age has reached W and admits while fewer than L remain. " +
			"Chapter 06 measured about 123 B per entry once the set is a skiplist: a key at L = 10,000 holds about 1.2 MB. " +
			"Members must be unique, or two requests in one ms merge into one."},
	{"04", "token bucket burst", "Capacity 3, refill 3 per second. How many requests can get through in one second?",
		"Five: 3 at 0 ms empty the bucket, a token is back by 334 ms and another by 667 ms, and all five land in one 1000 ms window. " +
			"In general about C + R x W in any W. That burst is the design, not a bug: a token bucket forwards at once, so the burst reaches upstream."},
	{"04", "GCRA vs leaky queue", "Is GCRA a third kind of bucket? What changes if you add a queue?",
		"GCRA is the leaky bucket used as a meter: one instant, TAT, and TAT - now <= tau is the same test as tokens >= 1, so it makes exactly " +
			"the token bucket's decisions. Only the queue changes the output: with C = 3, R = 2/s and arrivals at 0, 10, 20, 30 ms, both reject the 4th, " +
			"but the queue sends at 0, 500, 1000 ms (waits 0, 490, 980) while the meter sends all three within 20 ms. " +
			"nginx's limit_req with burst is the queue; with nodelay it is the meter."},
	{"05", "average error vs a bound", "Cloudflare found its sliding-window counter wrong on only 0.003% of requests. Is an approximate counter accurate enough?",
		"For flood control, often; for a contract, no, and that figure is not the course's measure. Cloudflare counts every matching request and, once a source " +
			"crosses the threshold, mitigates it for a period, per data centre; chapter 05's lab counts admitted requests and decides each one. On seeded Poisson " +
			"traffic it finds 0% wrong for keys at half their limit but 16% for keys at their limit: the share depends on how close keys run to L. " +
			"An adversary picks the moments the even-spread assumption fails and reaches 2L every time. An average is not a bound."},
	{"06", "per-node counting", "Ten pods each enforce 100 per second in memory. What is the real limit, and when is that fine?",
		"About 1000 per second: every node counts only what it sees, so the limit multiplies by the node count (3 nodes at 10/s let 30 through). " +
			"Dividing by the node count breaks when traffic is uneven or the fleet scales. One shared counter per key, usually in Redis, holds the fleet to the limit: 10, not 30. " +
			"Per-node limits are right when they protect the node (its CPU, its connections), and exact when the load balancer routes each key to one node."},
	{"06", "double spend", "Two nodes read a balance of 1 from Redis, both write 0 and both allow. What went wrong, and what is the fix?",
		"A read-modify-write across round trips: both read before either wrote, so one permit was spent twice. Put the read, the decision and the write " +
			"in one Lua script; Redis runs it atomically, so the same interleaving allows exactly one. The expiry belongs in the same script: an INCR whose " +
			"PEXPIRE never arrived makes a key that never expires and blocks its identity forever. Set the expiry when PTTL < 0, not only when the count is 1, " +
			"and the next request repairs a key that lost its TTL."},
	{"06", "clock skew", "Your app servers compute the window id from their own clocks. What breaks with a 1-second window?",
		"Two servers 200 ms apart put the same instant in different windows, so counts split and limits drift. Take the time inside the script " +
			"with Redis TIME: every decision uses one clock. Scripts replicate by their effects (the default since Redis 5), so a script may call TIME and then write."},
	{"06", "hot keys and prefetch", "One customer sends tens of thousands of requests per second to one key. Do you shard the key?",
		"No: four shards each with the full limit over-admit, and a quarter each rejects early when traffic is uneven. Prefetch instead: a node " +
			"atomically borrows min(batch, remaining) and spends it locally. It never over-admits within a window (over a sliding W it can still reach 2L, like any fixed window), but quota strands: " +
			"limit 6, batch 4, A takes 4 and uses 2, B takes 2 and uses 2, and B's next request is rejected while A holds 2. Delayed write-back is the design that over-admits (4 x 10 = 40)."},
	{"06", "fail open or closed", "Redis times out. Does the limiter allow or reject?",
		"It depends on the endpoint, decided in advance. Login, OTP and password reset fail closed (a clear temporary error or a stricter local limit), " +
			"or an attacker just has to break the counter. Ordinary reads fail open through a small per-node token bucket, bounded and never unlimited. " +
			"Billed calls use a local limit of about global / node count. Keep the Redis timeout to a few ms and put a breaker in front."},
	{"06", "sizing memory and shards", "How much Redis does a limiter need for 10 million active keys and 200,000 decisions per second?",
		"Memory is keys x bytes per key. Chapter 06 measured 136 B per identity for a fixed window, a sliding counter or GCRA and 168 B for a token bucket: " +
			"10 M keys is about 1.4 to 1.7 GB. A sliding log pays about 123 B per entry, 1.2 MB for one key at L = 10,000, so keep it for small L. " +
			"Throughput: one loopback Redis on a 2-core machine did about 22k raw INCR/s with one client and 129k/s with eight, and a script costs 0.4 to 1.1x an INCR. " +
			"Plan on roughly 50k decisions per second per shard: four shards for 200k/s, more for headroom. One hot key still lands on one shard: prefetch it."},
	{"06", "Redis failover", "The limiter's Redis primary dies and a replica is promoted. What goes wrong, and what can you do?",
		"Replication is asynchronous, so increments the primary acknowledged but had not shipped are lost, and the new primary admits that many extra requests in the window. " +
			"Often that is acceptable for a rare event. min-replicas-to-write with min-replicas-max-lag makes a primary cut off from its replicas refuse writes, and the failure policy decides; " +
			"WAIT after each decision narrows the loss at a replication round trip per decision. Neither makes Redis strongly consistent. " +
			"While the failover runs, calls time out: that is the fail-open-or-closed decision per endpoint."},
	{"07", "choosing the limit", "How do you choose the number: 100 per minute or 1,000?",
		"From both sides. Capacity: what the protected resource sustains under load test, shared among the clients that use it with headroom " +
			"(5,000 rps shared by about 50 heavy tenants is about 100 rps each). Demand: measure real per-key rates first, in shadow mode, and set the limit above what legitimate keys do at their peak, " +
			"so it catches abuse and not customers. The burst is what a legitimate client does at once (a page load, a batch). Publish it per plan, and revisit it with the 429 rate per rule."},
	{"08", "cloud layers", "We already have AWS WAF and API Gateway usage plans. Do we still need a limiter in the service?",
		"Yes. A WAF rate rule estimates a count per IP, forwarded IP or custom key (a header, cookie, query argument, path, label …) over 1 to 10 minutes with a threshold of at least 10, " +
			"and acts after a lag, usually under 30 s: made for floods, not precise limits. A usage plan (REST APIs only) is a token bucket per API key plus a day/week/month quota, best effort, not a hard cap. " +
			"Neither enforces '5 per second per user id': the WAF can key by user but its window is a minute, and the gateway sees API keys, not users. The service layer must."},
	{"08", "what the client sees", "A partner trips the WAF rate rule. What does the partner see, and what do your logs show?",
		"A 403 by default, or the rule's custom response (status, headers and body: it can be a 429 with Retry-After), while its rate stays above the threshold, " +
			"after a detection lag, so a short burst may pass entirely. Behind CloudFront it answers at the edge; on an API Gateway stage or an ALB, in the Region. " +
			"The application never sees blocked requests, so they appear in WAF logs and metrics, not in your service logs. A usage-plan throttle or quota rejects at the gateway with 429."},
	{"08", "gateway throttles", "A usage plan grants a partner 20,000 requests per second. Will the partner get them?",
		"Not unless the account limit is raised. API Gateway applies the usage-plan throttle, the stage throttle and the account throttle, and any can reject first. " +
			"The account's is 10,000 rps with a burst of 5,000 in most Regions (2,500 and 1,250 in some newer ones), shared by every API of the account in that Region; " +
			"the rate can be raised on request, the burst is set by AWS. One API key can be in several usage plans, one per stage."}, {"09", "tenant fairness", "One tenant's batch job takes the shared capacity and every other tenant slows down. How do you share fairly?",
		"Give each tenant its own limit sized by its plan, so no tenant takes more than it bought, and nest keys (tenant, then tenant x user) so one user cannot use the whole tenant's share. " +
			"When shared capacity is scarce, split it max-min fair by weight: each tenant gets min(demand, weighted share) and what small tenants leave is redistributed. " +
			"100 rps, weights A 2, B 1, C 1, demand 150/10/80: A 60, B 10, C 30. A split in proportion to demand gives 62.5/4.2/33.3: the heaviest user takes the most and the small tenant is starved below its demand."},
	{"09", "LLM token budget", "You limit an LLM API to 10,000 tokens per minute per key, but a request's output length is unknown until it ends. How do you charge it?",
		"Reserve, then refund. Charge the input plus the maximum output up front, 500 + 2,000 = 2,500, so concurrent requests cannot overdraw: " +
			"of five at once four are admitted and the fifth gets 429. Each then uses 300 output tokens and refunds the unused 1,700, so 6,800 come back. " +
			"Charging after the fact lets a burst of long answers spend far past the budget; charging the maximum without a refund wastes it. " +
			"A token bucket with a cost does the reserving; the refund adds tokens back, capped at the capacity. Keep a request-rate or in-flight limit beside it."},
	{"09", "many regions", "The limit is 1,000 per minute per customer worldwide, served from three regions. How do you enforce it?",
		"Not with one counter across an ocean: a cross-region round trip per request costs more than the request. A static split of 333 each is simple and wastes quota: " +
			"with demand 700/200/100 it admits 333 + 200 + 100 = 633. Counting locally and syncing asynchronously overshoots by at most regions x rate x lag: " +
			"3 x 10/s x 2 s = 60. Leases from a coordinator, weighted by recent demand (700/200/100), admit all 1,000 and rebalance as demand moves. " +
			"Say out loud that the global number is approximate, and by how much."},
	{"09", "in flight vs rate", "Your token bucket admits 100 rps. The dependency behind it slows from 0.2 s to 5 s. What happens, and what limit would have helped?",
		"By Little's law, in flight = rate x latency: 100 x 0.2 = 20 normally, 100 x 5 = 500 once it slows, and the bucket keeps admitting 100 per second " +
			"while threads, connections and memory fill with waiting requests. A concurrency limit of 20 holds 20 in flight and the admitted rate falls to 20 / 5 s = 4 per second by itself. " +
			"A rate limit is a contract per client; an in-flight limit protects the server. Use both."},
	{"09", "shedding and 429 vs 503", "The service is overloaded, though no client is over its quota. Whom do you reject, and with which status?",
		"Shed by priority and answer 503 with Retry-After: 429 says 'you asked too much', 503 says 'we are overloaded'. Reserve part of the capacity for critical traffic: " +
			"1,000 slots with 20% reserved, offered 900 ordinary and 300 critical, admits 800 ordinary and 200 critical, and the other 100 of each get 503. " +
			"Shed early and cheaply, before parsing bodies or calling dependencies, and keep the retries of shed requests from becoming the next wave (a retry budget)."},
	{"09", "shadow rollout", "How do you roll out a new limit without taking down your biggest customer?",
		"Shadow mode first: the limiter decides every request and records what it would reject, per key and rule, but serves everything. On the same traffic shadow mode " +
			"counts exactly the rejections enforcement would make, so the log is the real impact. Review who would be hit, raise or exempt them, then enforce gradually " +
			"(one rule, a share of keys, one region) with a kill switch, the 429 rate per rule on a dashboard, and a near-limit signal for keys that stay under 10% remaining."},
	{"09", "adaptive client throttling", "Your backend rejects 60% of one client's requests. Should the client keep sending them?",
		"No: every rejection still costs the backend work. With adaptive throttling (Google SRE) the client counts, over the last two minutes, the requests it attempted and those accepted, and drops a new one locally with probability max(0, (requests - K x accepts) / (requests + 1)): 1,000 and 400 with K = 2 give 200/1001, about 0.20. It ends up sending about K times what is accepted: wanting 1,000 a minute against a backend that accepts 400, it sends 800 (about 440 with K = 1.1). Dropped requests count as attempts, so the drops fade by themselves when the backend recovers."},
	{"09", "retry budget", "Every layer of your stack retries failures three times. What happens when the bottom fails, and what bounds it?",
		"Retries multiply: 3 attempts at each of three layers is 27 attempts at the bottom per user request, on a backend that is already failing. Retry at one layer only, with jitter on top of Retry-After, inside a retry budget: a retry is allowed only while retries stay within 10% of requests. 1,000 failing requests wanting 3 retries each would be 4,000 attempts; the budget allows exactly 100 retries, 1,100 attempts."},
	{"09", "adaptive concurrency limits", "You have an in-flight limit, but nobody knows the right number and it changes as you scale. How does it find itself?",
		"Like TCP's congestion window. AIMD adds 1 per clean window and multiplies by 0.9 on a timeout: from 20, ten clean windows give 30 and one timeout 27; against a dependency that times out above 25 in flight it saws between 23 and 26. The gradient rule watches latency instead: new = limit x clamp(no-load RTT / current RTT, 0.5, 1) + queue, so 100 x 10/20 + 4 = 54. Keep a floor, count timeouts as congestion, and re-measure the no-load RTT. Netflix's library also tolerates 2x RTT and smooths decreases by default, so quote the rule as a rule."},
	{"09", "near-limit signal", "How do you learn a customer is about to hit a limit before they complain?",
		"Watch Remaining, not only rejections: fire when a key stays under 10% of its limit for a set time, once per episode, and re-arm when it recovers. A bucket of 100 refilled at 10/s with a key sending 20/s is under 10 left from 8.95 s; with a 30 s hold the signal fires at 38.95 s, before a long run of 429s. Run it beside shadow mode when you roll out a limit, per key and per rule."},
	{"09", "slow dependency or overload", "The dependency is slow and the service is overloaded. Which limits act, in which order?",
		"A rate limit does not help: it keeps admitting 100/s while by Little's law 100 x 5 s = 500 requests wait. Cap requests in flight per dependency, ideally adaptively: a limit of 20 holds 20 and admits 4/s. Shed by priority at the door, before the expensive work, with a reserve for critical traffic and 503 + Retry-After: 1,000 slots with 20% reserved, 900 ordinary then 300 critical, admits 800 + 200. Keep 429 for a client over its own quota, and have clients add jitter on top, throttle themselves and respect a retry budget."},
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
