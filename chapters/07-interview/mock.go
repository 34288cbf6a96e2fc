package interview

// A mock interview runs the Skeleton against one design question: the
// interviewer states a prompt, and each of the four phases has the
// follow-up questions an interviewer asks in it and the points a strong
// answer covers. The points are the course's own: each names the chapter
// that teaches it and a cue, a phrase that chapter's README or drill cards
// use, so a test can tell a point the course makes from one it does not.

// Point is one item of a phase's checklist.
type Point struct {
	Text    string `yaml:"text"`    // what a strong answer says, in a line
	Chapter string `yaml:"chapter"` // "01" … "09": where the course teaches it
	Cue     string `yaml:"cue"`     // a phrase of that chapter's README or drill cards
}

// MockPhase is what happens in one step of the Skeleton, or of the Track
// (LongForm), where the interviewer also pushes back.
type MockPhase struct {
	Questions []string `yaml:"questions"` // what the interviewer asks, in order
	Checklist []Point  `yaml:"checklist"` // what a strong answer covers
	Pushback  []Push   `yaml:"-"`         // thrown in this phase (the track only), in order
}

// Prompt is one design question of the mock interview. Phases[i] belongs to
// Skeleton[i]: the same four steps, timed by Skeleton[i].Minutes. On the
// 45-minute track (Track, LongForm) the same content runs longer: the
// deep dives are drawn from the prompt's bank (Dives), and the interviewer
// pushes back in each phase after the introduction (each Push names its
// phase).
type Prompt struct {
	Name     string      `yaml:"name"`     // short id for the command line, e.g. "per-user-api"
	Title    string      `yaml:"title"`    // a few words
	Ask      string      `yaml:"ask"`      // what the interviewer says first
	Phases   []MockPhase `yaml:"phases"`   // one per step of the Skeleton
	Pushback []string    `yaml:"pushback"` // ids into Pushback, in the order thrown (PushbackFor)
	Dives    []string    `yaml:"dives"`    // its deep-dive bank: DiveAlgorithm, DiveFailure and ids into Dives
}

