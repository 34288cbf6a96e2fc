package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the service's Prometheus series, on a registry of its own (two
// services in one process, as in the tests, never share a series). Labels
// come from the rules (domain, the rule's name or path) and never from a
// request's values, so the number of series is bounded by the rules.
type metrics struct {
	reg        *prometheus.Registry
	decisions  *prometheus.CounterVec // domain, rule, code
	nearLimit  *prometheus.CounterVec // domain, rule
	shadow     *prometheus.CounterVec // domain, rule
	quotaOver  *prometheus.CounterVec // domain, rule
	denyHits   *prometheus.CounterVec // domain, rule
	failures   *prometheus.CounterVec // domain, mode
	storeErrs  prometheus.Counter
	storeCalls prometheus.Counter
	storeTime  prometheus.Histogram
	reloads    *prometheus.CounterVec // result
	// unknownDomain counts requests for a domain the rules do not name:
	// answered OK, as the reference does, and worth an alert (a client or
	// an Envoy route configured against rules that are not loaded).
	unknownDomain prometheus.Counter
	// pastBounds counts descriptors past MaxDescriptors, answered
	// OVER_LIMIT without matching.
	pastBounds prometheus.Counter
	// storeFull counts new keys the in-memory store had no room for
	// (MaxKeys), answered by the domain's failure mode.
	storeFull *prometheus.CounterVec // domain, mode
	ref       *refMetrics            // the reference's per-rule series (refmetrics.go)
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.decisions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_decisions_total",
		Help: "Descriptor decisions by domain, rule and code (OK, OVER_LIMIT)."}, []string{"domain", "rule", "code"})
	m.nearLimit = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_near_limit_total",
		Help: "Admitted decisions that left the key at 80 % of its limit or more."}, []string{"domain", "rule"})
	m.shadow = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_shadow_would_reject_total",
		Help: "Decisions a shadow_mode rule answered OK but would have rejected."}, []string{"domain", "rule"})
	m.quotaOver = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_quota_over_limit_total",
		Help: "Decisions a quota_mode rule answered OK though over its limit."}, []string{"domain", "rule"})
	m.denyHits = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_deny_cache_hits_total",
		Help: "Decisions answered from the local deny cache, without the store."}, []string{"domain", "rule"})
	m.failures = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_store_unavailable_total",
		Help: "Decisions made while the store could not answer, by domain and failure mode (open, closed)."}, []string{"domain", "mode"})
	m.storeErrs = prometheus.NewCounter(prometheus.CounterOpts{Name: "ratelimit_store_errors_total",
		Help: "Store calls that failed or missed their deadline."})
	m.storeCalls = prometheus.NewCounter(prometheus.CounterOpts{Name: "ratelimit_store_calls_total",
		Help: "Calls that reached a rule's counter in the store (the deny cache and an open breaker save them)."})
	m.storeTime = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ratelimit_store_latency_seconds",
		Help:    "Time of one store decision, as the service waited for it.",
		Buckets: []float64{50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3}})
	m.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_rule_reloads_total",
		Help: "Rule reloads by result (success, failure)."}, []string{"result"})
	m.unknownDomain = prometheus.NewCounter(prometheus.CounterOpts{Name: "ratelimit_unknown_domain_total",
		Help: "Requests for a domain the rules do not name, answered OK with no limit."})
	m.pastBounds = prometheus.NewCounter(prometheus.CounterOpts{Name: "ratelimit_descriptors_past_bound_total",
		Help: "Descriptors past the first 256 of a request, answered OVER_LIMIT without matching."})
	m.storeFull = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_store_full_total",
		Help: "New keys the in-memory store had no room for (--max-keys), answered by the domain's failure mode."}, []string{"domain", "mode"})
	m.ref = newRefMetrics(m.reg)
	m.reg.MustRegister(m.decisions, m.nearLimit, m.shadow, m.quotaOver, m.denyHits, m.failures, m.storeErrs, m.storeCalls, m.storeTime,
		m.reloads, m.unknownDomain, m.pastBounds, m.storeFull)
	// The Go runtime's series (go_goroutines, go_memstats_*, go_gc_*) and
	// the process's (process_resident_memory_bytes, process_open_fds,
	// process_cpu_seconds_total): a goroutine or memory leak shows as a
	// rising line, the descriptors beside their limit.
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
