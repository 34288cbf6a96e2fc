package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// The rule fields the reference honours beyond the walk: share_threshold
// (one counter for every value a wildcard takes) and quota_mode (over the
// limit is reported, not refused), each decided as envoyproxy/ratelimit
// decides it (src/config/config_impl.go GetLimit, src/limiter/cache_key.go,
// src/service/ratelimit.go shouldRateLimitWorker). E33 compares them with
// the reference itself (peer/rules/fields.yaml).

const fieldRules = `
domain: f
descriptors:
  - key: files
    value: "files/*"
    share_threshold: true
    rate_limit: {unit: hour, requests_per_unit: 3}
  - key: soft
    quota_mode: true
    rate_limit: {unit: hour, requests_per_unit: 2}
  - key: hard
    rate_limit: {unit: hour, requests_per_unit: 1}
  - key: both
    quota_mode: true
    shadow_mode: true
    rate_limit: {unit: hour, requests_per_unit: 1}
  - key: dir
    value: "d/*"
    share_threshold: true
    descriptors:
      - key: user
        rate_limit: {unit: hour, requests_per_unit: 2}
  - key: img
    value: "img/*"
    rate_limit: {unit: hour, requests_per_unit: 1}
`

// stopped is a clock that stays in one hour, whatever the machine's speed.
func stopped() time.Time { return time.Unix(1_800_000_000, 0) }

// fieldCase is one request of domain f and the summary it must get.
type fieldCase struct {
	name string
	ds   []*rlcommon.RateLimitDescriptor
	want string
}

// askInTurn sends each case's request to s, in order, and checks its
// summary: each case counts on top of those before it.
func askInTurn(t *testing.T, s *Service, cases []fieldCase) {
	t.Helper()
	for _, tc := range cases {
		resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "f", Descriptors: tc.ds})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := summary(resp); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestShareThreshold: every value a share_threshold wildcard takes counts
// on one counter, as in the reference; before, each value had its own, so
// five files passed a limit of three.
func TestShareThreshold(t *testing.T) {
	s := start(t, onClock(t, Options{Config: writeRules(t, fieldRules)}, stopped))
	askInTurn(t, s, []fieldCase{
		{"files/a", ds(desc("files", "files/a")), "OK OK:2"},
		{"files/b", ds(desc("files", "files/b")), "OK OK:1"},
		{"files/c", ds(desc("files", "files/c")), "OK OK:0"},
		{"files/d", ds(desc("files", "files/d")), "OVER_LIMIT OVER_LIMIT:0"},
		{"files/e", ds(desc("files", "files/e")), "OVER_LIMIT OVER_LIMIT:0"},
		// The value the pattern itself is written as lands on the wildcard
		// by its exact name and is counted under it: the same counter.
		{"files/* written out", ds(desc("files", "files/*")), "OVER_LIMIT OVER_LIMIT:0"},
		// Nested under a share_threshold wildcard without a limit of its
		// own: one counter per user, shared by every d/ value.
		{"d/1 user u1", ds(desc("dir", "d/1", "user", "u1")), "OK OK:1"},
		{"d/2 user u1", ds(desc("dir", "d/2", "user", "u1")), "OK OK:0"},
		{"d/3 user u1", ds(desc("dir", "d/3", "user", "u1")), "OVER_LIMIT OVER_LIMIT:0"},
		{"d/3 user u2", ds(desc("dir", "d/3", "user", "u2")), "OK OK:1"},
		// A wildcard without share_threshold: each value its own counter.
		{"img/a", ds(desc("img", "img/a")), "OK OK:0"},
		{"img/b", ds(desc("img", "img/b")), "OK OK:0"},
	})
}

func ds(d ...*rlcommon.RateLimitDescriptor) []*rlcommon.RateLimitDescriptor { return d }

// TestQuotaMode: a quota_mode rule over its limit is answered OK with 0
// remaining and no duration_until_reset (the reference's status), and
// refuses the request only if another rule does; under shadow_mode too it
// is OK. Before, quota_mode was ignored: soft's third request was refused.
func TestQuotaMode(t *testing.T) {
	s := start(t, onClock(t, Options{Config: writeRules(t, fieldRules)}, stopped))
	askInTurn(t, s, []fieldCase{
		{"soft 1", ds(desc("soft", "s")), "OK OK:1"},
		{"soft 2", ds(desc("soft", "s")), "OK OK:0"},
		{"soft 3, over", ds(desc("soft", "s")), "OK OK:0"},
		{"soft 4, over", ds(desc("soft", "s")), "OK OK:0"},
		{"soft over beside hard in its limit", ds(desc("soft", "s"), desc("hard", "h")), "OK OK:0 OK:0"},
		{"soft over beside hard over", ds(desc("soft", "s"), desc("hard", "h")), "OVER_LIMIT OK:0 OVER_LIMIT:0"},
		{"quota and shadow", ds(desc("both", "b"), desc("both", "b")), "OK OK:0 OK:0"},
	})
	resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "f", Descriptors: ds(desc("soft", "s"), desc("both", "b"))})
	if err != nil {
		t.Fatal(err)
	}
	if q := resp.Statuses[0]; q.DurationUntilReset != nil || q.CurrentLimit.GetRequestsPerUnit() != 2 {
		t.Errorf("quota_mode over its limit: %v; want its limit and no duration_until_reset, as the reference answers", q)
	}
	if sh := resp.Statuses[1]; sh.DurationUntilReset == nil {
		t.Errorf("quota_mode under shadow_mode: %v; want the shadow answer, with duration_until_reset", sh)
	}
	wantMetric(t, s, `ratelimit_quota_over_limit_total{domain="f",rule="f.soft"}`, "5")
}

