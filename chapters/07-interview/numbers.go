package interview

import (
	"fmt"
	"math"
)

// The capacity estimate of the interview, from first principles: how many
// decisions one Redis core makes, from the server time a decision costs,
// and how many bytes a key takes, from MEMORY USAGE and what it leaves out.
// Every input is a named constant whose doc says where it was measured or
// which public source gives it; the figures the text quotes are computed
// from them here, and a test checks that the text says what these compute.

// Server time per decision, in µs of Redis's one thread: chapter 06's table
// "Server time per decision, against the peers" (make bench-redis-peers:
// EVALSHA's usec in INFO commandstats after CONFIG RESETSTAT, 10,000
// decisions, median of five rounds; Redis 7.0.15 on 2 shared cores).
const (
	IncrServerMicros           = 0.26
	FixedWindowServerMicros    = 4.74
	SlidingLogServerMicros     = 10.97
	SlidingCounterServerMicros = 8.54
	TokenBucketServerMicros    = 5.79
	GCRAServerMicros           = 6.17
)

// Decisions per second with 64 goroutines on one client, from the same
// run (chapter 06's second peers table, P = 64): the raw INCR turn and the
// token bucket's. The INCR rate bounds what one round trip costs the
// server beside the command itself; the token bucket's checks the model.
const (
	IncrPerSecondP64        = 139_040
	TokenBucketPerSecondP64 = 70_880
)

// RoundTripMicros is what a request costs the server besides its command
// when each decision is its own round trip: read, parse, reply and the
// event loop. Derived from chapter 06's INCR turn at P = 64, 1e6 / 139,040
// − 0.26 ≈ 6.9 µs. It is an upper estimate: the Go client shared the two
// cores with Redis.
func RoundTripMicros() float64 { return 1e6/IncrPerSecondP64 - IncrServerMicros }

// PerCore is what one Redis core decides per second for a script that
// costs serverMicros: at most 1e6 / serverMicros when the round trips are
// amortised away (pipelining, or I/O threads), and 1e6 / (serverMicros +
// RoundTripMicros) at one request per round trip, as chapter 06 measured.
type PerCore struct {
	Pipelined, OneRoundTrip float64 // decisions per second
}

// DecisionsPerCore is the range for one script's server time.
func DecisionsPerCore(serverMicros float64) PerCore {
	return PerCore{Pipelined: 1e6 / serverMicros, OneRoundTrip: 1e6 / (serverMicros + RoundTripMicros())}
}

// PlanUtilisation is the share of a primary's core the plan uses: a
// planning assumption, not a measurement. Half leaves room for the hot
// key's primary, a failover and growth.
const PlanUtilisation = 0.5

// Primaries is the number of Redis primaries for rps decisions per second
// at PlanUtilisation, for the best and the worst case of per-core
// throughput. Replicas add no decision capacity: every decision writes.
func Primaries(rps float64, c PerCore) (best, worst int) {
	return int(math.Ceil(rps / (c.Pipelined * PlanUtilisation))), int(math.Ceil(rps / (c.OneRoundTrip * PlanUtilisation)))
}

// MEMORY USAGE key SAMPLES 0 for one identity, in bytes: chapter 06's
// memory table (the same at L = 100 and L = 10,000 for all but the log).
const (
	MemoryUsageFixedWindow = 120 // a hash of one field named for its window
	MemoryUsageSmallHash   = 136 // the sliding counter (N = 1) and GCRA
	MemoryUsageTokenBucket = 168
	SlidingLogBytesL100    = 3_176     // one key after 100 allowed requests: a listpack
	SlidingLogBytesL10000  = 1_226_368 // after 10,000: a skiplist (the top of chapter 06's measured range)
)

// What MEMORY USAGE leaves out, per key, in bytes. MEMORY USAGE counts the
// value, the key's name and the main table's dictEntry (Redis 7.0
// object.c, memoryCommand); a dictEntry is three words, 24 B (dict.h), and
// jemalloc serves it from its 32 B size class.
const (
	// ExpiresEntryBytes: the key's entry in the expires dictionary, which
	// every limiter key has because every limiter key has a TTL.
	ExpiresEntryBytes = 32
	// EntryRoundingBytes: MEMORY USAGE counts the main dictEntry as 24 B;
	// it occupies 32.
	EntryRoundingBytes = 8
	// BucketBytesLow and BucketBytesHigh: one 8 B bucket pointer per slot
	// in each of the two tables (main and expires). A table holds between
	// one slot per key (load factor 1, just before it doubles) and two
	// (just after); during a rehash the old table lives beside the new one
	// of twice the size, three slots per key: 2 × 8 to 2 × 24 B.
	BucketBytesLow  = 16
	BucketBytesHigh = 48
)

// Fragmentation is the allocator's overhead on top of used memory, as a
// factor: 1.0 for none, 1.5 as the planning bound. The bound is an
// assumption: redis.conf's active defragmentation starts at 10 %
// (active-defrag-threshold-lower) and works hardest at 100 %
// (active-defrag-threshold-upper), so 50 % is where an operator has
// already acted.
const (
	FragmentationLow  = 1.0
	FragmentationHigh = 1.5
)

// BytesPerKey is the range one key costs a Redis node whose MEMORY USAGE
// says memoryUsage: the low end adds the left-out entries at the densest
// tables and no fragmentation, the high end mid-rehash and fragmented.
// Multiply by 1 + replicas for the fleet.
func BytesPerKey(memoryUsage int) (lo, hi float64) {
	base := float64(memoryUsage + ExpiresEntryBytes + EntryRoundingBytes)
	return (base + BucketBytesLow) * FragmentationLow, (base + BucketBytesHigh) * FragmentationHigh
}

