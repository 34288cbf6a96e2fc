package service

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
	"github.com/ratelimit-course/ratelimit/internal/testenv"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// TestMain stops the Redis that internal/redistest starts for this package.
func TestMain(m *testing.M) { redistest.Main(m) }

// rawCodec sends a []byte as the message itself, to send bytes that are not
// a valid RateLimitRequest; replies decode as protobuf.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }
func (rawCodec) Marshal(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return proto.Marshal(v.(proto.Message))
}
func (rawCodec) Unmarshal(data []byte, v any) error { return proto.Unmarshal(data, v.(proto.Message)) }

// writeRules writes a rules file into a fresh directory and returns its path.
func writeRules(t testing.TB, yaml string) string {
	t.Helper()
	return testenv.WriteFile(t, "rules.yaml", yaml)
}

// start starts a service on loopback listeners, closed when the test ends.
func start(t testing.TB, o Options) *Service {
	t.Helper()
	return startWith(t, o, tuning{})
}

// startWith is start with the tests' tuning: short limits, no batching.
func startWith(t testing.TB, o Options, tn tuning) *Service {
	t.Helper()
	if o.GRPCAddr == "" {
		o.GRPCAddr = "127.0.0.1:0"
	}
	if o.HTTPAddr == "" {
		o.HTTPAddr = "127.0.0.1:0"
	}
	s, err := startTuned(context.Background(), o, tn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// client is the generated gRPC client over a real connection to s.
func client(t testing.TB, s *Service) rls.RateLimitServiceClient {
	t.Helper()
	cc, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return rls.NewRateLimitServiceClient(cc)
}

// desc builds a descriptor from key, value pairs ("key" alone: empty value).
func desc(kv ...string) *rlcommon.RateLimitDescriptor {
	d := &rlcommon.RateLimitDescriptor{}
	for i := 0; i+1 < len(kv); i += 2 {
		d.Entries = append(d.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: kv[i], Value: kv[i+1]})
	}
	return d
}

func withHits(d *rlcommon.RateLimitDescriptor, n uint64) *rlcommon.RateLimitDescriptor {
	d.HitsAddend = wrapperspb.UInt64(n)
	return d
}

func ask(t testing.TB, c rls.RateLimitServiceClient, domain string, ds ...*rlcommon.RateLimitDescriptor) *rls.RateLimitResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: domain, Descriptors: ds})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// postJSON sends body to /json and returns the status and the body.
func postJSON(t testing.TB, s *Service, body string) (int, string) {
	t.Helper()
	resp, err := http.Post("http://"+s.HTTPAddr()+"/json", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func get(t testing.TB, s *Service, path string) (int, string) {
	t.Helper()
	return getAddr(t, s.HTTPAddr(), path)
}

func getAddr(t testing.TB, addr, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// metric returns the value of one series in /metrics ("" if absent).
func metric(t testing.TB, s *Service, series string) string {
	t.Helper()
	_, body := get(t, s, "/metrics")
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, series+" ") {
			return strings.TrimPrefix(line, series+" ")
		}
	}
	return ""
}

// wantMetric fails the test unless one series in /metrics reads want ("" for
// absent).
func wantMetric(t testing.TB, s *Service, series, want string) {
	t.Helper()
	if got := metric(t, s, series); got != want {
		t.Errorf("%s = %q, want %q", series, got, want)
	}
}

// e32Rules exercises every matching rule of the reference: the rules
// package's testdata, which its own tests match against.
var e32Rules = readFile("rules/testdata/e32.yaml")

// readFile is a test file's text; a file missing stops the test binary.
func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// summary lists the statuses' codes and remainings: "OK:1 OVER_LIMIT:0".
func summary(r *rls.RateLimitResponse) string {
	var b strings.Builder
	b.WriteString(r.GetOverallCode().String())
	for _, st := range r.GetStatuses() {
		b.WriteString(" ")
		b.WriteString(st.GetCode().String())
		b.WriteString(":")
		if st.GetCurrentLimit() == nil {
			b.WriteString("-")
		} else {
			b.WriteString(strconv.FormatUint(uint64(st.GetLimitRemaining()), 10))
		}
	}
	return b.String()
}

func TestE32_Matching(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, e32Rules)})
	runE32(t, s, "e32")
}