// Mock is the mock interview's question bank.
var Mock = []Prompt{
	{
		Name:  "per-user-api",
		Title: "Per-user limits on a public API",
		Ask: "Design rate limiting for our public REST API. Each user gets 100 requests per minute, " +
			"uploads are heavier than reads, and the API runs on 20 servers for about 10 million active users.",
		Phases: []MockPhase{
			{
				Questions: []string{
					"Who exactly is a user here: an account, an API key, an IP address?",
					"Does 100 per minute mean never more than 100 in any minute, or an average with bursts?",
					"How many decisions per second at peak?",
				},
				Checklist: []Point{
					{"Count the verified user from the key store's record, never a header the client writes", "01", "KeyByUser"},
					{"Ask: at most N in any window, or a rate plus a burst, and how big a burst", "01", "a rate plus a burst"},
					{"Weigh routes by cost: an upload spends 5, a read 1", "01", "upload 5"},
					{"Size it: servers, active keys, peak QPS", "07", "peak QPS"},
				},
			},
			{
				Questions: []string{
					"Why not one counter per user per minute?",
					"What does your choice give up, and how much memory does it need?",
				},
				Checklist: []Point{
					{"A fixed window lets 2L through across a boundary (E1: 6 within 300 ms at L = 3)", "02", "2L"},
					{"Pick a row of the selection table and say what it gives up", "07", "gives up"},
					{"Memory: MEMORY USAGE's 168 B plus what it leaves out is 224 to 384 B per token-bucket key, 2.2 to 3.8 GB for 10 M keys per copy", "07", "224 to 384 B"},
				},
			},
			{
				Questions: []string{
					"You have 20 servers. Where does the count live?",
					"Two servers read the same count at the same moment. What happens?",
				},
				Checklist: []Point{
					{"Per-node counters multiply the limit by the node count (3 nodes at 10/s let 30 through)", "06", "30 through"},
					{"One shared counter per key: read, decide, write and expire in one Lua script", "06", "Lua"},
					{"Take the time from the Redis server (TIME), not from each node's clock", "06", "TIME"},
					{"Primaries from server time: 5.8 µs a decision is 173k/s per core pipelined, 79k/s at one round trip; 3 to 6 primaries at half a core", "07", "3 to 6 primaries"},
				},
			},
			{
				Questions: []string{
					"Redis stops answering. Do you allow or reject?",
					"What does a client over its limit get back?",
				},
				Checklist: []Point{
					{"Decide per endpoint in advance: reads fail open through a small local bucket", "06", "fail open"},
					{"429 with Retry-After rounded up, and quota headers on every response", "01", "Retry-After"},
					{"Roll out in shadow mode and watch the 429 rate per rule", "07", "shadow mode"},
				},
			},
		},
		Pushback: []string{"limiter-slo", "cgnat", "two-million-rps", "build-vs-buy", "rules-change-weekly",
			"redis-down", "multi-limit-charging", "requirement-change", "429-below-limit", "how-know-works", "cost"},
		Dives: []string{DiveAlgorithm, DiveFailure, "script-race", "hot-key", "failover", "eviction", "many-regions"},
	},
	{
		Name:  "login",
		Title: "A login endpoint",
		Ask: "Protect our login endpoint from password guessing and credential stuffing " +
			"without locking real users out.",
		Phases: []MockPhase{
			{
				Questions: []string{
					"What are you protecting: the accounts, or the servers?",
					"The attacker has 50,000 addresses and tries each only twice. Does a per-IP limit stop it?",
				},
				Checklist: []Point{
					{"Limit before authentication: the password hash is the expensive work", "01", "authentication"},
					{"Key by the account being tried, not only by the address", "01", "account being"},
					{"Group addresses by network (/24, /64; escalate to /56 and /48 for IPv6)", "01", "/64"},
				},
			},
			{
				Questions: []string{
					"Which algorithm for 5 tries per 15 minutes per account, and why?",
					"What does that cost per key?",
				},
				Checklist: []Point{
					{"Sliding log: exactly L in any W, affordable when L is small (logins, password resets)", "03", "password resets"},
					{"Not a fixed window: it admits 2L across a boundary", "02", "2L"},
					{"Slow down or challenge rather than a hard lockout an attacker could aim at users", "01", "lockout"},
				},
			},
			{
				Questions: []string{
					"Your login servers sit behind a load balancer. How do they share the counts?",
					"Where do you read the client's address?",
				},
				Checklist: []Point{
					{"One shared log per key in Redis (a sorted set), pruned and appended in one script", "06", "sorted set"},
					{"The client is the rightmost X-Forwarded-For hop that is not a trusted proxy", "01", "rightmost"},
					{"Count failures per network and in total, to see the wave", "01", "in total"},
				},
			},
			{
				Questions: []string{
					"Redis is down during a credential-stuffing wave. What now?",
					"What does a user who hit the limit see?",
				},
				Checklist: []Point{
					{"Fail closed for login, OTP and reset: 503 with Retry-After (not 429) or a stricter local limit", "06", "closed"},
					{"429 with Retry-After rounded up, never earlier than a permit exists", "01", "rounded up"},
					{"Watch the 429 rate per rule and the counter's latency", "07", "429 rate"},
				},
			},
		},
		Pushback: []string{"cgnat", "limiter-slo", "why-not-only-edge", "build-vs-buy", "redis-down", "tight-retry-loop",
			"how-know-works", "migrate-old-limiter"},
		Dives: []string{DiveAlgorithm, DiveFailure, "script-race", "failover", "clock-skew", "retry-herd"},
	},
	{
		Name:  "llm-gateway",
		Title: "An LLM gateway's token budget",
		Ask: "Our LLM gateway gives each API key 10,000 tokens per minute. " +
			"A response's length is unknown until it finishes. Design the limiter.",
		Phases: []MockPhase{
			{
				Questions: []string{
					"What do you count: requests or tokens?",
					"When do you know what a request costs?",
				},
				Checklist: []Point{
					{"The cost is tokens, input plus output, and the output is unknown up front", "09", "output"},
					{"Key per API key from the key store; nest tenant, then user", "01", "key store"},
					{"Ask how big a burst of long answers is acceptable", "01", "burst"},
				},
			},
			{
				Questions: []string{
					"How do you charge a request whose length you don't know yet?",
					"Five requests arrive at once. What happens?",
				},
				Checklist: []Point{
					{"Reserve input plus maximum output up front (500 + 2,000 = 2,500), refund the unused part", "09", "refund"},
					{"A token bucket with a cost does the reserving; the refund is capped at the capacity", "09", "capped at the capacity"},
					{"Keep a request-rate or in-flight limit beside the token budget", "09", "in-flight"},
				},
			},
			{
				Questions: []string{
					"The gateway runs on many nodes. Where does the budget live?",
					"One customer is far busier than the rest. Do you shard its key?",
				},
				Checklist: []Point{
					{"One shared bucket per key; reserve and refund each in one atomic script", "06", "Lua"},
					{"Hot keys: prefetch quota locally and accept stranding; a sharded counter (write one shard, read the sum) counts right but reads every shard per decision", "06", "prefetch"},
				},
			},
			{
				Questions: []string{
					"The model backend slows from 0.2 s to 5 s. What does your limiter do?",
					"Which status do you answer with, and when?",
				},
				Checklist: []Point{
					{"Cap requests in flight (Little's law: 100 rps x 0.2 s = 20)", "07", "Little's law"},
					{"Shed by priority with 503 under overload; 429 is one client over its quota", "07", "503"},
					{"Retry-After on every rejection, and the client adds jitter on top", "01", "jitter"},
				},
			},
		},
		Pushback: []string{"llm-tokens", "quota-vs-rate", "grpc-streaming", "build-vs-buy", "region-down", "tight-retry-loop",
			"multi-limit-charging", "how-know-works", "cost"},
		Dives: []string{DiveAlgorithm, DiveFailure, "hot-key", "overload", "many-regions", "retry-herd"},
	},
	{
		Name:  "partner-api",
		Title: "A partner API behind a gateway",
		Ask: "Partners call our API through AWS API Gateway with WAF in front. Contracts are in requests per second, " +
			"and some partners share one API key among thousands of their users. Where do you enforce what?",
		Phases: []MockPhase{
			{
				Questions: []string{
					"Is the contract per partner, or per partner's user?",
					"What already sits in front of the service?",
				},
				Checklist: []Point{
					{"A usage plan counts API keys, not the users in your database: a shared key is one bucket", "08", "usage plan"},
					{"Per-user limits need the user id, which only the service knows", "08", "user id"},
				},
			},
			{
				Questions: []string{
					"Could the WAF rule enforce 5 per second per user?",
					"What is the gateway throttle, as an algorithm?",
				},
				Checklist: []Point{
					{"Not with AWS WAF: a rate rule's window is at least a minute with a threshold of at least 10 (other edges differ: say whose)", "08", "at least 10"},
					{"The gateway throttle is a token bucket (rate and burst), best effort", "08", "best effort"},
					{"The service limiter keyed by user id rejects exactly the 6th (E18)", "08", "E18"},
				},
			},
			{
				Questions: []string{
					"A partner is granted 20,000 requests per second. Will it get them?",
					"In which order do the layers decide?",
				},
				Checklist: []Point{
					{"The account throttle (10,000 rps, burst 5,000) is shared by every API in the Region", "08", "10,000"},
					{"Edge to service, each layer coarser and cheaper than the next: WAF, gateway, service", "08", "WAF"},
				},
			},
			{
				Questions: []string{
					"A partner trips the WAF rule. What does it see, and where do you find out?",
					"How should the partner's client retry?",
				},
				Checklist: []Point{
					{"WAF answers 403 by default (a custom response can be 429); the gateway answers 429", "08", "403"},
					{"Blocked requests never reach the app: they show in WAF logs and metrics", "08", "never reach"},
					{"Retry after Retry-After plus jitter, never the minimum of the two", "01", "jitter"},
				},
			},
		},
		Pushback: []string{"quota-vs-rate", "limiter-slo", "why-not-only-edge", "rules-change-weekly", "managed-redis",
			"requirement-change", "429-below-limit", "ownership", "migrate-old-limiter"},
		Dives: []string{DiveAlgorithm, DiveFailure, "hot-key", "many-regions", "retry-herd", "eviction"},
	},
}

