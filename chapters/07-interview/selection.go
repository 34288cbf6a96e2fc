package interview

import (
	"strings"
)

// Claim is a row's "max in any W" as something a test can check: the most
// requests one key can get upstream inside any half-open window [s, s+W),
// in terms of W, L, C and R.
type Claim int

// The claims of the selection table (CONTRACT.md E19).
const (
	TwoL       Claim = iota + 1 // about 2L: both sides of a boundary fill up
	ExactlyL                    // never more than L
	UnevenTwoL                  // about L on even traffic, 2L worst case on uneven traffic
	CPlusRW                     // about C + R·W: a full bucket plus the refill
	RW                          // about R·W: the queue's even output
)

// Row is one line of the selection table.
type Row struct {
	Algorithm   string // the CLI name (chapter 05 lab)
	Name        string // the display name
	State       string // what each key keeps
	Decision    string // the cost of one decision
	Burst       string // behaviour at bursts and boundaries
	MaxInWindow string // the claim in words
	Claim       Claim  // the claim, checkable
	GivesUp     string // the main cost
	SeenIn      string // where it is commonly found
}

// Selection is the table of CONTRACT.md E19, one row per algorithm. The token
// bucket and GCRA rows agree because they make the same decisions; only the
// queue changes what upstream sees.
var Selection = []Row{
	{"fixed-window", "Fixed window", "count + window id, O(1)", "O(1), one INCR",
		"each side of a boundary fills up", "~2L", TwoL,
		"the boundary spike", "Envoy's reference rate limit service (its only algorithm: INCRBY + EXPIRE); Redis INCR + expiry by hand; daily / monthly quotas"},
	{"sliding-log", "Sliding log", "every allowed timestamp in W, O(L)", "O(log L) + expired entries",
		"no spike", "L, exactly", ExactlyL,
		"memory and script time grow with L", "rare, valuable endpoints: login, OTP, e-mail"},
	{"sliding-counter", "Sliding counter", "prev, curr, window id, O(1)", "O(1)",
		"smooth on average, errs in both directions", "~L on even traffic; 2L worst case (uneven)", UnevenTwoL,
		"false rejects, or overshoot up to 2L", "Cloudflare's edge rate limiting"},
	{"token-bucket", "Token bucket", "tokens + last refill, O(1)", "O(1)",
		"a full bucket drains at once; allowed means upstream now", "~C + R·W", CPlusRW,
		"bursts reach upstream", "AWS API Gateway throttle, Envoy local rate limit, Stripe"},
	{"gcra", "GCRA (leaky bucket as a meter)", "one instant (TAT), O(1)", "O(1)",
		"same decisions as the token bucket", "~C + R·W", CPlusRW,
		"bursts reach upstream", "redis-cell style Redis modules"},
	{"leaky-queue", "Leaky bucket (queue)", "TAT + the queue itself", "O(1) to decide",
		"bursts become queueing delay; even output", "~R·W", RW,
		"latency; needs somewhere to wait", "nginx limit_req with burst, without nodelay"},
}

var selectionHeader = []string{"Algorithm", "Each key stores", "One decision", "Bursts and boundaries", "Max in any W", "Gives up", "Commonly found in"}

// SelectionMarkdown renders the table as Markdown, one line per row.
func SelectionMarkdown() string {
	rows := make([][]string, len(Selection))
	for i, r := range Selection {
		rows[i] = []string{r.Name, r.State, r.Decision, r.Burst, r.MaxInWindow, r.GivesUp, r.SeenIn}
	}
	return markdownTable(selectionHeader, rows)
}

func markdownTable(header []string, rows [][]string) string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

// Control is one row of the overload table: a limit that is not a rate per
// key, for when the question is "the service is overloaded" rather than "a
// client asks too much".
type Control struct {
	Name     string // the display name
	Bounds   string // what it holds down
	State    string // what it keeps
	Response string // what a rejected request gets, and the numbers
	GivesUp  string // the main cost
	SeenIn   string // where it is commonly found
}

// Overload is the table below the selection table: the two controls a
// rate limiter does not replace.
var Overload = []Control{
	{"In-flight (concurrency) limit", "requests in progress: by Little's law rate x latency, 100 rps x 0.2 s = 20",
		"one counter, taken on entry and released on completion", "reject (or queue briefly) at N in flight; at 5 s latency a limit of 20 admits 4/s where a 100/s bucket lets 500 pile up",
		"needs a release on every path, timeouts included", "Envoy circuit breakers (max_requests), Netflix concurrency-limits"},
	{"Priority shedding", "total work when the service, not one client, is overloaded",
		"load (utilisation, queue, latency) and a reserve per priority", "503 + Retry-After, lowest priority first; 1,000 slots with 20% reserved, 900 ordinary + 300 critical offered: 800 + 200 admitted",
		"ordinary traffic under overload", "Google SRE criticality levels; Stripe's fleet usage load shedder (its 20% reserve)"},
}

var overloadHeader = []string{"Control", "Holds down", "Keeps", "Rejects with", "Gives up", "Commonly found in"}

// OverloadMarkdown renders the overload table as Markdown.
func OverloadMarkdown() string {
	rows := make([][]string, len(Overload))
	for i, c := range Overload {
		rows[i] = []string{c.Name, c.Bounds, c.State, c.Response, c.GivesUp, c.SeenIn}
	}
	return markdownTable(overloadHeader, rows)
}

// RowFor finds the row of an algorithm by its CLI name.
func RowFor(algo string) (Row, bool) {
	for _, r := range Selection {
		if r.Algorithm == algo {
			return r, true
		}
	}
	return Row{}, false
}