// runE32 plays E32's steps against s, whose rules are e32Rules under domain.
func runE32(t *testing.T, s *Service, domain string) {
	c := client(t, s)
	steps := []struct {
		name string
		ds   []*rlcommon.RateLimitDescriptor
		want string
	}{
		{"key only, value a: 2 a day", []*rlcommon.RateLimitDescriptor{desc("api_key", "a")}, "OK OK:1"},
		{"value a again", []*rlcommon.RateLimitDescriptor{desc("api_key", "a")}, "OK OK:0"},
		{"value a over", []*rlcommon.RateLimitDescriptor{desc("api_key", "a")}, "OVER_LIMIT OVER_LIMIT:0"},
		{"value b has its own counter", []*rlcommon.RateLimitDescriptor{desc("api_key", "b")}, "OK OK:1"},
		{"key_value first: gold has 5", []*rlcommon.RateLimitDescriptor{desc("api_key", "gold")}, "OK OK:4"},
		{"wildcard /search?q=1", []*rlcommon.RateLimitDescriptor{desc("path", "/search?q=1")}, "OK OK:0"},
		{"wildcard, each value its own counter", []*rlcommon.RateLimitDescriptor{desc("path", "/search?q=2")}, "OK OK:0"},
		{"same value again over", []*rlcommon.RateLimitDescriptor{desc("path", "/search?q=1")}, "OVER_LIMIT OVER_LIMIT:0"},
		{"exact value beats the wildcard", []*rlcommon.RateLimitDescriptor{desc("path", "/searching")}, "OK OK:2"},
		{"nested: path alone has no rule", []*rlcommon.RateLimitDescriptor{desc("path", "/login")}, "OK OK:-"},
		{"nested: path then ip", []*rlcommon.RateLimitDescriptor{desc("path", "/login", "ip", "1.2.3.4")}, "OK OK:0"},
		{"nested: over", []*rlcommon.RateLimitDescriptor{desc("path", "/login", "ip", "1.2.3.4")}, "OVER_LIMIT OVER_LIMIT:0"},
		{"more entries than the tree: no rule", []*rlcommon.RateLimitDescriptor{desc("api_key", "c", "extra", "x")}, "OK OK:-"},
		{"no match at all", []*rlcommon.RateLimitDescriptor{desc("nothing", "x")}, "OK OK:-"},
		{"requests_per_unit 0 always rejects", []*rlcommon.RateLimitDescriptor{desc("blocked", "x")}, "OVER_LIMIT OVER_LIMIT:0"},
		{"unlimited always allows", []*rlcommon.RateLimitDescriptor{desc("internal", "x")}, "OK OK:-"},
		{"shadow: first OK", []*rlcommon.RateLimitDescriptor{desc("shadowed", "x")}, "OK OK:0"},
		{"shadow: would reject, answers OK", []*rlcommon.RateLimitDescriptor{desc("shadowed", "x")}, "OK OK:0"},
		{"several descriptors all count; any over is over",
			[]*rlcommon.RateLimitDescriptor{desc("api_key", "d"), desc("api_key", "a")}, "OVER_LIMIT OK:1 OVER_LIMIT:0"},
		{"the first was counted", []*rlcommon.RateLimitDescriptor{desc("api_key", "d")}, "OK OK:0"},
		{"generic alone", []*rlcommon.RateLimitDescriptor{desc("generic", "g")}, "OK OK:0"},
		{"replaces drops generic's evaluation",
			[]*rlcommon.RateLimitDescriptor{desc("generic", "g"), desc("user", "u")}, "OK OK:- OK:99"},
		{"generic was not counted meanwhile, still over alone", []*rlcommon.RateLimitDescriptor{desc("generic", "g")}, "OVER_LIMIT OVER_LIMIT:0"},
		{"hits_addend is the cost", []*rlcommon.RateLimitDescriptor{withHits(desc("api_key", "gold"), 3)}, "OK OK:1"},
		{"hits_addend above what is left: over", []*rlcommon.RateLimitDescriptor{withHits(desc("api_key", "gold"), 2)}, "OVER_LIMIT OVER_LIMIT:0"},
	}
	for _, st := range steps {
		got := summary(ask(t, c, domain, st.ds...))
		// unlimited reports the reference's remaining MaxUint32 with no current limit
		if got != st.want {
			t.Errorf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	wantMetric(t, s, `ratelimit_shadow_would_reject_total{domain="`+domain+`",rule="`+domain+`.shadowed"}`, "1")
	// Near limit: an admission that leaves more than 80 % used (limit 2: the
	// second of a and of d).
	wantMetric(t, s, `ratelimit_near_limit_total{domain="`+domain+`",rule="`+domain+`.api_key"}`, "2")
	wantMetric(t, s, `ratelimit_decisions_total{code="OVER_LIMIT",domain="`+domain+`",rule="login_ip"}`, "1")
}

// TestE32_StatusFields checks the fields a proxy reads: current_limit with
// its name and unit, limit_remaining, duration_until_reset within the unit,
// and the unlimited status the reference sends (remaining MaxUint32).
func TestE32_StatusFields(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, e32Rules)})
	c := client(t, s)
	r := ask(t, c, "e32", desc("path", "/login", "ip", "9.9.9.9"), desc("internal", "x"))
	st := r.GetStatuses()[0]
	if l := st.GetCurrentLimit(); l.GetName() != "login_ip" || l.GetRequestsPerUnit() != 1 || l.GetUnit() != rls.RateLimitResponse_RateLimit_DAY {
		t.Errorf("current_limit = %v", l)
	}
	if d := st.GetDurationUntilReset().AsDuration(); d <= 0 || d > 24*time.Hour {
		t.Errorf("duration_until_reset = %v, want within one day", d)
	}
	if u := r.GetStatuses()[1]; u.GetLimitRemaining() != 1<<32-1 || u.GetCurrentLimit() != nil {
		t.Errorf("unlimited status = %v", u)
	}
}

