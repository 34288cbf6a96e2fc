package interview

import (
	"strings"
)

// Hop is one box of the request path the candidate draws: what it is,
// which limit lives there, and what passing it costs, each cost with the
// chapter that measured it or the public source that states it.
type Hop struct {
	Name   string // the box
	Limits string // the limit that lives there
	Cost   string // what the hop costs a request, or "" when nothing is quoted
	Source string // where Cost comes from
}

// InProcessDecisionNanos is one token-bucket decision in the service's own
// memory: chapter 04's benchmark (17.4 ns/op, 2-core Xeon, 0 allocations).
const InProcessDecisionNanos = 17.4

// RedisDecisionMicrosP50 and RedisDecisionMicrosP99 are one decision
// through Redis on loopback, client to reply: chapter 10's E36, chapter 06's
// fixed-window script through go-redis to one Redis node, one caller with
// one request in flight on a loaded 2-core machine, median of three runs of
// 20,000 (18 µs, p99 49 µs). Chapter 06's E23 timed the same script at
// 47 µs p50 under other conditions: through the cluster client, on a
// primary streaming to a replica, interleaved with WAIT calls.
const (
	RedisDecisionMicrosP50 = 18
	RedisDecisionMicrosP99 = 49
)

// CrossZoneRTT is a typical round trip between two availability zones of
// one region. AWS bounds it at single-digit milliseconds (Fault Isolation
// Boundaries whitepaper); its James Hamilton put zones under 2 ms apart,
// usually under 1 ms (re:Invent 2014, SPOT301), and AWS Network Manager's
// Infrastructure Performance publishes the live inter-AZ median.
const CrossZoneRTT = "about 0.5-2 ms"

// ServiceDecisionMicrosP50 and ServiceDecisionMicrosP99 are one decision
// through chapter 10's limiter service over gRPC (ShouldRateLimit, the
// generated client, the service on Redis on loopback), one caller with one
// request in flight on a loaded 2-core machine: chapter 10's README, "The
// latency budget (E36)", BenchmarkE36_LatencyBudget (median of three runs).
// Over HTTP (POST /json) the same run measured 321 µs and 6,662 µs.
const (
	ServiceDecisionMicrosP50 = 135
	ServiceDecisionMicrosP99 = 1822
)

// ServiceHopCost is the limiter service's own hop as the diagram quotes it.
const ServiceHopCost = "135 µs p50, 1,822 µs p99 over gRPC, one caller on a loaded 2-core machine"

// Path is the request path of the diagram, client first.
var Path = []Hop{
	{"client", "none: it retries, and it chooses its own headers", "", ""},
	{"edge / WAF", "L3/L4 scrubbing, rate rules by IP, header or verified JWT claim, challenges",
		"AWS WAF: windows of 1-10 min, acts after a lag usually under 30 s, at times minutes; " +
			"Cloudflare: periods from 10 s, counted per data centre", "ch 08; AWS WAF and Cloudflare docs"},
	{"API gateway", "usage plan per API key: token bucket + quota, best effort", "", ""},
	{"service + library or sidecar", "local bucket, deny cache, in-flight cap, shedding",
		"17.4 ns a decision in process", "ch 04"},
	{"limiter service", "rules: domain, descriptors, tiers, overrides",
		ServiceHopCost, "ch 10, E36"},
	{"Redis Cluster", "one Lua script per key under its hash tag, noeviction",
		"5.8 µs of Redis CPU; 18 µs p50 on loopback, one node; + a cross-zone round trip, " + CrossZoneRTT,
		"ch 06, ch 10 E36, AWS"},
}

// DiagramWidth is the widest line Diagram draws.
const DiagramWidth = 80

// Diagram draws Path top to bottom as plain text of at most DiagramWidth
// columns: each box, the limit that lives there, and the hop's cost.
func Diagram() string {
	var b strings.Builder
	for i, h := range Path {
		if i > 0 {
			b.WriteString("        │\n        ▼\n")
		}
		b.WriteString("  [" + h.Name + "]\n")
		for _, l := range wrap("limit: "+h.Limits, DiagramWidth-6) {
			b.WriteString("      " + l + "\n")
		}
		if h.Cost != "" {
			for _, l := range wrap("cost: "+h.Cost+" ("+h.Source+")", DiagramWidth-6) {
				b.WriteString("      " + l + "\n")
			}
		}
	}
	return b.String()
}

// wrap breaks s into lines of at most width runes at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
