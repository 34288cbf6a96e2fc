package service

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// storeHealth writes one log line when a domain's store starts failing and
// one when it answers again, and nothing in between: a failing store was
// silent, its only trace a metric. Decisions call failed or ok; both cost
// an atomic load while every domain is healthy.
type storeHealth struct {
	log     *slog.Logger
	now     func() time.Time
	failing atomic.Int64 // domains in an outage: ok's fast path
	lastErr atomic.Value // string: the store's last error, for a fail-open line

	mu   sync.Mutex
	down map[string]*outage
}

// outage is one domain's time without its store.
type outage struct {
	mode      FailureMode
	since     time.Time
	decisions int64 // answered by the failure mode since
}

func newStoreHealth(log *slog.Logger, now func() time.Time) *storeHealth {
	return &storeHealth{log: log, now: now, down: map[string]*outage{}}
}

// modeAnswer is what a failure mode answers, in the log's words.
var modeAnswer = map[FailureMode]string{
	FailOpen:   "OK, uncounted",
	FailClosed: "UNAVAILABLE over gRPC, 503 over HTTP",
}

// storeErr records an error of the store itself, as the Guard's remote call
// saw it: a fail-open answer carries no error, so its line quotes this one.
func (h *storeHealth) storeErr(err error) {
	if err != nil {
		h.lastErr.Store(err.Error())
	}
}

// failed notes a decision of domain answered by its failure mode because
// the store could not make it; the first of an outage is logged.
func (h *storeHealth) failed(domain string, mode FailureMode, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o := h.down[domain]; o != nil {
		o.decisions++
		return
	}
	h.down[domain] = &outage{mode: mode, since: h.now(), decisions: 1}
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
	h.log.Error("store failing; answering by failure_mode until it recovers", "domain", domain,
		"err", cause, "failure_mode", mode, "answer", modeAnswer[mode])
}

// ok notes a decision of domain made by the store; the first after an
// outage is logged with how many decisions were made without it.
func (h *storeHealth) ok(domain string) {
	if h.failing.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	o := h.down[domain]
	if o == nil {
		return
	}
	delete(h.down, domain)
	h.failing.Add(-1)
	h.log.Info("store recovered", "domain", domain, "after", h.now().Sub(o.since).Round(time.Millisecond).String(),
		"decisions_without_it", o.decisions, "failure_mode", o.mode)
}
