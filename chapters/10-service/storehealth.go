package service

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// storeHealth writes one log line when a domain's store (one node of it)
// starts failing and one when it answers again, and nothing in between: a
// failing store was silent, its only trace a metric. On a cluster each
// node is followed on its own, so that a domain whose keys are on a dead
// node and on live ones logs the dead node once, not each decision that
// goes from one to the other. Decisions call failed or ok; both cost an
// atomic load while every node is healthy.
type storeHealth struct {
	log     *slog.Logger
	now     func() time.Time
	failing atomic.Int64 // (domain, node)s in an outage: ok's fast path
	lastErr atomic.Value // string: the store's last error, for a fail-open line

	mu   sync.Mutex
	down map[domainNode]*outage
}

// domainNode is a domain's keys on one node of the store.
type domainNode struct{ domain, node string }

// outage is one domain's time without its store.
type outage struct {
	mode      rules.FailureMode
	since     time.Time
	decisions int64 // answered by the failure mode since
}

func newStoreHealth(log *slog.Logger, now func() time.Time) *storeHealth {
	return &storeHealth{log: log, now: now, down: map[domainNode]*outage{}}
}

// modeAnswer is what a failure mode answers, in the log's words.
var modeAnswer = map[rules.FailureMode]string{
	rules.FailOpen:   "OK, uncounted",
	rules.FailClosed: "UNAVAILABLE over gRPC, 503 over HTTP",
}

// storeErr records an error of the store itself, as the Guard's remote call
// saw it: a fail-open answer carries no error, so its line quotes this one.
func (h *storeHealth) storeErr(err error) {
	if err != nil {
		h.lastErr.Store(err.Error())
	}
}

// failed notes a decision of domain answered by its failure mode because
// node could not make it; the first of an outage is logged.
func (h *storeHealth) failed(domain, node string, mode rules.FailureMode, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	at := domainNode{domain, node}
	if o := h.down[at]; o != nil {
		o.decisions++
		return
	}
	h.down[at] = &outage{mode: mode, since: h.now(), decisions: 1}
	h.failing.Add(1)
	cause := "unknown error"
	if err != nil {
		cause = err.Error()
	}
	switch last, _ := h.lastErr.Load().(string); {
	case last == "" || strings.Contains(cause, last):
	case errors.Is(err, errFailedOpen): // the Guard's fallback keeps no error: the store's is the cause
		cause = last
	default:
		cause += " (the store's last error: " + last + ")"
	}
	h.log.Error("store failing; answering by failure_mode until it recovers", "domain", domain, "node", node,
		"err", cause, "failure_mode", mode, "answer", modeAnswer[mode])
}

// ok notes a decision of domain made by node; the first after an outage is
// logged with how many decisions were made without it.
func (h *storeHealth) ok(domain, node string) {
	if h.failing.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	at := domainNode{domain, node}
	o := h.down[at]
	if o == nil {
		return
	}
	delete(h.down, at)
	h.failing.Add(-1)
	h.log.Info("store recovered", "domain", domain, "node", node, "after", h.now().Sub(o.since).Round(time.Millisecond).String(),
		"decisions_without_it", o.decisions, "failure_mode", o.mode)
}