// MockPrompt finds a prompt by name.
func MockPrompt(name string) (Prompt, bool) {
	for _, p := range Mock {
		if p.Name == name {
			return p, true
		}
	}
	return Prompt{}, false
}

// MockNames lists the prompts' names, for messages.
func MockNames() []string {
	names := make([]string, len(Mock))
	for i, p := range Mock {
		names[i] = p.Name
	}
	return names
}

// LongForm is the prompt run on the 45-minute track with the first two
// dives of its bank; LongFormWith chooses them.
func LongForm(p Prompt) []MockPhase { return LongFormWith(p, nil) }

// LongFormWith is the prompt run on the 45-minute track: LongFormWith(p,
// dives)[i] belongs to Track[i] and is timed by Track[i].Minutes. The
// introduction restates the question; requirements keep the short form's
// first phase and ask for the limiter's own targets; the design adds the
// API's shape and the drawn request path to sharing the state; the deep
// dives are the ones named (ids of DivesFor(p); none named: the first
// DivesRun); the wrap-up closes with the candidate's questions. Each of
// the prompt's pushbacks is thrown in the phase it names.
func LongFormWith(p Prompt, dives []string) []MockPhase {
	if len(p.Phases) != len(Skeleton) {
		return nil
	}
	intro := MockPhase{
		Questions: []string{"Tell me in a minute who you are; then, here is the question. How will you go about it?"},
		Checklist: []Point{
			{"Restate the question in one sentence, in your own words", "07", "restate the question"},
			{"Say the four questions you will settle before any algorithm: the key, the traffic's shape, shared state, placement", "01", "four questions"},
			{"Say how you will spend the 45 minutes, keeping time for the deep dives and your questions", "07", "45-minute"},
		},
	}
	reqs := MockPhase{
		Questions: append(append([]string{}, p.Phases[0].Questions...),
			"What latency, availability and accuracy does the limiter itself promise?"),
		Checklist: append(append([]Point{}, p.Phases[0].Checklist...),
			Point{"The limiter's own targets: a few ms at p99 added, availability above the API's, a stated bound on over-admission", "07", "own targets"}),
	}
	design := MockPhase{
		Questions: append([]string{
			"Where does the decision run: a library call, a middleware, a sidecar, or a service like Envoy's ShouldRateLimit? Choose one.",
			"Draw the request path: where does each limit live?"}, p.Phases[2].Questions...),
		Checklist: append([]Point{
			{"Choose the API's shape and say what it costs: a library call or middleware (per node), a sidecar, or a decision service such as ShouldRateLimit(domain, descriptors, hits)", "07", "sidecar"},
			{"The request path drawn, client to Redis Cluster, with the limit each hop holds and its cost", "07", "request path"},
		}, p.Phases[2].Checklist...),
	}
	bank := DivesFor(p)
	if len(dives) == 0 {
		for _, d := range bank[:min(DivesRun, len(bank))] {
			dives = append(dives, d.ID)
		}
	}
	var deep MockPhase
	for _, id := range dives {
		for _, d := range bank {
			if d.ID == id {
				deep.Questions = append(deep.Questions, d.Questions...)
				deep.Checklist = append(deep.Checklist, d.Checklist...)
			}
		}
	}
	wrap := MockPhase{
		Questions: []string{"Sum up your design in a minute: what does it give up?", "What would you like to ask me?"},
		Checklist: []Point{
			{"Name the trade-offs out loud: approximate across regions, bounded over-admission after a failover, bursts by design", "07", "trade-offs out loud"},
			{"Say how you would know it works: the 429 rate per rule, the fail-open count, the store's p99", "07", "fail-open count"},
			{"Ask your own questions: who owns the limits, the last incident, what they would change first", "07", "your own questions"},
		},
	}
	phases := []MockPhase{intro, reqs, design, deep, wrap}
	for _, q := range PushbackFor(p) {
		if q.Phase > 0 && q.Phase < len(phases) {
			phases[q.Phase].Pushback = append(phases[q.Phase].Pushback, q)
		}
	}
	return phases
}
