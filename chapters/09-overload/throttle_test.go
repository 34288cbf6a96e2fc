package overload

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestE26_RetryHerd (CONTRACT.md E26): 10,000 clients told Retry-After: 30.
// max(Retry-After, jitter of at most 1 s) sends every one of them back at
// exactly 30 s; Retry-After + U[0, 10 s] sends none back early and about
// 1,000 in each second from 30 s to 40 s.
func TestE26_RetryHerd(t *testing.T) {
	const n, ra = 10_000, 30 * time.Second
	t.Run("max collapses", func(t *testing.T) {
		waits, err := Herd(n, ra, time.Second, MaxRule, rand.New(rand.NewPCG(26, 1)))
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range waits {
			if w != ra {
				t.Fatalf("client %d waits %v, want exactly %v: every draw below Retry-After collapses onto it", i, w, ra)
			}
		}
	})
	t.Run("on top spreads", func(t *testing.T) {
		waits, err := Herd(n, ra, 10*time.Second, OnTopRule, rand.New(rand.NewPCG(26, 2)))
		if err != nil {
			t.Fatal(err)
		}
		per := PerSecond(waits)
		for s := 0; s < 30; s++ {
			if per[s] != 0 {
				t.Fatalf("%d clients back in second %d, before Retry-After", per[s], s)
			}
		}
		// Binomial(10,000, 0.1) per second: mean 1,000, sd 30; ±100 is over 3 sd.
		total := 0
		for s := 30; s < 40; s++ {
			if per[s] < 900 || per[s] > 1100 {
				t.Errorf("second %d: %d clients, want about 1,000 (900..1,100)", s, per[s])
			}
			total += per[s]
		}
		if total != n {
			t.Errorf("%d of %d clients back within [30 s, 40 s)", total, n)
		}
		t.Logf("clients per second from 30 s: %v", per[30:])
	})
}

// TestE26_AdaptiveThrottle (CONTRACT.md E26): a client that attempted 1,000
// requests of which the backend accepted 400 drops a new one, with K = 2,
// with probability (1000 − 2·400)/(1000 + 1) = 200/1001 ≈ 0.20.
func TestE26_AdaptiveThrottle(t *testing.T) {
	th, err := NewThrottle(2, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	now := core.Epoch.Add(time.Hour)
	rnd := rand.New(rand.NewPCG(26, 3))
	for i := range 1000 {
		// The first 400 are accepted; the other 600 are rejected by the
		// backend or dropped by the throttle itself: both are attempts.
		if th.Allow(now, rnd.Float64()) && i < 400 {
			th.Accepted(now)
		} else if i < 400 {
			t.Fatalf("request %d dropped while the backend accepted everything (P %v)", i, th.P(now))
		}
	}
	if p, want := th.P(now), 200.0/1001; math.Abs(p-want) > 1e-12 {
		t.Fatalf("P = %v, want 200/1001 = %v", p, want)
	}
	if p := th.P(time.Unix(-1e6, 0)); p != 0 {
		t.Errorf("P before 1970 = %v, want 0 (and no panic)", p)
	}
	if p := th.P(now.Add(2 * time.Minute)); p != 0 {
		t.Errorf("P two minutes later = %v, want 0: the history has left the window", p)
	}
}

// TestThrottleSendsAboutKTimesAccepts: a client attempts 1,000 requests a
// minute against a backend that accepts 400 a minute. Without a throttle the
// backend receives all 1,000 and rejects 600; with K = 2 it receives about
// 800 (2 × 400), with K = 1.1 about 440.
func TestThrottleSendsAboutKTimesAccepts(t *testing.T) {
	for _, c := range []struct {
		k    float64 // 0: no throttle
		sent float64 // per minute, steady state
	}{{0, 1000}, {2, 800}, {1.1, 440}} {
		var th *Throttle
		if c.k > 0 {
			th, _ = NewThrottle(c.k, 2*time.Minute)
		}
		rnd := rand.New(rand.NewPCG(26, 4))
		sent := 0
		const minutes = 30
		for m := range minutes {
			quota := 400
			for i := range 1000 {
				now := core.Epoch.Add(time.Duration(m)*time.Minute + time.Duration(i)*60*time.Millisecond)
				if th != nil && !th.Allow(now, rnd.Float64()) {
					continue
				}
				if m >= 10 {
					sent++
				}
				if quota > 0 {
					quota--
					if th != nil {
						th.Accepted(now)
					}
				}
			}
		}
		perMin := float64(sent) / (minutes - 10)
		if math.Abs(perMin-c.sent) > 0.05*c.sent {
			t.Errorf("K = %v: backend receives %.0f per minute, want about %.0f", c.k, perMin, c.sent)
		}
		t.Logf("K = %v: %.0f sent per minute, 400 accepted", c.k, perMin)
	}
}

// TestRetryBudget: 1,000 requests that all fail, each wanting up to 3
// retries. Unbudgeted that is 4,000 attempts on a backend already failing;
// a 10 % budget allows exactly 100 retries, 1,100 attempts in all.
func TestRetryBudget(t *testing.T) {
	b, err := NewRetryBudget(0.1, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	now := core.Epoch.Add(time.Hour)
	retries := 0
	for range 1000 {
		b.Request(now)
		for range 3 {
			if b.Retry(now) {
				retries++
			}
		}
	}
	if retries != 100 {
		t.Errorf("%d retries allowed, want 100 (10%% of 1,000)", retries)
	}
	if b.Retry(now.Add(time.Minute)) {
		t.Error("a minute on the window is empty: with no requests in it, no retry fits")
	}
}

// TestThrottleConcurrent: Allow and Accepted from many goroutines (run with
// -race) count every call.
func TestThrottleConcurrent(t *testing.T) {
	th, _ := NewThrottle(2, time.Minute)
	now := core.Epoch.Add(time.Hour)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				th.Allow(now, 0.999)
				th.Allow(now, 0.999)
				th.Allow(now, 0.999)
				th.Accepted(now)
			}
		}()
	}
	wg.Wait()
	if p, want := th.P(now), (2400-2*800)/2401.0; p != want {
		t.Errorf("P after 2,400 requests and 800 accepts = %v, want %v", p, want)
	}
}

func TestE26BadParams(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		err   error
		param string
	}{
		{second(Herd(0, time.Second, time.Second, OnTopRule, rnd)), "clients"},
		{second(Herd(10, -1, time.Second, OnTopRule, rnd)), "retry after and spread"},
		{second(NewThrottle(0.5, time.Minute)), "k"},
		{second(NewThrottle(math.NaN(), time.Minute)), "k"},
		{second(NewThrottle(2, 9)), "window"},
		{second(NewRetryBudget(0, time.Minute)), "ratio"},
		{second(NewRetryBudget(1.5, time.Minute)), "ratio"},
		{second(NewRetryBudget(0.1, 0)), "window"},
	} {
		if !isParam(c.err, c.param) {
			t.Errorf("%v: want a ParamError naming %s", c.err, c.param)
		}
	}
}

func second[T any](_ T, err error) error { return err }