// TestRuleFieldsAtLoad: each field the reference accepts is decided as it
// decides, or refused at load with its line; none is accepted and ignored.
func TestRuleFieldsAtLoad(t *testing.T) {
	for _, tc := range []struct {
		name, descriptor string
		want             string // "" loads; else "line: field: start of the message"
	}{
		{"share_threshold on a wildcard", "key: k\n    value: \"v*\"\n    share_threshold: true", ""},
		{"share_threshold on a key that ends in *", "key: k*\n    share_threshold: true", ""},
		{"share_threshold without a wildcard", "key: k\n    value: v\n    share_threshold: true",
			"5: share_threshold: can only be used with a wildcard value"},
		{"share_threshold on a key alone", "key: k\n    share_threshold: true", "4: share_threshold: can only be used with a wildcard value"},
		{"share_threshold false anywhere", "key: k\n    value: v\n    share_threshold: false", ""},
		{"share_threshold not a boolean", "key: k\n    value: \"v*\"\n    share_threshold: yes please",
			"5: share_threshold: \"yes please\": expected true or false"},
		{"quota_mode", "key: k\n    quota_mode: true", ""},
		{"quota_mode not a boolean", "key: k\n    quota_mode: 2", "4: quota_mode: \"2\": expected true or false"},
		{"detailed_metric", "key: k\n    detailed_metric: true", ""},
		{"value_to_metric", "key: k\n    value_to_metric: true", ""},
		{"value_to_metric not a boolean", "key: k\n    value_to_metric: [x]", "4: value_to_metric: \"\": expected true or false"},
		{"metadata: unknown to the reference too", "key: k\n    metadata: {a: b}", "4: metadata: unknown key"},
	} {
		yaml := "domain: d\ndescriptors:\n  - " + tc.descriptor + "\n    rate_limit: {unit: hour, requests_per_unit: 1}\n"
		_, err := rules.LoadRules(writeRules(t, yaml))
		var re *rules.RuleError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want it loaded", tc.name, err)
		case tc.want == "":
		case !errors.As(err, &re):
			t.Errorf("%s: %v, want a RuleError %q", tc.name, err, tc.want)
		case !strings.HasPrefix(fmt.Sprintf("%d: %s: %s", re.Line, re.Field, re.Msg), tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestModesNeedARateLimit: shadow_mode, quota_mode and detailed_metric
// apply to the rate_limit of their own descriptor (the reference reads
// them there and nowhere else, not in the descriptors below): written
// where there is none, they would change nothing, so they are refused.
func TestModesNeedARateLimit(t *testing.T) {
	for _, field := range []string{"shadow_mode", "quota_mode", "detailed_metric"} {
		yaml := "domain: d\ndescriptors:\n  - key: k\n    " + field + ": true\n    descriptors:\n      - key: j\n        rate_limit: {unit: hour, requests_per_unit: 1}\n"
		_, err := rules.LoadRules(writeRules(t, yaml))
		var re *rules.RuleError
		if !errors.As(err, &re) || re.Line != 4 || re.Field != field || !strings.Contains(re.Msg, "no rate_limit") {
			t.Errorf("%s without a rate_limit: %v, want line 4 refused", field, err)
		}
		if _, err := rules.LoadRules(writeRules(t, strings.Replace(yaml, ": true", ": false", 1))); err != nil {
			t.Errorf("%s: false without a rate_limit: %v, want it loaded", field, err)
		}
	}
}

// TestCounterKeyUnambiguous: a NUL inside a value (a JSON "\u0000") made
// two descriptors of one rule share a counter, since entries were joined
// with NUL bytes; each length is now written before its bytes.
func TestCounterKeyUnambiguous(t *testing.T) {
	a := []rules.Entry{{Key: "k", Value: "a\x00j\x00b"}, {Key: "j", Value: "c"}}
	b := []rules.Entry{{Key: "k", Value: "a"}, {Key: "j", Value: "b\x00j\x00c"}}
	if counterKey("n", a) == counterKey("n", b) {
		t.Errorf("counterKey: %q for both, want two counters", counterKey("n", a))
	}
	s := start(t, onClock(t, Options{Config: writeRules(t, `
domain: n
descriptors:
  - key: k
    descriptors:
      - key: j
        rate_limit: {unit: hour, requests_per_unit: 1}
`)}, stopped))
	for i, es := range [][]rules.Entry{a, b} {
		d := desc(es[0].Key, es[0].Value, es[1].Key, es[1].Value)
		resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "n", Descriptors: ds(d)})
		if err != nil || summary(resp) != "OK OK:0" {
			t.Errorf("descriptor %d: %s, %v; want OK on a counter of its own", i, summary(resp), err)
		}
	}
}

// TestExplainShared: Explain names the counter a share_threshold wildcard
// counts on, with the wildcard's value in place of the request's.
func TestExplainShared(t *testing.T) {
	s := start(t, onClock(t, Options{Config: writeRules(t, fieldRules)}, stopped))
	_, trs, err := explain(t, s, "f", desc("files", "files/a"), desc("dir", "d/1", "user", "u1"), desc("img", "img/a"))
	if err != nil || len(trs) != 3 {
		t.Fatalf("%v, %d traces", err, len(trs))
	}
	for i, want := range []string{"f·files·files/*", "f·dir·d/*·user·u1", "f·img·img/a"} {
		if trs[i].Key != want {
			t.Errorf("trace %d: counter %q, want %q", i, trs[i].Key, want)
		}
	}
}
