//go:build linux

package distributed

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// outageReport is what one outage looked like from the application.
type outageReport struct {
	remoteCalls       int64         // calls that reached for Redis during the outage
	worstTimedOut     time.Duration // slowest request among those that called Redis
	worstBreakerOpen  time.Duration // slowest request once the breaker was open
	reads, billed     int           // admitted by the local buckets
	loginRefusals     int           // fail-closed refusals
	breakerAfter      BreakerState
	requestsPerClass  int
	probeWhileDown    time.Duration // a probe after the cool-down, Redis still down
	probeCallsWhileDn int64
}

// TestE15_FailurePolicyOnRedis runs the failure policy in front of part 1's
// fixed-window script on a dedicated Redis that is paused, then resumed, then
// killed, then restarted. In each outage: login is refused with
// ErrUnavailable, reads are admitted up to their local bucket (5) and billed
// calls up to 100/4 = 25 and no more, the breaker opens after 3 failed calls
// and Redis is not called again until the cool-down; no request waits past
// the deadline on the Guard's fake clock, which the test steps while the
// socket to the paused server stays stuck in real time; when Redis returns,
// the next probe closes the breaker and Redis decides again.
func TestE15_FailurePolicyOnRedis(t *testing.T) {
	// Its own Redis: the shared one must stay up for the other tests.
	own := redistest.StartDedicated(t)
	t.Logf("dedicated Redis: %s", own.How)

	const (
		deadline = 20 * time.Millisecond
		cooldown = time.Second
	)
	rdb := redis.NewClient(&redis.Options{
		// Dial whatever address the server has now: a restarted container
		// may come back on another port.
		Dialer: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, own.Addr())
		},
		ContextTimeoutEnabled: true, // the deadline must reach the socket
		MaxRetries:            -1,   // a retry would spend the deadline twice
		DialTimeout:           deadline,
		// go-redis retries a refused dial 5 times, 100 ms apart, by
		// default: a dead Redis would then cost every call its whole
		// deadline. One attempt lets "connection refused" fail at once.
		DialerRetries: 1,
	})
	t.Cleanup(func() { _ = rdb.Close() })
	remote, err := NewFixedWindow(rdb, fixedwindow.Config{Window: time.Minute, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	clk := newFakeClock() // the deadline, the breaker's cool-down and the local buckets
	g, err := NewGuard(GuardConfig{
		Remote: remote, Timeout: deadline,
		Breaker: BreakerConfig{Failures: 3, Cooldown: cooldown},
		Classes: e15Classes(t), Clock: clk,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	classes := []string{"login", "read", "billed"}

	// redisDecides steps the fake clock past the cool-down until the
	// breaker has let a probe through and Redis answered it (a pooled
	// connection that the outage broke may fail one probe), then checks
	// every class is decided by Redis again. The clock does not move while
	// a healthy Redis answers, so no deadline can cut it on a busy machine.
	redisDecides := func(phase, key string) {
		t.Helper()
		ok := false
		for try := 0; try < 5 && !ok; try++ {
			clk.Advance(cooldown)
			o, err := g.Allow(ctx, "read", key)
			ok = err == nil && o.Source == SourceRemote && g.Breaker().State() == BreakerClosed
		}
		if !ok {
			t.Fatalf("%s: Redis never decided again (breaker %v)", phase, g.Breaker().State())
		}
		for _, class := range classes {
			if o, err := g.Allow(ctx, class, key); err != nil || !o.Allowed || o.Source != SourceRemote {
				t.Fatalf("%s: %s = %+v, %v; want allowed by Redis", phase, class, o, err)
			}
		}
	}

	// outage sends rounds of one request per class while Redis is down.
	outage := func(phase, key string) outageReport {
		t.Helper()
		const rounds = 30
		rep := outageReport{requestsPerClass: rounds}
		before := g.Stats().RemoteCalls
		for i := 0; i < rounds; i++ {
			for _, class := range classes {
				callsBefore := g.Stats().RemoteCalls
				var o Outcome
				var err error
				took := stepUntilDone(t, clk, deadline, goCall(func() { o, err = g.Allow(ctx, class, key) }))
				if g.Stats().RemoteCalls > callsBefore {
					rep.worstTimedOut = max(rep.worstTimedOut, took)
				} else {
					rep.worstBreakerOpen = max(rep.worstBreakerOpen, took)
				}
				switch {
				case class == "login":
					if !errors.Is(err, ErrUnavailable) || o.Allowed {
						t.Fatalf("%s: login = %+v, %v; want ErrUnavailable", phase, o, err)
					}
					rep.loginRefusals++
				case err != nil || o.Source != SourceLocal:
					t.Fatalf("%s: %s = %+v, %v; want a local decision", phase, class, o, err)
				case o.Allowed && class == "read":
					rep.reads++
				case o.Allowed && class == "billed":
					rep.billed++
				}
			}
		}
		rep.remoteCalls = g.Stats().RemoteCalls - before
		rep.breakerAfter = g.Breaker().State()

		// After the cool-down one probe goes out, fails within the deadline,
		// and the breaker opens again.
		clk.Advance(cooldown)
		callsBefore := g.Stats().RemoteCalls
		var o Outcome
		var err error
		rep.probeWhileDown = stepUntilDone(t, clk, deadline, goCall(func() { o, err = g.Allow(ctx, "read", key+".probe") }))
		if err != nil || o.Source != SourceLocal {
			t.Fatalf("%s: probe while down = %+v, %v", phase, o, err)
		}
		rep.probeCallsWhileDn = g.Stats().RemoteCalls - callsBefore

		if rep.loginRefusals != rounds || rep.reads != 5 || rep.billed != 25 {
			t.Errorf("%s: %d login refusals, %d reads, %d billed admitted; want %d, 5 (local bucket), 25 (100/4)",
				phase, rep.loginRefusals, rep.reads, rep.billed, rounds)
		}
		if rep.remoteCalls != 3 || rep.breakerAfter != BreakerOpen {
			t.Errorf("%s: %d calls reached for Redis, breaker %v; want 3, open", phase, rep.remoteCalls, rep.breakerAfter)
		}
		if rep.probeCallsWhileDn != 1 || g.Breaker().State() != BreakerOpen {
			t.Errorf("%s: probe made %d calls, breaker %v; want 1 call, open again", phase, rep.probeCallsWhileDn, g.Breaker().State())
		}
		if rep.worstTimedOut > deadline || rep.probeWhileDown > deadline || rep.worstBreakerOpen != 0 {
			t.Errorf("%s: on the clock, a request that called Redis waited up to %v, the probe %v, a request with the breaker open %v; "+
				"want at most the deadline %v, and no wait with the breaker open", phase, rep.worstTimedOut, rep.probeWhileDown, rep.worstBreakerOpen, deadline)
		}
		t.Logf("%s: Redis calls %d then 1 probe; admitted locally reads %d/%d, billed %d/%d; login refused %d/%d",
			phase, rep.remoteCalls, rep.reads, rounds, rep.billed, rounds, rep.loginRefusals, rounds)
		return rep
	}

	id := redistest.ID(t)
	// Warm up: connect and load the script with time to spare.
	if _, err := remote.AllowN(ctx, id+".warm", 1); err != nil {
		t.Fatal(err)
	}
	redisDecides("up", id+".up")
	for _, step := range []struct {
		name string
		do   func() error
		up   bool // Redis decides again after the step
	}{
		{"paused", own.Pause, false},
		{"resumed", own.Resume, true},
		{"killed", own.Kill, false},
		{"restarted", own.Restart, true},
	} {
		if err := step.do(); err != nil {
			t.Fatal(err)
		}
		if step.up {
			redisDecides(step.name, id+"."+step.name)
		} else {
			outage(step.name, id+"."+step.name)
		}
	}
}

// TestGuardDeadlineWithClientDefaults: the Guard's deadline holds whatever
// the client's settings. A go-redis client with every option at its default
// (no ContextTimeoutEnabled, so a 3 s ReadTimeout; dial retried 5 times)
// talks to a Redis that is SIGSTOPped, then SIGKILLed. The Guard's deadline
// runs on a fake clock that the test steps while the socket stays stuck:
// every decision returns by the 5 ms deadline on that clock, with Redis
// still paused, and the breaker opens after 3 calls in each outage. Before
// the Guard enforced the deadline itself, the first paused decision waited
// for the server (2.0 s of pause, then Redis's answer), so the breaker
// never opened and every request went on calling Redis.
func TestGuardDeadlineWithClientDefaults(t *testing.T) {
	own := redistest.StartDedicated(t)
	t.Logf("dedicated Redis: %s", own.How)
	const (
		deadline = 5 * time.Millisecond
		requests = 20
	)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr()}) // every option at its default
	t.Cleanup(func() { _ = rdb.Close() })
	remote, err := NewFixedWindow(rdb, fixedwindow.Config{Window: time.Minute, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	clk := newFakeClock()
	g, err := NewGuard(GuardConfig{Remote: remote, Timeout: deadline,
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := redistest.ID(t)
	if _, err := remote.AllowN(ctx, id+".warm", 1); err != nil { // connect, load the script
		t.Fatal(err)
	}

	outage := func(phase string) {
		t.Helper()
		before := g.Stats().RemoteCalls
		var slowest time.Duration
		for i := 0; i < requests; i++ {
			var o Outcome
			var err error
			took := stepUntilDone(t, clk, deadline, goCall(func() { o, err = g.Allow(ctx, "read", id+"."+phase) }))
			slowest = max(slowest, took)
			if err != nil || o.Source != SourceLocal {
				t.Errorf("%s: request %d = %+v, %v after %v; want a local decision", phase, i+1, o, err, took)
			}
		}
		calls := g.Stats().RemoteCalls - before
		if slowest > deadline {
			t.Errorf("%s: a decision took %v on the clock; deadline %v", phase, slowest, deadline)
		}
		if calls != 3 || g.Breaker().State() != BreakerOpen {
			t.Errorf("%s: %d requests called Redis, breaker %v; want 3, open", phase, calls, g.Breaker().State())
		}
	}

	if err := own.Pause(); err != nil {
		t.Fatal(err)
	}
	outage("paused")
	if err := own.Resume(); err != nil {
		t.Fatal(err)
	}
	// Back: the calls abandoned during the pause complete; the next probe
	// closes the breaker (the clock stands still while Redis answers it).
	ok := false
	for try := 0; try < 5 && !ok; try++ {
		clk.Advance(time.Second)
		o, err := g.Allow(ctx, "read", id+".back")
		ok = err == nil && o.Source == SourceRemote && g.Breaker().State() == BreakerClosed
	}
	if !ok {
		t.Fatalf("after the pause Redis never decided again (breaker %v)", g.Breaker().State())
	}

	if err := own.Kill(); err != nil {
		t.Fatal(err)
	}
	outage("killed")
}
