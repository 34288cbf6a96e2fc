//go:build !exercise10

package service

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestStoreHealthLogsTransitions: one line when a domain's store starts
// failing, none while it keeps failing, one when it recovers with the
// number of decisions made without it; each domain and node on its own.
func TestStoreHealthLogsTransitions(t *testing.T) {
	var log bytes.Buffer
	now := time.Unix(1000, 0)
	h := newStoreHealth(timelessLog(&log), func() time.Time { return now })
	const n1, n2 = "127.0.0.1:6390", "127.0.0.1:6391"
	h.ok("a", n1) // healthy: nothing
	h.storeErr(errors.New("dial tcp 127.0.0.1:6390: connect: connection refused"))
	for range 3 {
		h.failed("a", n1, "open", errFailedOpen)
		h.ok("a", n2) // another node of the domain's keys answers: nothing
	}
	h.failed("b", n1, "closed", errors.New("rate limiter unavailable, try again shortly: context deadline exceeded"))
	now = now.Add(1500 * time.Millisecond)
	h.ok("a", n1)
	h.ok("a", n1) // recovered already: nothing
	want := `level=ERROR msg="store failing; answering by failure_mode until it recovers" domain=a node=127.0.0.1:6390 err="dial tcp 127.0.0.1:6390: connect: connection refused" failure_mode=open answer="OK, uncounted"` + "\n" +
		`level=ERROR msg="store failing; answering by failure_mode until it recovers" domain=b node=127.0.0.1:6390 err="rate limiter unavailable, try again shortly: context deadline exceeded (the store's last error: dial tcp 127.0.0.1:6390: connect: connection refused)" failure_mode=closed answer="UNAVAILABLE over gRPC, 503 over HTTP"` + "\n" +
		`level=INFO msg="store recovered" domain=a node=127.0.0.1:6390 after=1.5s decisions_without_it=3 failure_mode=open` + "\n"
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
	if n := h.failing.Load(); n != 1 {
		t.Errorf("domains failing = %d, want 1 (b)", n)
	}
}

// TestStoreHealthLogged kills the service's own Redis: each domain logs
// one line as its store fails, naming the error and its failure mode, and
// one when Redis is back, with the count of decisions made without it.
func TestStoreHealthLogged(t *testing.T) {
	red := redistest.StartDedicated(t)
	dir := t.TempDir()
	writeFile(t, dir, "open.yaml", "domain: open\nfailure_mode: open\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 1000}\n")
	writeFile(t, dir, "closed.yaml", "domain: closed\nfailure_mode: closed\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 1000}\n")
	var log syncBuffer
	s := start(t, Options{Config: dir, RedisAddr: red.Addr(), StoreTimeout: 300 * time.Millisecond, Log: &log})
	c := client(t, s)
	askErr := func(domain string) error {
		_, err := c.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: domain,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "v")}})
		return err
	}
	for _, d := range []string{"open", "closed"} {
		if err := askErr(d); err != nil {
			t.Fatalf("%s before the failure: %v", d, err)
		}
	}
	if err := red.Kill(); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		_ = askErr("open")
		_ = askErr("closed")
	}
	lines := func(msg string) []string {
		var out []string
		for _, l := range strings.Split(log.String(), "\n") {
			if strings.Contains(l, ` msg="`+msg+`"`) {
				out = append(out, l)
			}
		}
		return out
	}
	fails := lines("store failing; answering by failure_mode until it recovers")
	if len(fails) != 2 || !strings.Contains(fails[0], `failure_mode=open answer="OK, uncounted"`) ||
		!strings.Contains(fails[1], `domain=closed node=`+red.Addr()+` err="rate limiter unavailable`) || !strings.Contains(fails[1], `failure_mode=closed answer="UNAVAILABLE`) {
		t.Fatalf("failing lines %q, want one per domain with its mode", fails)
	}
	if err := red.Restart(); err != nil {
		t.Fatal(err)
	}
	// The breaker probes again after its cool-down (1 s).
	poll(t, 30*time.Second, func() bool {
		return askErr("open") == nil && askErr("closed") == nil && len(lines("store recovered")) == 2
	})
	for _, l := range lines("store recovered") {
		// 4 while killed, and the probes of the poll until the breaker let one through.
		if !strings.Contains(l, " decisions_without_it=") {
			t.Errorf("recovery line %q", l)
		}
	}
	if n := len(lines("store failing; answering by failure_mode until it recovers")); n != 2 {
		t.Errorf("%d failing lines, want 2: one per outage per domain", n)
	}
	t.Logf("log:\n%s", log.String())
}
