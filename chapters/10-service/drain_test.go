package service

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

const drainRules = "domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 10}\n"

// heldCounter is a store call that does not return until released (or its
// context ends, as a real store call's does): a request in flight for as
// long as a test needs.
type heldCounter struct {
	store.Counter
	entered chan<- string
	release <-chan struct{}
}

func (h heldCounter) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	h.entered <- key
	select {
	case <-h.release:
		return h.Counter.AllowN(ctx, key, cost)
	case <-ctx.Done():
		return core.Decision{}, ctx.Err()
	}
}

// holdStore makes every count of s wait for release, by swapping in the
// rule set in force with each counter wrapped.
func holdStore(s *Service) (entered <-chan string, release func()) {
	in, rel := make(chan string, 16), make(chan struct{})
	cur := s.cur.Load()
	a := *cur
	a.counters = map[*rules.Rule]store.Counter{}
	for r, c := range cur.counters {
		a.counters[r] = heldCounter{Counter: c, entered: in, release: rel}
	}
	s.cur.Store(&a)
	var once sync.Once
	return in, func() { once.Do(func() { close(rel) }) }
}

// flight is what a call in flight got: a summary, or its error.
type flight struct {
	got string
	err error
}

// callsInFlight starts one gRPC call (key g) and one POST /json (key h) and
// waits until both are inside the store.
func callsInFlight(t *testing.T, s *Service, entered <-chan string) (grpcAns, httpAns chan flight) {
	t.Helper()
	c := client(t, s)
	grpcAns, httpAns = make(chan flight, 1), make(chan flight, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r, err := c.ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: "d", Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "g")}})
		if err != nil {
			grpcAns <- flight{err: err}
			return
		}
		grpcAns <- flight{got: summary(r)}
	}()
	go func() {
		hc := &http.Client{Timeout: 30 * time.Second}
		resp, err := hc.Post("http://"+s.HTTPAddr()+"/json", "application/json",
			strings.NewReader(`{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"h"}]}]}`))
		if err != nil {
			httpAns <- flight{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		httpAns <- flight{got: resp.Status + " " + string(b), err: err}
	}()
	for range 2 {
		await(t, entered, 20*time.Second, "the calls did not reach the store")
	}
	return grpcAns, httpAns
}

// listenersClosed waits until neither listener accepts a connection: the
// stop has begun.
func listenersClosed(t *testing.T, s *Service) {
	t.Helper()
	poll(t, 20*time.Second, func() bool {
		for _, addr := range []string{s.GRPCAddr(), s.HTTPAddr()} {
			if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
				c.Close()
				return false
			}
		}
		return true
	})
}

func receive(t *testing.T, ch chan flight, what string) flight {
	t.Helper()
	return await(t, ch, 30*time.Second, what+": no flight")
}

// checkAnswered: both calls in flight got their real flight, counted.
// drainsOnRelease checks a drain in progress (closed is Close's result):
// Close waits while the two calls are held, and once they are released
// both are answered and Close returns nil.
func drainsOnRelease(t *testing.T, closed <-chan error, release func(), grpcAns, httpAns chan flight) {
	t.Helper()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) with two calls in flight", err)
	default:
	}
	release()
	checkAnswered(t, grpcAns, httpAns)
	if err := await(t, closed, 20*time.Second, "Close did not return after the calls were answered"); err != nil {
		t.Errorf("Close: %v, want nil after a full drain", err)
	}
}

func checkAnswered(t *testing.T, grpcAns, httpAns chan flight) {
	t.Helper()
	if a := receive(t, grpcAns, "gRPC"); a.err != nil || a.got != "OK OK:9" {
		t.Errorf("gRPC call in flight: %q, %v; want OK OK:9", a.got, a.err)
	}
	if a := receive(t, httpAns, "HTTP"); a.err != nil || !strings.HasPrefix(a.got, "200 OK ") || !strings.Contains(a.got, `"limitRemaining":9`) {
		t.Errorf("HTTP call in flight: %q, %v; want 200 with limitRemaining 9", a.got, a.err)
	}
}

// TestDrainAnswersCallsInFlight: Close with a gRPC call and a POST /json in
// flight closes the listeners at once and returns only after both calls
// are answered with their real decision.
func TestDrainAnswersCallsInFlight(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules)})
	entered, release := holdStore(s)
	defer release()
	grpcAns, httpAns := callsInFlight(t, s, entered)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	listenersClosed(t, s)
	drainsOnRelease(t, closed, release, grpcAns, httpAns)
}

// TestDrainCutsAfterDeadline: a call still in flight when the drain
// deadline passes is cut, and Close says so, about the deadline after it
// began instead of waiting for ever.
func TestDrainCutsAfterDeadline(t *testing.T) {
	const drain = 300 * time.Millisecond
	s := startWith(t, Options{Config: writeRules(t, drainRules)}, tuning{limits: server.Limits{Drain: drain}})
	entered, release := holdStore(s)
	defer release()
	grpcAns, httpAns := callsInFlight(t, s, entered)
	begin := time.Now()
	err := s.Close()
	took := time.Since(begin)
	want := "drain: calls still in flight after 300ms were cut (gRPC cut: true, HTTP cut: true)"
	if err == nil || err.Error() != want {
		t.Errorf("Close: %v, want %q", err, want)
	}
	if took < drain || took > drain+5*time.Second {
		t.Errorf("Close took %v, want the drain deadline %v (plus a loaded machine's slack)", took, drain)
	}
	if a := receive(t, grpcAns, "gRPC"); status.Code(a.err) != codes.Unavailable {
		t.Errorf("gRPC call past the deadline: %q, %v; want Unavailable", a.got, a.err)
	}
	if a := receive(t, httpAns, "HTTP"); a.err == nil {
		t.Errorf("HTTP call past the deadline: %q, want the connection cut", a.got)
	}
	t.Logf("Close with two calls held: %v (drain %v)", took, drain)
}

// TestCommandDrainsOnSIGTERM: `serve` gets a real SIGTERM with a gRPC call
// and a POST /json in flight; a health watcher is told NOT_SERVING, it stops
// listening, answers both, and exits 0.
func TestCommandDrainsOnSIGTERM(t *testing.T) {
	type held struct {
		s       *Service
		entered <-chan string
		release func()
	}
	ready := make(chan held, 1)
	done := make(chan int, 1)
	var out, errOut syncBuffer
	args := []string{"--config", writeRules(t, drainRules), "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--admin", "127.0.0.1:0"}
	go func() {
		done <- command(args, &out, &errOut, func(s *Service) {
			entered, release := holdStore(s)
			ready <- held{s, entered, release}
		})
	}()
	h := await(t, ready, 20*time.Second, "serve did not start")
	defer h.release()
	grpcAns, httpAns := callsInFlight(t, h.s, h.entered)
	w := watchHealth(t, h.s.GRPCAddr(), "envoy.service.ratelimit.v3.RateLimitService")
	w.next(t, healthpb.HealthCheckResponse_SERVING)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	w.next(t, healthpb.HealthCheckResponse_NOT_SERVING)
	listenersClosed(t, h.s)
	h.release()
	checkAnswered(t, grpcAns, httpAns)
	if code := await(t, done, 20*time.Second, "serve did not stop after SIGTERM"); code != 0 {
		t.Errorf("exit %d after SIGTERM, stderr %q", code, errOut.String())
	}
	for _, line := range []string{`msg="stopping: answering the calls in flight; a second signal stops at once" drain_timeout=10s`, "msg=stopped\n"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("stdout %q lacks %q", out.String(), line)
		}
	}
}
