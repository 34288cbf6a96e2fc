package interview

// Question is one drill card: a question an interviewer asks and a model
// answer short enough to say out loud.
type Question struct {
	Chapter string // "01" … "08": where the course teaches it
	Topic   string // a few words
	Q       string
	A       string
}

// Drill is the question bank, in course order. Every chapter has at least
// one card; the numbers are the worked examples' numbers.
var Drill = []Question{
	{"01", "placement", "Where in the request path does a rate limiter belong, and why there?",
		"After identity and before the business logic. It needs to know whom to count, so it runs once the caller is recognised; " +
			"it must answer before any expensive work, so a rejected request never touches the database. " +
			"The decision itself has to be cheaper than the work it protects, or the limiter becomes the new hot spot."},
	{"01", "the four questions", "Before naming an algorithm, which four questions do you answer?",
		"Key: who is counted (user, API key, IP grouped by CIDR, key x route) and what each endpoint costs. " +
			"Shape: 'at most N in any window' or 'a rate plus a burst'. Shared state: how N servers share one count and what happens when it is down. " +
			"Placement: edge, gateway or service. The four are independent: one token bucket can count API keys at the gateway or users in the service."},
	{"01", "keys and costs", "Why group client addresses by /24 or /64, and how do you charge an upload more than a read?",
		"A single address is too cheap to rotate: an IPv6 customer owns a whole /64 and can use a new address per request. " +
			"Counting the network costs some collateral but gives a key the client cannot escape. " +
			"For weights, a token bucket takes cost tokens at once: upload 5, read 1. With 3 tokens left an upload is rejected while a read still passes."},
	{"01", "the 429 contract", "What does a correct rate-limit rejection look like on the wire?",
		"Status 429 with Retry-After in whole seconds rounded up, never earlier than a permit exists (0.6 s becomes 1, not 0), and a JSON error body. " +
			"Quota headers go on every response, not only on 429: RateLimit-Limit/-Remaining/-Reset with Reset in delta seconds, or the current draft's " +
			"RateLimit-Policy: \"default\";q=100;w=60 and RateLimit: \"default\";r=42;t=35 (42 of 100 left at 100/60 per s: full again in 34.8 s, rounded up). If Retry-After and RateLimit disagree, Retry-After wins."},
	{"01", "client retries", "A client gets 429 with Retry-After: 3 and its jittered backoff draws 0.4 s. How long does it wait?",
		"3 s: the wait is max(Retry-After, backoff). Retry-After is a floor, because no permit exists before it; full jitter " +
			"(a uniform draw from 0 to min(cap, base x 2^n)) spreads a crowd beyond it. min(backoff, Retry-After) lets the random draw cut the " +
			"server's answer short, so the client returns early, is rejected again and adds to the herd."},
	{"02", "boundary attack", "The limit is 5 per second with a fixed window. Can an attacker get 10 through within one second?",
		"Yes: 5 just before a boundary and 5 just after. Each window holds 5, but the pair lands inside far less than a second. " +
			"With W = 1000 ms and L = 3, arrivals at 820 880 940 960 1000 1060 1120 1850 give A A A R A A A R: 6 inside 300 ms, max 2L in a window. " +
			"Accept it only when you can say why (an hourly anti-scraping cap); otherwise move to a sliding window or a bucket."},
	{"02", "first-hit TTL", "Instead of aligned windows, the counter gets a TTL on its first hit. Is the boundary spike gone?",
		"No. Windows now start at each key's first request, so users no longer reset together and the site-wide spike at the top of the " +
			"second disappears. One key can still fill a window just before it expires and the next one just after: 2L-1 in some W for one attacker."},
	{"03", "sliding counter error", "Is the sliding-window counter's estimate a safe, conservative approximation?",
		"No, it errs both ways because it assumes the previous window was spread evenly. Previous 3 at 0, 10, 20 ms: at 1200/1220/1240 the estimates " +
			"are 2.40/3.34/3.28, so it rejects two requests a log would allow (true counts 1 and 2). Previous 3 at 970, 980, 990: estimates " +
			"1.50/2.47/3.44 admit two more, 5 inside 540 ms against L = 3. Its exact worst case is 2L, like a fixed window."},
	{"03", "sliding log cost", "When is a sliding log the right choice, and what does it cost?",
		"When the contract is 'never more than L in any W' and L is small: login, OTP, password reset. It keeps one timestamp per allowed request, " +
			"O(L) per key (a sorted set in Redis), prunes entries whose age has reached W and admits while fewer than L remain. " +
			"At 10,000 per hour an active key holds 10,000 members; members must be unique or two requests in one ms merge into one."},
	{"04", "token bucket burst", "Capacity 3, refill 3 per second. How many requests can get through in one second?",
		"Five: 3 at 0 ms empty the bucket, a token is back by 334 ms and another by 667 ms, and all five land in one 1000 ms window. " +
			"In general about C + R x W in any W. That burst is the design, not a bug: a token bucket forwards at once, so the burst reaches upstream."},
	{"04", "GCRA vs leaky queue", "Is GCRA a third kind of bucket? What changes if you add a queue?",
		"GCRA is the leaky bucket used as a meter: one instant, TAT, and TAT - now <= tau is the same test as tokens >= 1, so it makes exactly " +
			"the token bucket's decisions. Only the queue changes the output: with C = 3, R = 2/s and arrivals at 0, 10, 20, 30 ms, both reject the 4th, " +
			"but the queue sends at 0, 500, 1000 ms (waits 0, 490, 980) while the meter sends all three within 20 ms."},
	{"04", "nginx limit_req", "How do nginx's limit_req modes map onto the bucket algorithms?",
		"No burst: a queue of depth 0, excess rejected at once (503 unless limit_req_status 429). burst=N: the queue, C = N + 1, excess released " +
			"at the rate. burst=N nodelay: forwarded at once within the burst, the meter (GCRA, same as a token bucket). " +
			"At 1r/s, burst 5, 7 simultaneous requests: 1 at once, 5 delayed 1..5 s, the 7th rejected."},
	{"05", "comparing fairly", "How do you compare two algorithms without cheating?",
		"Lock one budget (W, L, C, R), feed both the same arrivals and measure upstream with one ruler: the most sent requests inside any " +
			"half-open [s, s+W), using departure times for the queue. Then search for the worst sequence: the log never exceeds L, fixed window and " +
			"sliding counter reach 2L, the token bucket about C + R x W, the queue about R x W."},
	{"06", "per-node counting", "Ten pods each enforce 100 per second in memory. What is the real limit?",
		"About 1000 per second: every node counts only what it sees, so the limit multiplies by the node count (3 nodes at 10/s let 30 through). " +
			"Dividing by the node count breaks when traffic is uneven or the fleet scales. One shared counter per key, usually in Redis, holds the fleet to the limit: 10, not 30."},
	{"06", "double spend", "Two nodes read a balance of 1 from Redis, both write 0 and both allow. What went wrong and what is the fix?",
		"A read-modify-write across round trips: both read before either wrote, so one permit was spent twice. Put the read, the decision and the write " +
			"(and the expiry) in one Lua script; Redis runs it atomically, so the same interleaving allows exactly one."},
	{"06", "missing TTL", "INCR succeeded but the PEXPIRE after it never arrived. What happens, and how do you make it self-healing?",
		"The key never expires, the count only grows, and the identity is blocked forever with no error anywhere. Do both in one script and set the " +
			"expiry when PTTL < 0, not when the count is 1: then the next request repairs a key that lost its TTL."},
	{"06", "clock skew", "Your app servers compute the window id from their own clocks. What breaks with a 1-second window?",
		"Two servers 200 ms apart put the same instant in different windows, so counts split and limits drift. Take the time inside the script " +
			"with Redis TIME: every decision uses one clock. Scripts replicate by their effects (the default since Redis 5), so a script may call TIME and then write."},
	{"06", "hot keys and prefetch", "One customer sends tens of thousands of requests per second to one key. Do you shard the key?",
		"No: four shards each with the full limit over-admit, and a quarter each rejects early when traffic is uneven. Prefetch instead: a node " +
			"atomically borrows min(batch, remaining) and spends it locally. It never over-admits, but quota strands: limit 6, batch 4, A takes 4 and " +
			"uses 2, B takes 2 and uses 2, and B's next request is rejected while A holds 2. Delayed write-back is the design that over-admits (4 x 10 = 40)."},
	{"06", "fail open or closed", "Redis times out. Does the limiter allow or reject?",
		"It depends on the endpoint, decided in advance. Login, OTP and password reset fail closed (a clear temporary error or a stricter local limit), " +
			"or an attacker just has to break the counter. Ordinary reads fail open through a small per-node token bucket, bounded and never unlimited. " +
			"Billed calls use a local limit of about global / node count. Keep the Redis timeout to a few ms and put a breaker in front."},
	{"07", "the 15-minute answer", "How would you structure a 15-minute answer to 'design a rate limiter'?",
		"3 minutes on the contract and scale (key, window or rate plus burst, servers, keys, QPS, costs); 5 on the algorithm and per-key state, naming " +
			"what it gives up; 4 on sharing state atomically (one Lua script, Redis time, prefetch for hot keys); 3 on failure, monitoring and the " +
			"response (fail open or closed per endpoint, 429 rate per rule, 429 with Retry-After)."},
	{"08", "cloud layers", "We already have AWS WAF and API Gateway usage plans. Do we still need a limiter in the service?",
		"Yes. A WAF rate rule counts per IP, forwarded IP or custom key over 1, 2, 5 or 10 minutes with a threshold of at least 10: made for floods. " +
			"A usage plan is a token bucket (rate, burst) per API key plus a day/week/month quota, best effort and not a hard cap. Neither knows your " +
			"user id or endpoint costs, so neither can enforce '5 per second per user id'; the service layer must."},
	{"08", "what the client sees", "A partner trips the WAF rate rule. What does the partner see, and what do your logs show?",
		"The WAF answers at the edge, 403 by default, and holds the block while the partner's rate stays above the threshold. The application never " +
			"sees those requests, so there is no 429 body or Retry-After from you and nothing in your service logs. A usage-plan throttle or quota " +
			"rejects at the gateway with 429; only the service layer can send your own contract."},
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
