package framing

// Question is one of the four independent decisions every rate-limiter design
// makes before it picks an algorithm. The course answers each in code: the
// key builders and costs here, the shapes in chapters 02–05, the shared
// state in chapter 06, the placement in this chapter's middleware and in
// chapter 08.
type Question struct {
	Name    string // short name
	Ask     string // the question to ask out loud
	Answers string // the usual answers
	Where   string // where the course answers it
}

// FourQuestions are the four questions in the order an interview answer
// walks them.
var FourQuestions = []Question{
	{
		Name:    "key",
		Ask:     "Who is counted, and does every endpoint cost the same?",
		Answers: "an identity the server verified: the API key (checked against the key store, which also gives the plan and the user), the client network (rightmost untrusted X-Forwarded-For hop, grouped by CIDR), or (key, route); never a header the client writes; upload costs 5 permits, read 1",
		Where:   "01: KeyStore, IdentifyByAPIKey, TrustedProxies, UserKey, APIKeyKey, IPGrouping, RouteKey, CostTable, Plans",
	},
	{
		Name:    "traffic shape",
		Ask:     "Is the contract 'at most N in any window' or 'an average rate plus a burst'?",
		Answers: "100 per minute in any minute (windows); 10 per second with bursts up to 20 (buckets)",
		Where:   "02 fixed window, 03 sliding, 04 buckets, 05 lab",
	},
	{
		Name:    "shared state",
		Ask:     "How do N stateless servers share one count, and what happens when the counter is down?",
		Answers: "one Redis key per identity, read-modify-write in one Lua script, prefetch for hot keys, fail open or closed per endpoint",
		Where:   "06 distributed",
	},
	{
		Name:    "placement",
		Ask:     "Where is the request counted: edge, gateway or inside the service?",
		Answers: "WAF/CDN for IP floods, API gateway for API keys, the service for users and costs; always before the work: after identity for a per-user contract, before authentication (by network and by the account tried) on login",
		Where:   "01 Chain (identity -> key -> limiter -> handler), 08 cloud layers",
	},
}
