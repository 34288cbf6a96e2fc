package interview

import (
	"math/rand/v2"
	"slices"
)

// The deep dives are the interviewer's choice, not a fixed part of the
// prompt: each prompt names a bank of at least six (Prompt.Dives), and a
// mock draws two of them, the candidate's weakest drill topics first, then
// at random. Two of every bank are the prompt's own (its algorithm and its
// failure phases of the short form); the rest are shared: the race in the
// script, the hot key, the failover, eviction, many regions, overload, the
// retry herd, clock skew.

// Dive is one deep dive: what the interviewer digs into, and what a strong
// answer covers there.
type Dive struct {
	ID        string   `yaml:"id"`        // stable, for the command line and saved progress
	Title     string   `yaml:"title"`     // a few words
	Questions []string `yaml:"questions"` // what the interviewer asks, in order
	Checklist []Point  `yaml:"checklist"` // what a strong answer covers
	Card      string   `yaml:"card"`      // the drill card that practises it (a Question.ID)
}

// The ids of the two dives every prompt has of its own.
const (
	DiveAlgorithm = "algorithm" // its short form's phase 2: the algorithm and its cost
	DiveFailure   = "failure"   // its short form's phase 4: failure and the response
)

// Dives is the shared deep-dive bank.
var Dives = []Dive{
	{"script-race", "The race in the script", []string{
		"Two app servers read the same count at the same moment. Walk me through the race, then close it.",
		"Why not a transaction with WATCH, or INCR then a check?"},
		[]Point{
			{"Read, compare, write from two servers: one permit spent twice (E9)", "06", "spent twice"},
			{"One Lua script reads, decides, writes and sets the expiry; Redis runs it alone", "06", "Lua"},
			{"The time comes from the Redis server (TIME), not each node's clock", "06", "TIME"},
		}, "06/double spend"},
	{"hot-key", "The hot key", []string{
		"One customer sends a third of all traffic. What happens to the primary that holds its key?",
		"Does adding shards help?"},
		[]Point{
			{"One key lives in one slot on one primary, whatever the cluster size", "06", "one slot"},
			{"Prefetch quota per node in batches, and accept that some strands on idle nodes", "06", "prefetch"},
			{"A local deny cache answers a key already over its limit without Redis", "07", "deny cache"},
		}, "06/hot keys and prefetch"},
	{"failover", "The failover", []string{
		"The primary holding your counters dies and its replica takes over. What did you lose?",
		"Is that acceptable, and for which endpoints?"},
		[]Point{
			{"Replication is asynchronous: acknowledged writes are forgotten (106 extra admitted of 1,000 in chapter 06)", "06", "106"},
			{"The over-admission is bounded by the writes in flight; where it is not acceptable, fail closed", "06", "closed"},
			{"Never decide from a replica: its counts are stale", "07", "replica"},
		}, "06/Redis failover"},
	{"eviction", "Memory runs out", []string{
		"Redis reaches maxmemory. What happens to your limits?",
		"How much memory do you plan for?"},
		[]Point{
			{"An evicted key is a fresh limit: 300 of 300 admitted against L = 50 (E20)", "06", "300 of 300"},
			{"Set noeviction, or give the limiter its own cluster", "06", "noeviction"},
			{"Plan keys x bytes per key x (1 + replicas), with room for fragmentation", "07", "224 to 384 B"},
		}, "07/managed redis"},
	{"many-regions", "Many regions", []string{
		"You run in three regions. Is the limit global or per region?",
		"How do the regions agree without a cross-region call per request?"},
		[]Point{
			{"A static split per region wastes quota where traffic is low and rejects where it is high", "09", "static split"},
			{"Syncing counts asynchronously overshoots by about regions x rate x lag", "09", "lag"},
			{"Leases weighted by recent demand move the quota to where the requests are", "09", "leases"},
		}, "09/many regions"},
	{"overload", "The backend slows down", []string{
		"The backend's latency goes from 0.2 s to 5 s. What does your rate limiter do about it?",
		"Which status does a shed request get?"},
		[]Point{
			{"A rate per key does not cap work in progress: cap requests in flight (Little's law: 100 rps x 0.2 s = 20)", "07", "Little's law"},
			{"Shed by priority with 503 and Retry-After; 429 means one client over its quota", "07", "503"},
		}, "09/in flight vs rate"},
	{"retry-herd", "The retry herd", []string{
		"After an outage every client retries at once. What stops the herd?",
		"What do you ask of the clients?"},
		[]Point{
			{"Make a rejection cheap: the deny cache answers from memory", "07", "deny cache"},
			{"Clients wait Retry-After plus jitter and retry inside a retry budget", "09", "retry budget"},
			{"Retry at one layer only, so retries do not multiply down the stack", "09", "one layer"},
		}, "09/retry budget"},
	{"clock-skew", "Clocks that disagree", []string{
		"Your app servers' clocks disagree by a few hundred milliseconds. Where does it bite?"},
		[]Point{
			{"A window or a refill computed from each node's clock admits more or less than the limit", "06", "skew"},
			{"Take the time inside the script from the Redis server (TIME)", "06", "TIME"},
		}, "06/clock skew"},
}

// DiveByID finds a dive of the shared bank.
func DiveByID(id string) (Dive, bool) {
	for _, d := range Dives {
		if d.ID == id {
			return d, true
		}
	}
	return Dive{}, false
}

// DivesFor is prompt p's bank of deep dives, in its order: its own two
// (from its short form's phases 2 and 4) and the shared ones it names.
func DivesFor(p Prompt) []Dive {
	var out []Dive
	for _, id := range p.Dives {
		switch {
		case id == DiveAlgorithm && len(p.Phases) == len(Skeleton):
			out = append(out, Dive{id, "The algorithm and its cost", p.Phases[1].Questions, p.Phases[1].Checklist, "07/choosing the limit"})
		case id == DiveFailure && len(p.Phases) == len(Skeleton):
			out = append(out, Dive{id, "Failure and the response", p.Phases[3].Questions, p.Phases[3].Checklist, "06/fail open or closed"})
		default:
			if d, ok := DiveByID(id); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// DivesRun is how many deep dives a mock runs.
const DivesRun = 2

// ChooseDives draws DivesRun dives from p's bank, as an interviewer
// would: first those whose drill card weak says the candidate missed, then
// at random (r; nil keeps the bank's order).
func ChooseDives(p Prompt, weak func(card string) bool, r *rand.Rand) []string {
	bank := DivesFor(p)
	if r != nil {
		r.Shuffle(len(bank), func(i, j int) { bank[i], bank[j] = bank[j], bank[i] })
	}
	var out []string
	for _, pass := range []bool{true, false} {
		for _, d := range bank {
			if len(out) < DivesRun && (weak != nil && weak(d.Card)) == pass && !slices.Contains(out, d.ID) {
				out = append(out, d.ID)
			}
		}
	}
	return out
}