func TestE32_OverHTTP(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, e32Rules)})
	req := `{"domain":"e32","descriptors":[{"entries":[{"key":"path","value":"/login"},{"key":"ip","value":"5.5.5.5"}]}]}`
	code, body := postJSON(t, s, req)
	if code != http.StatusOK || !strings.Contains(body, `"overallCode":"OK"`) {
		t.Fatalf("first: %d %s", code, body)
	}
	code, body = postJSON(t, s, req)
	if code != http.StatusTooManyRequests || !strings.Contains(body, `"overallCode":"OVER_LIMIT"`) {
		t.Fatalf("second: %d %s", code, body)
	}
	if code, body := get(t, s, "/healthcheck"); code != 200 || body != "OK" {
		t.Errorf("healthcheck: %d %q", code, body)
	}
	wantMetric(t, s, `ratelimit_decisions_total{code="OK",domain="e32",rule="login_ip"}`, "1")
}

// TestBadInput: a request is refused (400 or INVALID_ARGUMENT, one line,
// nothing counted) only for what the reference refuses too and no client's
// content can cause: an empty domain, no descriptors, bytes that are not the
// protocol, a body past server.MaxMessage. What a client controls is answered:
// clientinput_test.go.
func TestBadInput(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, e32Rules)})
	c := client(t, s)
	cases := []struct {
		name string
		req  *rls.RateLimitRequest
		want string
	}{
		{"empty domain", &rls.RateLimitRequest{Descriptors: []*rlcommon.RateLimitDescriptor{desc("api_key", "z")}}, "domain: must not be empty"},
		{"no descriptors", &rls.RateLimitRequest{Domain: "e32"}, "descriptors: the list must not be empty"},
	}
	for _, tc := range cases {
		_, err := c.ShouldRateLimit(context.Background(), tc.req)
		if err == nil || !strings.Contains(err.Error(), "InvalidArgument") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("gRPC %s: %v, want InvalidArgument %q", tc.name, err, tc.want)
		}
		body, _ := protojson.Marshal(tc.req)
		code, msg := postJSON(t, s, string(body))
		if code != http.StatusBadRequest || !strings.Contains(msg, tc.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("HTTP %s: %d %q, want 400 with %q on one line", tc.name, code, clip(msg), tc.want)
		}
	}
	for _, body := range []string{`{"domain": `, `not json`, `{"domain":"e32","descriptors":[{"entries":"x"}]}`} {
		if code, msg := postJSON(t, s, body); code != http.StatusBadRequest || !strings.HasPrefix(msg, "json: ") {
			t.Errorf("malformed %q: %d %q", body, code, msg)
		}
	}
	// Malformed protobuf over gRPC: raw bytes that do not decode.
	cc, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	var out rls.RateLimitResponse
	err = cc.Invoke(context.Background(), rls.RateLimitService_ShouldRateLimit_FullMethodName, []byte{0x0a, 0xff, 0xff, 0xff},
		&out, grpc.ForceCodec(rawCodec{}))
	if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || !strings.HasPrefix(st.Message(), "protobuf: ") {
		t.Errorf("malformed protobuf: %v, want InvalidArgument protobuf: …", err)
	}
	big := bytes.Repeat([]byte("x"), server.MaxMessage+1)
	if code, msg := postJSON(t, s, string(big)); code != http.StatusBadRequest || !strings.Contains(msg, "over") {
		t.Errorf("body over the bound: %d %q", code, clip(msg))
	}
	if _, body := get(t, s, "/metrics"); strings.Contains(body, "ratelimit_decisions_total{") {
		t.Errorf("bad requests were counted as decisions")
	}
	// The counter for api_key z was never touched: its first request has 1 left.
	if got := summary(ask(t, c, "e32", desc("api_key", "z"))); got != "OK OK:1" {
		t.Errorf("after the bad requests: %q, want OK OK:1", got)
	}
}

