//go:build linux && !exercise10

package service

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/peer"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// peerRedisTimeout is the reference's default deadline for a Redis call
// (REDIS_TIMEOUT). Beside it, this chapter's service gets the same one
// instead of its own 50 ms: on a loaded machine a call now and then takes
// longer, and the comparison is about answers, not about who gives up first.
const peerRedisTimeout = 10 * time.Second

// startOurs runs this chapter's service on a redis-server of its own with
// the rules in rulesDir and the reference's Redis deadline, each of set
// applied to its Options, and closes it when the test ends.
func startOurs(tb testing.TB, rulesDir string, set ...func(*Options)) *Service {
	tb.Helper()
	redis := redistest.StartDedicated(tb)
	o := Options{
		Config:       rulesDir,
		RedisAddr:    redis.Addr(),
		HTTPAddr:     "127.0.0.1:0",
		GRPCAddr:     "127.0.0.1:0",
		FailureMode:  "closed",
		StoreTimeout: peerRedisTimeout,
	}
	for _, f := range set {
		f(&o)
	}
	s, err := Start(context.Background(), o)
	if err != nil {
		tb.Fatalf("Start: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// dialRLS is a gRPC client of a rate limit service on loopback.
func dialRLS(tb testing.TB, addr string) rls.RateLimitServiceClient {
	tb.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	return rls.NewRateLimitServiceClient(conn)
}

// TestE33_SameAnswersAsEnvoyRatelimit sends the same seeded random sequence
// to this chapter's service and to envoyproxy/ratelimit, each on its own
// redis-server with the rules of peer/rules, inside one minute, and compares
// every overall code and, per descriptor, code, limit_remaining,
// current_limit and whether duration_until_reset is there.
func TestE33_SameAnswersAsEnvoyRatelimit(t *testing.T) {
	runE33(t, false)
}

// TestE33_SameResponseHeaders is the same comparison with the response
// headers on, on both sides (--response-headers here,
// LIMIT_RESPONSE_HEADERS_ENABLED=true there): it compares the headers of
// every answer too.
func TestE33_SameResponseHeaders(t *testing.T) {
	runE33(t, true)
}

func runE33(t *testing.T, headers bool) {
	const n, seed = 3000, 33
	var env []string
	var set []func(*Options)
	if headers {
		env = append(env, "LIMIT_RESPONSE_HEADERS_ENABLED=true")
		set = append(set, func(o *Options) { o.ResponseHeaders = true })
	}
	refAddr := startPeer(t, peerRules, env...).GRPC
	ours := dialRLS(t, startOurs(t, peerRules, set...).GRPCAddr())
	ref := dialRLS(t, refAddr)

	seq := peer.Sequence(n, seed, "")
	cmp := peer.Comparison{
		Ours:   peer.Client(ours),
		Theirs: peer.Client(ref),
		Other:  "the reference",
		Now:    time.Now,
	}
	end := peer.WaitForWindow(time.Now, time.Sleep, func(s string) { t.Log(s) })
	started := time.Now()
	done := cmp.Run(seq, end)
	if len(done) < n {
		t.Logf("stopped after %d of %d requests: the minute is ending", len(done), n)
	}
	if len(done) < n/4 {
		t.Fatalf("only %d of %d requests fit in the minute (%s): the machine is too slow for this comparison",
			len(done), n, time.Since(started).Round(time.Millisecond))
	}

	// No request of the sequence is an error, on either side: behind Envoy
	// an error would let it through. And the edge inputs were sent.
	edges := map[string]int{}
	for _, ex := range done {
		if ex.Ours.Err != nil || ex.Theirs.Err != nil {
			t.Errorf("an error, which Envoy lets through: %s\n  ours: %s\n  reference: %s", ex.Request, ex.Ours, ex.Theirs)
		}
		for _, c := range ex.Cases {
			if strings.HasPrefix(c, "a ") || strings.HasPrefix(c, "an ") || strings.Contains(c, "entries") ||
				strings.HasPrefix(c, "one of 65") || strings.Contains(c, "2^32-1") {
				edges[c]++
			}
		}
	}
	t.Logf("edge inputs sent: %v", edges)
	for _, c := range []string{"a value past 1 KiB", "an empty key", "no entries", "17 entries", "a 257-byte key", "one of 65 descriptors"} {
		if edges[c] == 0 {
			t.Errorf("edge input %q never sent", c)
		}
	}

	// The sequence must have explored what it claims to: every case sent, and
	// (when it ran to the end) every limited case driven down to 0 remaining,
	// as the reference says.
	cov := peer.Covered(done)
	for _, cases := range peer.Cases {
		for _, c := range cases {
			if cov[c.Name].Sent < 10 {
				t.Errorf("case %q sent %d times: the sequence does not exercise it", c.Name, cov[c.Name].Sent)
			}
			if c.Limited && cov[c.Name].Drained == 0 && len(done) == n {
				t.Errorf("case %q never reached 0 remaining: the sequence does not cross its limit", c.Name)
			}
		}
	}

	// A quota_mode rule went over its limit (the reference's rewritten
	// status: OK, 0 remaining, no duration_until_reset) both in a request
	// another descriptor refused and in one answered OK.
	quotaOver := map[rls.RateLimitResponse_Code]int{}
	for _, ex := range done {
		for i, s := range ex.Theirs.Resp.GetStatuses() {
			if ex.Cases[i] == peer.QuotaCase && s.GetCurrentLimit() != nil && s.GetDurationUntilReset() == nil {
				quotaOver[ex.Theirs.Resp.GetOverallCode()]++
			}
		}
	}
	t.Logf("quota_mode over its limit, by the request's overall code: %v", quotaOver)
	if len(done) == n && (quotaOver[rls.RateLimitResponse_OK] == 0 || quotaOver[rls.RateLimitResponse_OVER_LIMIT] == 0) {
		t.Errorf("quota_mode over its limit: %v; want it seen in requests answered OK and OVER_LIMIT", quotaOver)
	}

	// With the headers on, the reference sent some (so they were compared);
	// with them off, neither side sent any.
	withHeaders := 0
	for _, ex := range done {
		if len(ex.Theirs.Resp.GetResponseHeadersToAdd()) > 0 {
			withHeaders++
		}
	}
	if headers {
		t.Logf("%d of %d answers of the reference carried response headers", withHeaders, len(done))
	}
	if headers && withHeaders == 0 {
		t.Errorf("LIMIT_RESPONSE_HEADERS_ENABLED=true: the reference sent no headers, so none were compared")
	}
	if !headers && withHeaders > 0 {
		t.Errorf("the reference sent response headers in %d answers with them off", withHeaders)
	}

	kinds := peer.Tally(done)
	if len(kinds) == 0 {
		t.Logf("%d requests in %s: 0 differences", len(done), time.Since(started).Round(time.Millisecond))
		return
	}
	var summary, first strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&summary, "\n  %5d  %s", k.Count, k.Kind)
		ex := done[k.FirstAt]
		fmt.Fprintf(&first, "\n\n%s, first at request %d:\n  request:   %s\n  ours:      %s\n  reference: %s\n  before it:",
			k.Kind, k.FirstAt, ex.Request, ex.Ours, ex.Theirs)
		for _, prev := range done[max(0, k.FirstAt-5):k.FirstAt] {
			fmt.Fprintf(&first, "\n    %s\n      ours:      %s\n      reference: %s", prev.Request, prev.Ours, prev.Theirs)
		}
	}
	t.Errorf("%d requests: answers differ from envoyproxy/ratelimit%s%s", len(done), summary.String(), first.String())
}
