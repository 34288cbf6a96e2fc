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
// and Redis is not called again until the cool-down; no request waits longer
// than the deadline (plus scheduling slack); when Redis returns, the next
// probe closes the breaker and Redis decides again.
func TestE15_FailurePolicyOnRedis(t *testing.T) {
	// Its own Redis: the shared one must stay up for the other tests.
	own := redistest.StartDedicated(t)
	t.Logf("dedicated Redis: %s", own.How)

	const (
		deadline = 20 * time.Millisecond
		// A request may overrun its deadline by scheduling delay on a busy
		// 2-core machine under -race; it must never wait for Redis itself.
		slack    = 250 * time.Millisecond
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
	clk := newFakeClock() // the breaker's cool-down and the local buckets
	g, err := NewGuard(GuardConfig{
		Remote: remote, Timeout: deadline,
		Breaker: BreakerConfig{Failures: 3, Cooldown: cooldown},
		Classes: e15Classes(t), Now: clk.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	classes := []string{"login", "read", "billed"}

	// redisDecides waits (on the fake clock) until the breaker has let a
	// probe through and Redis answered it, then checks every class is
	// decided by Redis again.
	redisDecides := func(phase, key string) {
		t.Helper()
		ok := false
		for try := 0; try < 20 && !ok; try++ {
			clk.Advance(cooldown)
			o, err := g.Allow(ctx, "read", key)
			ok = err == nil && o.Source == SourceRemote && g.Breaker().State() == BreakerClosed
			if !ok {
				time.Sleep(50 * time.Millisecond) // a server coming back may need a moment
			}
		}
		if !ok {
			t.Fatalf("%s: Redis never decided again (breaker %v)", phase, g.Breaker().State())
		}
		for _, class := range classes {
			// On a loaded machine a healthy call may still miss a 20 ms
			// deadline now and then; Redis deciding most of the time is the
			// claim, so allow a few tries.
			var o Outcome
			var err error
			for try := 0; try < 5; try++ {
				if o, err = g.Allow(ctx, class, key); err == nil && o.Source == SourceRemote {
					break
				}
				clk.Advance(cooldown)
			}
			if err != nil || !o.Allowed || o.Source != SourceRemote {
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
				start := time.Now()
				o, err := g.Allow(ctx, class, key)
				took := time.Since(start)
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
		start := time.Now()
		if o, err := g.Allow(ctx, "read", key+".probe"); err != nil || o.Source != SourceLocal {
			t.Fatalf("%s: probe while down = %+v, %v", phase, o, err)
		}
		rep.probeWhileDown = time.Since(start)
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
		for what, d := range map[string]time.Duration{
			"a request that called Redis":     rep.worstTimedOut,
			"the probe":                       rep.probeWhileDown,
			"a request with the breaker open": rep.worstBreakerOpen,
		} {
			if d > deadline+slack {
				t.Errorf("%s: %s waited %v; deadline %v (+%v slack)", phase, what, d, deadline, slack)
			}
		}
		t.Logf("%s: deadline %v; slowest request that called Redis %v, probe %v, slowest with the breaker open %v; "+
			"Redis calls %d then 1 probe; admitted locally reads %d/%d, billed %d/%d; login refused %d/%d",
			phase, deadline, rep.worstTimedOut.Round(time.Microsecond), rep.probeWhileDown.Round(time.Microsecond),
			rep.worstBreakerOpen.Round(time.Microsecond), rep.remoteCalls, rep.reads, rounds, rep.billed, rounds,
			rep.loginRefusals, rounds)
		return rep
	}

	id := redistest.ID(t)
	// Warm up: connect and load the script with time to spare.
	if _, err := remote.AllowN(ctx, id+".warm", 1); err != nil {
		t.Fatal(err)
	}
	redisDecides("up", id+".up")

	if err := own.Pause(); err != nil {
		t.Fatal(err)
	}
	outage("paused", id+".paused")
	if err := own.Resume(); err != nil {
		t.Fatal(err)
	}
	redisDecides("resumed", id+".resumed")

	if err := own.Kill(); err != nil {
		t.Fatal(err)
	}
	outage("killed", id+".killed")
	if err := own.Restart(); err != nil {
		t.Fatal(err)
	}
	redisDecides("restarted", id+".restarted")
}

// TestGuardDeadlineWithClientDefaults: the Guard's deadline holds whatever
// the client's settings. A go-redis client with every option at its default
// (no ContextTimeoutEnabled, so a 3 s ReadTimeout; dial retried 5 times)
// talks to a Redis that is SIGSTOPped for 2 s, then SIGKILLed. Every
// decision returns by the 5 ms deadline (plus scheduling slack), and the
// breaker opens after 3 calls in each outage. Before the Guard enforced the
// deadline itself, the first paused decision took 2.0 s (the whole pause)
// and then succeeded, so the breaker never opened and every request went on
// calling Redis.
func TestGuardDeadlineWithClientDefaults(t *testing.T) {
	own := redistest.StartDedicated(t)
	t.Logf("dedicated Redis: %s", own.How)
	const (
		deadline = 5 * time.Millisecond
		slack    = 250 * time.Millisecond // scheduling delay on a busy machine under -race
		pause    = 2 * time.Second
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
		Breaker: BreakerConfig{Failures: 3, Cooldown: time.Second}, Classes: e15Classes(t), Now: clk.Now})
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
			start := time.Now()
			o, err := g.Allow(ctx, "read", id+"."+phase)
			took := time.Since(start)
			slowest = max(slowest, took)
			if err != nil || o.Source != SourceLocal {
				t.Errorf("%s: request %d = %+v, %v after %v; want a local decision", phase, i+1, o, err, took)
			}
		}
		calls := g.Stats().RemoteCalls - before
		t.Logf("%s, go-redis defaults, deadline %v: slowest decision %v; %d of %d requests called Redis; breaker %v",
			phase, deadline, slowest.Round(time.Microsecond), calls, requests, g.Breaker().State())
		if slowest > deadline+slack {
			t.Errorf("%s: a decision took %v; deadline %v (+%v slack)", phase, slowest, deadline, slack)
		}
		if calls != 3 || g.Breaker().State() != BreakerOpen {
			t.Errorf("%s: %d requests called Redis, breaker %v; want 3, open", phase, calls, g.Breaker().State())
		}
	}

	if err := own.Pause(); err != nil {
		t.Fatal(err)
	}
	resumed := make(chan error, 1)
	time.AfterFunc(pause, func() { resumed <- own.Resume() })
	outage("paused")
	if err := <-resumed; err != nil {
		t.Fatal(err)
	}
	// Back: the calls abandoned during the pause complete; the next probe
	// closes the breaker.
	ok := false
	for try := 0; try < 20 && !ok; try++ {
		clk.Advance(time.Second)
		o, err := g.Allow(ctx, "read", id+".back")
		ok = err == nil && o.Source == SourceRemote && g.Breaker().State() == BreakerClosed
		if !ok {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !ok {
		t.Fatalf("after the pause Redis never decided again (breaker %v)", g.Breaker().State())
	}

	if err := own.Kill(); err != nil {
		t.Fatal(err)
	}
	outage("killed")
}
