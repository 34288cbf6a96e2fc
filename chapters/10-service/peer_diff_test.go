//go:build linux && !exercise10

package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

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

// answer is one service's reply to one request, or its error.
type answer struct {
	resp *rls.RateLimitResponse
	err  error
}

func (a answer) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	var b strings.Builder
	b.WriteString(a.resp.GetOverallCode().String())
	for _, s := range a.resp.GetStatuses() {
		fmt.Fprintf(&b, " [%s remaining=%d", s.GetCode(), s.GetLimitRemaining())
		if l := s.GetCurrentLimit(); l != nil {
			fmt.Fprintf(&b, " limit=%d/%s", l.GetRequestsPerUnit(), l.GetUnit())
			if l.GetName() != "" {
				fmt.Fprintf(&b, " name=%s", l.GetName())
			}
		}
		b.WriteString("]")
	}
	if hs := a.resp.GetResponseHeadersToAdd(); len(hs) > 0 {
		b.WriteString(" headers:")
		for _, h := range hs {
			fmt.Fprintf(&b, " %s=%s", h.GetKey(), h.GetValue())
		}
	}
	return b.String()
}

// differences lists where two answers to req disagree, one entry per field,
// each named for the field and the case of the descriptor it is about.
// A status on a counter that one side already counted and the other did not
// (it refused that request) is not compared for itself: it is named
// followsKind, so each root cause shows once.
func differences(p peerRequest, ours, peer answer, tainted map[string]bool) []string {
	switch {
	case ours.err != nil && peer.err == nil:
		return []string{"refused by ours only: " + errorKind(ours.err)}
	case ours.err == nil && peer.err != nil:
		return []string{"refused by the peer only: " + errorKind(peer.err)}
	case ours.err != nil:
		return nil // both refused the request
	}
	var d []string
	o, r := ours.resp.GetStatuses(), peer.resp.GetStatuses()
	if len(o) != len(r) {
		return append(d, "number of statuses")
	}
	follows := false
	for i := range o {
		if tainted[counterOf(p.req, i)] {
			if !statusEqual(o[i], r[i]) {
				follows = true
			}
			continue
		}
		at := " (" + p.cases[i] + ")"
		if o[i].GetCode() != r[i].GetCode() {
			d = append(d, "code"+at)
		}
		if o[i].GetLimitRemaining() != r[i].GetLimitRemaining() {
			d = append(d, "limit_remaining"+at)
		}
		if (o[i].GetDurationUntilReset() == nil) != (r[i].GetDurationUntilReset() == nil) {
			d = append(d, "duration_until_reset present on one side only"+at)
		}
		ol, rl := o[i].GetCurrentLimit(), r[i].GetCurrentLimit()
		switch {
		case (ol == nil) != (rl == nil):
			d = append(d, "current_limit present on one side only"+at)
		case ol == nil:
		case ol.GetRequestsPerUnit() != rl.GetRequestsPerUnit() || ol.GetUnit() != rl.GetUnit():
			d = append(d, "current_limit"+at)
		case ol.GetName() != "" && rl.GetName() != "" && ol.GetName() != rl.GetName():
			d = append(d, "current_limit.name"+at)
		}
	}
	if ours.resp.GetOverallCode() != peer.resp.GetOverallCode() && (len(d) > 0 || !follows) {
		d = append(d, "overall_code")
	}
	if follows && len(d) == 0 {
		d = append(d, followsKind)
	}
	if len(d) == 0 && !follows {
		d = append(d, headerDifferences(ours.resp, peer.resp)...)
	}
	return d
}