// LogEntryBytes is what one sorted-set entry of the course's sliding log
// costs, at L = 100 (listpack, below zset-max-listpack-entries = 128) and at
// L = 10,000 (skiplist: a dict entry, a skiplist node and the member). The
// member is the course's seq:sum:cost; a bare timestamp is shorter.
func LogEntryBytes() (listpack, skiplist float64) {
	return SlidingLogBytesL100 / 100.0, SlidingLogBytesL10000 / 10_000.0
}

// The sizing example of the skeleton and the drill, and the peaks the
// worked answers derive from their prompts: login's wave (50,000 attempts
// a second, up to three keys each, on the sliding log) and the partner
// API's 40,000 requests a second (one token-bucket decision each).
const (
	ExampleKeys = 10_000_000
	ExampleRPS  = 200_000
	PushbackRPS = 2_000_000
	LoginRPS    = 150_000
	PartnerRPS  = 40_000
)

// kilo writes a rate as the text does: 172,711 → "173k".
func kilo(x float64) string { return fmt.Sprintf("%.0fk", x/1000) }

// gigabytes writes bytes as the text does: 2.24e9 → "2.2".
func gigabytes(x float64) string { return fmt.Sprintf("%.1f", x/1e9) }

// Figure is one number the interview text quotes, with how it is obtained.
type Figure struct {
	Text string // as the text writes it
	How  string // the derivation, or the source
}

// Derived lists the figures computed here, as the text writes them.
func Derived() []Figure {
	tb, sl := DecisionsPerCore(TokenBucketServerMicros), DecisionsPerCore(SlidingLogServerMicros)
	best, worst := Primaries(ExampleRPS, tb)
	best2m, worst2m := Primaries(PushbackRPS, tb)
	bestLogin, worstLogin := Primaries(LoginRPS, sl)
	bestPartner, worstPartner := Primaries(PartnerRPS, tb)
	tbLo, tbHi := BytesPerKey(MemoryUsageTokenBucket)
	fwLo, fwHi := BytesPerKey(MemoryUsageFixedWindow)
	shLo, shHi := BytesPerKey(MemoryUsageSmallHash)
	lp, sk := LogEntryBytes()
	return []Figure{
		{fmt.Sprintf("%.1f µs", TokenBucketServerMicros), "chapter 06, server time per token-bucket decision"},
		{fmt.Sprintf("%.1f µs", RoundTripMicros()), "1e6 / 139,040 INCR/s − 0.26 µs (chapter 06, P = 64)"},
		{kilo(tb.Pipelined), "1e6 / 5.79 µs: one core, round trips amortised"},
		{kilo(tb.OneRoundTrip), "1e6 / (5.79 + 6.9) µs: one core, one request per round trip"},
		{kilo(TokenBucketPerSecondP64), "chapter 06, token bucket at P = 64, measured"},
		{fmt.Sprintf("%d to %d primaries", best, worst), "200,000/s at 50 % of a core"},
		{fmt.Sprintf("%d to %d primaries", best2m, worst2m), "2,000,000/s at 50 % of a core"},
		{kilo(sl.OneRoundTrip) + " to " + kilo(sl.Pipelined), "one core, sliding-log decisions of 10.97 µs (chapter 06): 1e6 / (10.97 + 6.9) µs at one round trip, 1e6 / 10.97 µs amortised"},
		{fmt.Sprintf("%d to %d primaries", bestLogin, worstLogin), "150,000/s sliding-log decisions (login's wave) at 50 % of a core"},
		{fmt.Sprintf("%d to %d primaries", bestPartner, worstPartner), "40,000/s token-bucket decisions (the partner API) at 50 % of a core"},
		{fmt.Sprintf("%.0f to %.0f B", tbLo, tbHi), "token bucket: MEMORY USAGE 168 B + left-out entries, × fragmentation"},
		{fmt.Sprintf("%.0f to %.0f B", fwLo, fwHi), "fixed window: MEMORY USAGE 120 B + left-out entries, × fragmentation"},
		{fmt.Sprintf("%.0f to %.0f B", shLo, shHi), "sliding counter, GCRA: MEMORY USAGE 136 B + left-out entries, × fragmentation"},
		{fmt.Sprintf("%s to %s GB", gigabytes(tbLo*ExampleKeys), gigabytes(tbHi*ExampleKeys)), "10 M token-bucket keys, one copy"},
		{fmt.Sprintf("%s to %s GB", gigabytes(2*tbLo*ExampleKeys), gigabytes(2*tbHi*ExampleKeys)), "10 M token-bucket keys, primary + one replica"},
		{fmt.Sprintf("%.0f to %.0f B per entry", lp, sk), "sliding log: 3,176 B / 100 (listpack), 1,226,368 B / 10,000 (skiplist; the top of 1,223,872 to 1,226,368 B over 12 runs)"},
		{fmt.Sprintf("%.1f MB", SlidingLogBytesL10000/1e6), "one sliding-log key at L = 10,000"},
	}
}

// NumbersMarkdown renders the derived figures as a Markdown table.
func NumbersMarkdown() string {
	var rows [][]string
	for _, f := range Derived() {
		rows = append(rows, []string{f.Text, f.How})
	}
	return markdownTable([]string{"Figure", "How it is obtained"}, rows)
}