// TestE32_UnknownDomainIsOK: a domain the rules do not name matches nothing,
// so every descriptor is OK with no limit and nothing is counted, as
// envoyproxy/ratelimit answers it (an Envoy pointed at rules that are not
// loaded keeps serving); the metric ratelimit_unknown_domain_total counts it.
// Before, the service refused it with INVALID_ARGUMENT, one of the two
// differences TestE33_SameAnswersAsEnvoyRatelimit found.
func TestE32_UnknownDomainIsOK(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, e32Rules)})
	c := client(t, s)
	for i := 0; i < 3; i++ {
		resp, err := c.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "nope",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("api_key", "z"), desc("remote_address", "10.0.0.1")}})
		if err != nil {
			t.Fatalf("request %d: %v, want OK", i+1, err)
		}
		if resp.GetOverallCode() != rls.RateLimitResponse_OK || len(resp.GetStatuses()) != 2 {
			t.Fatalf("request %d: %v, want OK with two statuses", i+1, resp)
		}
		for j, st := range resp.GetStatuses() {
			if st.GetCode() != rls.RateLimitResponse_OK || st.GetCurrentLimit() != nil || st.GetLimitRemaining() != 0 {
				t.Errorf("request %d status %d: %v, want OK with no limit", i+1, j, st)
			}
		}
	}
	if got := testutil.ToFloat64(s.m.unknownDomain); got != 3 {
		t.Errorf("ratelimit_unknown_domain_total = %v, want 3", got)
	}
}