// headerDifferences compares the headers to add of two answers whose
// statuses agree: the same names in the same order, and each value equal,
// except RateLimit-Reset, which may differ by one second (each side reads
// its clock at its own instant, and a second can tick in between).
func headerDifferences(ours, peer *rls.RateLimitResponse) []string {
	o, r := ours.GetResponseHeadersToAdd(), peer.GetResponseHeadersToAdd()
	if len(o) != len(r) {
		return []string{"response headers: present on one side only, or not as many"}
	}
	var d []string
	for i := range o {
		name := o[i].GetKey()
		if name != r[i].GetKey() {
			d = append(d, "response header name")
			continue
		}
		if name == HeaderReset {
			a, errA := strconv.ParseInt(o[i].GetValue(), 10, 64)
			b, errB := strconv.ParseInt(r[i].GetValue(), 10, 64)
			if errA != nil || errB != nil || a-b > 1 || b-a > 1 {
				d = append(d, "response header "+name+" (by more than a second)")
			}
			continue
		}
		if o[i].GetValue() != r[i].GetValue() {
			d = append(d, "response header "+name)
		}
	}
	return d
}

const followsKind = "on a counter only one side counted before (follows from a refusal above)"

func statusEqual(a, b *rls.RateLimitResponse_DescriptorStatus) bool {
	al, bl := a.GetCurrentLimit(), b.GetCurrentLimit()
	return a.GetCode() == b.GetCode() && a.GetLimitRemaining() == b.GetLimitRemaining() &&
		(al == nil) == (bl == nil) && al.GetRequestsPerUnit() == bl.GetRequestsPerUnit() && al.GetUnit() == bl.GetUnit()
}

// counterOf names the counter descriptor i of req counts on, as both
// services key it: the domain and every entry.
func counterOf(req *rls.RateLimitRequest, i int) string {
	var b strings.Builder
	b.WriteString(req.GetDomain())
	for _, e := range req.GetDescriptors()[i].GetEntries() {
		b.WriteString("\x00" + e.GetKey() + "\x00" + e.GetValue())
	}
	return b.String()
}

var (
	digits = regexp.MustCompile(`[0-9]+`)
	quoted = regexp.MustCompile(`"[^"]*"`)
)

// errorKind is an error with its numbers and quoted names blanked, so that
// refusals for one reason count as one kind.
func errorKind(err error) string {
	msg := err.Error()
	if s, ok := status.FromError(err); ok {
		msg = s.Code().String() + ": " + s.Message()
	}
	return digits.ReplaceAllString(quoted.ReplaceAllString(msg, `"…"`), "N")
}

// peerWindowBudget is how long the sequence may take. Every rule of
// peer/rules counts per minute, hour or day, so it must not cross a minute
// boundary: a test that starts with less than this left in the minute waits
// for the next one.
const peerWindowBudget = 30 * time.Second

