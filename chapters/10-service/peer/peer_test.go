package peer

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/durationpb"
)

type dstatus = rls.RateLimitResponse_DescriptorStatus

// over is a status over a limit of 4 a minute, with duration_until_reset.
func over() *dstatus {
	return &dstatus{Code: rls.RateLimitResponse_OVER_LIMIT, DurationUntilReset: durationpb.New(30 * time.Second),
		CurrentLimit: &rls.RateLimitResponse_RateLimit{RequestsPerUnit: 4, Unit: rls.RateLimitResponse_RateLimit_MINUTE}}
}

// quotaOver is the reference's quota_mode status over the limit: OK, 0
// remaining, no duration_until_reset.
func quotaOver() *dstatus {
	s := over()
	s.Code, s.DurationUntilReset = rls.RateLimitResponse_OK, nil
	return s
}

func answerOf(code rls.RateLimitResponse_Code, ss ...*dstatus) Answer {
	return Answer{Resp: &rls.RateLimitResponse{OverallCode: code, Statuses: ss}}
}

// TestDifferences names each field two answers differ in, for the
// descriptor's case; a counter one side counted alone is one kind.
func TestDifferences(t *testing.T) {
	req := Request{Req: &rls.RateLimitRequest{Domain: "edge", Descriptors: []*rlcommon.RateLimitDescriptor{
		{Entries: []*rlcommon.RateLimitDescriptor_Entry{{Key: "quota", Value: "q0"}}}}}, Cases: []string{"q"}}
	ok, refused := rls.RateLimitResponse_OK, rls.RateLimitResponse_OVER_LIMIT
	withHeader := func(a Answer, reset string) Answer {
		a.Resp.ResponseHeadersToAdd = []*corev3.HeaderValue{{Key: ResetHeader, Value: reset}}
		return a
	}
	cases := []struct {
		name         string
		ours, theirs Answer
		tainted      bool
		want         []string
	}{
		{"equal", answerOf(refused, over()), answerOf(refused, over()), false, nil},
		{"quota over on both sides", answerOf(ok, quotaOver()), answerOf(ok, quotaOver()), false, nil},
		{"refused here, quota over there", answerOf(refused, over()), answerOf(ok, quotaOver()), false,
			[]string{"code (q)", "duration_until_reset present on one side only (q)", "overall_code"}},
		{"duration_until_reset alone", answerOf(ok, func() *dstatus { s := quotaOver(); s.DurationUntilReset = durationpb.New(time.Second); return s }()),
			answerOf(ok, quotaOver()), false, []string{"duration_until_reset present on one side only (q)"}},
		{"tainted counter", answerOf(refused, over()), answerOf(ok, quotaOver()), true, []string{followsKind}},
		{"an error here only", Answer{Err: errors.New(`rule "x" 12`)}, answerOf(ok), false,
			[]string{`refused by this service only: rule "…" N`}},
		{"an error there only", answerOf(ok), Answer{Err: errors.New("boom")}, false, []string{"refused by the other only: boom"}},
		{"reset a second apart", withHeader(answerOf(ok), "30"), withHeader(answerOf(ok), "31"), false, nil},
		{"reset two seconds apart", withHeader(answerOf(ok), "30"), withHeader(answerOf(ok), "32"), false,
			[]string{"response header RateLimit-Reset (by more than a second)"}},
	}
	for _, c := range cases {
		tainted := map[string]bool{counterOf(req.Req, 0): c.tainted}
		if got := differences(req, c.ours, c.theirs, tainted, "the other"); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestWaitForWindow: the sequence starts in a minute with at least 30 s
// left, and not in its first 2 s.
func TestWaitForWindow(t *testing.T) {
	base := time.Unix(1_800_000_000, 0) // a minute's start
	cases := []struct {
		sec  int64
		wait time.Duration
		end  int64 // the minute's end, in seconds from base
	}{
		{10, 0, 60},
		{30, 0, 60},
		{31, 31 * time.Second, 120},
		{1, time.Second, 60},
	}
	for _, c := range cases {
		var waited time.Duration
		now := base.Add(time.Duration(c.sec) * time.Second)
		end := WaitForWindow(func() time.Time { return now }, func(d time.Duration) { waited = d }, func(string) {})
		if waited != c.wait || !end.Equal(base.Add(time.Duration(c.end)*time.Second)) {
			t.Errorf("at second %d: waited %v, end %v; want %v, +%ds", c.sec, waited, end, c.wait, c.end)
		}
	}
}

// TestCases: every case name is one case's (coverage is counted by name),
// and Domains lists the domains of Cases.
func TestCases(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Domains {
		for _, c := range Cases[d] {
			if seen[c.Name] {
				t.Errorf("case %q twice", c.Name)
			}
			seen[c.Name] = true
		}
	}
	if got := slices.Sorted(maps.Keys(Cases)); !slices.Equal(got, slices.Sorted(slices.Values(Domains))) {
		t.Errorf("Cases has domains %q, Domains %q", got, Domains)
	}
}
