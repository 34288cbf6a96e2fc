package overload

import (
	"math/rand/v2"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// trace is a seeded Poisson stream: rate per second for span, from an hour
// after the epoch.
func trace(seed uint64, rate float64, span time.Duration) []time.Time {
	rnd := rand.New(rand.NewPCG(seed, 31))
	var out []time.Time
	for at := time.Duration(0); ; {
		at += time.Duration(rnd.ExpFloat64() / rate * 1e9)
		if at >= span {
			return out
		}
		out = append(out, core.Epoch.Add(time.Hour+at))
	}
}

// TestE31_ShadowMode (CONTRACT.md E31): on a seeded trace (8 requests per
// second for a minute against a bucket of 10 refilled at 5/s), the limiter in
// shadow mode serves every request and marks as would-reject exactly the
// requests it rejects when enforcing, one for one.
func TestE31_ShadowMode(t *testing.T) {
	cfg := buckets.Config{Capacity: 10, Rate: 5}
	arrivals := trace(31, 8, time.Minute)
	newBucket := func() core.Algorithm { b, _ := buckets.NewTokenBucket(cfg); return b }
	shadow, enforce := NewShadow(newBucket(), false), NewShadow(newBucket(), true)
	served := 0
	for i, at := range arrivals {
		before := shadow.WouldReject
		s, e := shadow.AllowN(at, 1), enforce.AllowN(at, 1)
		if s.Allowed {
			served++
		}
		if wouldReject := shadow.WouldReject > before; wouldReject == e.Allowed || s.Remaining != e.Remaining {
			t.Fatalf("request %d at %v: shadow %+v (would-reject %v), enforce %+v", i, at, s, wouldReject, e)
		}
	}
	if served != len(arrivals) {
		t.Errorf("shadow served %d of %d", served, len(arrivals))
	}
	// At most 10 + 5 × 60 = 310 can pass in a minute, so at least
	// len(arrivals) − 310 are rejected; shadow counts the same number.
	if min := len(arrivals) - 310; enforce.Rejected < min || shadow.WouldReject != enforce.Rejected {
		t.Errorf("enforce rejected %d (want at least %d), shadow would-reject %d (want equal)",
			enforce.Rejected, min, shadow.WouldReject)
	}
	if shadow.Rejected != 0 || enforce.WouldReject != 0 {
		t.Errorf("shadow rejected %d, enforce would-reject %d; want 0 and 0", shadow.Rejected, enforce.WouldReject)
	}
	t.Logf("%d requests, %d would-rejects = %d rejects", len(arrivals), shadow.WouldReject, enforce.Rejected)
}

// TestE31_NearLimit (CONTRACT.md E31): a bucket of 100 refilled at 10/s and a
// key sending 20/s (every 50 ms). Request n leaves 99 − n/2 tokens, so from
// request 179 (at 8.95 s, 9.5 tokens) the key has under 10 % left; with a
// hold of 30 s the signal fires at 38.95 s, once.
func TestE31_NearLimit(t *testing.T) {
	b, _ := buckets.NewTokenBucket(buckets.Config{Capacity: 100, Rate: 10})
	n, err := NewNearLimit(100, 0.1, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var fired []time.Duration
	for at := time.Duration(0); at < 2*time.Minute; at += 50 * time.Millisecond {
		now := core.Epoch.Add(time.Hour + at)
		if n.Observe(now, b.AllowN(now, 1)) {
			fired = append(fired, at)
		}
	}
	if len(fired) != 1 || fired[0] != 38950*time.Millisecond {
		t.Errorf("fired at %v, want once at 38.95s", fired)
	}
}

// TestNearLimitEpisodes: a dip shorter than the hold does not fire; a long
// one fires once; recovering re-arms it.
func TestNearLimitEpisodes(t *testing.T) {
	n, _ := NewNearLimit(100, 0.1, 10*time.Second)
	for _, c := range []struct {
		at        time.Duration
		remaining int
		fires     bool
	}{
		{0, 50, false},
		{1 * time.Second, 9, false},   // low from 1 s
		{10 * time.Second, 5, false},  // 9 s low
		{11 * time.Second, 10, false}, // 10 is 10 %: not under it, recovered
		{12 * time.Second, 0, false},  // low again from 12 s
		{22 * time.Second, 3, true},   // 10 s low: fires
		{30 * time.Second, 0, false},  // still low: already fired
		{31 * time.Second, 60, false}, // recovered: re-armed
		{32 * time.Second, 1, false},
		{42 * time.Second, 1, true},
	} {
		if got := n.Observe(core.Epoch.Add(time.Hour+c.at), core.Decision{Remaining: c.remaining}); got != c.fires {
			t.Errorf("at %v with %d remaining: fired %v, want %v", c.at, c.remaining, got, c.fires)
		}
	}
	for _, c := range []struct {
		err   error
		param string
	}{
		{second(NewNearLimit(0, 0.1, time.Second)), "max"},
		{second(NewNearLimit(10, 0, time.Second)), "fraction"},
		{second(NewNearLimit(10, 0.1, 0)), "hold"},
	} {
		if !isParam(c.err, c.param) {
			t.Errorf("%v: want a ParamError naming %s", c.err, c.param)
		}
	}
}

// TestShadowThroughKeyed: Shadow is a core.Algorithm, so core.Keyed runs one
// per key under concurrent use (run with -race), and a bad cost is still an
// error, never a would-reject.
func TestShadowThroughKeyed(t *testing.T) {
	k := core.NewKeyed(func() *Shadow {
		b, _ := buckets.NewTokenBucket(buckets.Config{Capacity: 3, Rate: 1})
		return NewShadow(b, false)
	})
	now := core.Epoch.Add(time.Hour)
	done := make(chan int)
	for w := range 4 {
		go func() {
			served := 0
			for range 10 {
				if d, err := k.AllowN([]string{"a", "b"}[w%2], now, 1); err == nil && d.Allowed {
					served++
				}
			}
			done <- served
		}()
	}
	total := 0
	for range 4 {
		total += <-done
	}
	if total != 40 {
		t.Errorf("shadow served %d of 40", total)
	}
	if _, err := k.AllowN("a", now, 4); !isParam(err, "cost") {
		t.Errorf("cost 4 over capacity 3: %v, want a ParamError naming cost", err)
	}
}