// waitForWindow returns the end of the minute the sequence runs in, after
// sleeping past the next boundary if the current minute is too short.
func waitForWindow(t *testing.T) time.Time {
	now := time.Now()
	end := now.Truncate(time.Minute).Add(time.Minute)
	if time.Until(end) < peerWindowBudget {
		t.Logf("%.1fs left in this minute: waiting for the next one", time.Until(end).Seconds())
		time.Sleep(time.Until(end) + 200*time.Millisecond)
		end = end.Add(time.Minute)
	}
	return end
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
	peerAddr := startPeer(t, peerRules, env...).GRPC
	ours := dialRLS(t, startOurs(t, peerRules, set...).GRPCAddr())
	peer := dialRLS(t, peerAddr)

	r := rand.New(rand.NewPCG(seed, 0))
	seq := make([]peerRequest, n)
	for i := range seq {
		seq[i] = newPeerRequest(r)
	}

	end := waitForWindow(t)
	started := time.Now()
	type exchange struct {
		req        peerRequest
		ours, peer answer
	}
	var done []exchange
	diffs := map[string]int{}
	tainted := map[string]bool{} // counters one side counted and the other did not
	var firstOf []string         // the first example of each kind of difference, in order
	for i, p := range seq {
		if time.Until(end) < 2*time.Second {
			t.Logf("stopped after %d of %d requests: the minute is ending", i, n)
			break
		}
		ex := exchange{req: p}
		var wg sync.WaitGroup
		send := func(c rls.RateLimitServiceClient, a *answer) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			a.resp, a.err = c.ShouldRateLimit(ctx, p.req)
		}
		wg.Add(2)
		go send(ours, &ex.ours)
		go send(peer, &ex.peer)
		wg.Wait()
		if (ex.ours.err == nil) != (ex.peer.err == nil) {
			for i := range p.req.GetDescriptors() {
				tainted[counterOf(p.req, i)] = true
			}
		}
		for _, d := range differences(p, ex.ours, ex.peer, tainted) {
			if diffs[d] == 0 {
				var b strings.Builder
				fmt.Fprintf(&b, "%s, first at request %d:\n  request: %s\n  ours:    %s\n  peer:    %s\n  before it:",
					d, i, p, ex.ours, ex.peer)
				for _, prev := range done[max(0, len(done)-5):] {
					fmt.Fprintf(&b, "\n    %s\n      ours: %s\n      peer: %s", prev.req, prev.ours, prev.peer)
				}
				firstOf = append(firstOf, b.String())
			}
			diffs[d]++
		}
		done = append(done, ex)
	}
	if len(done) < n/4 {
		t.Fatalf("only %d of %d requests fit in the minute (%s): the machine is too slow for this comparison",
			len(done), n, time.Since(started).Round(time.Millisecond))
	}

	// No request of the sequence is an error, on either side: behind Envoy
	// an error would let it through. And the edge inputs were sent.
	edges := map[string]int{}
	for _, ex := range done {
		if ex.ours.err != nil || ex.peer.err != nil {
			t.Errorf("an error, which Envoy lets through: %s\n  ours: %s\n  peer: %s", ex.req, ex.ours, ex.peer)
		}
		for _, c := range ex.req.cases {
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
	sent, drained := map[string]int{}, map[string]bool{}
	for _, ex := range done {
		for i, s := range ex.peer.resp.GetStatuses() {
			c := ex.req.cases[i]
			sent[c]++
			if s.GetCurrentLimit() != nil && s.GetLimitRemaining() == 0 {
				drained[c] = true
			}
		}
	}
	for _, cases := range peerCases {
		for _, c := range cases {
			if sent[c.name] < 10 {
				t.Errorf("case %q sent %d times: the sequence does not exercise it", c.name, sent[c.name])
			}
			if c.limited && !drained[c.name] && len(done) == n {
				t.Errorf("case %q never reached 0 remaining: the sequence does not cross its limit", c.name)
			}
		}
	}

	// A quota_mode rule went over its limit (the reference's rewritten
	// status: OK, 0 remaining, no duration_until_reset) both in a request
	// another descriptor refused and in one answered OK.
	quotaOver := map[rls.RateLimitResponse_Code]int{}
	for _, ex := range done {
		for i, s := range ex.peer.resp.GetStatuses() {
			if ex.req.cases[i] == quotaCase && s.GetCurrentLimit() != nil && s.GetDurationUntilReset() == nil {
				quotaOver[ex.peer.resp.GetOverallCode()]++
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
		if len(ex.peer.resp.GetResponseHeadersToAdd()) > 0 {
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

	if len(diffs) == 0 {
		t.Logf("%d requests in %s: 0 differences", len(done), time.Since(started).Round(time.Millisecond))
		return
	}
	kinds := make([]string, 0, len(diffs))
	for d := range diffs {
		kinds = append(kinds, d)
	}
	slices.Sort(kinds)
	var summary strings.Builder
	for _, d := range kinds {
		fmt.Fprintf(&summary, "\n  %5d  %s", diffs[d], d)
	}
	t.Errorf("%d requests: answers differ from envoyproxy/ratelimit%s\n\n%s",
		len(done), summary.String(), strings.Join(firstOf, "\n\n"))
}
