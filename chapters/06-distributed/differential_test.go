//go:build !exercise

// Not under the plain exercise tag: it swaps chapters 02–04 for their stubs.
// `make exercise CH=06` uses the exercise06 tag, and runs the token bucket's
// pairs against chapter 04's real bucket.

package distributed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// request is one arrival of a replayed sequence: ms after base, and its cost.
type request struct {
	at   int64
	cost int
}

// sequence draws n arrivals with gaps up to maxGap ms (many zero: bursts in
// one millisecond) and costs from 1 to maxCost.
func sequence(r *rand.Rand, n int, maxGap int64, maxCost int) []request {
	seq := make([]request, n)
	at := int64(r.IntN(3000))
	for i := range seq {
		if r.IntN(3) > 0 {
			at += r.Int64N(maxGap + 1)
		}
		seq[i] = request{at: at, cost: 1 + r.IntN(maxCost)}
	}
	return seq
}

// withLateTimes copies seq and makes some requests late: stamped up to
// maxGap ms before the request in front of them, as from a node whose clock
// is behind or a request delayed in flight.
func withLateTimes(r *rand.Rand, seq []request, maxGap int64) []request {
	out := append([]request(nil), seq...)
	for i := 1; i < len(out); i++ {
		if r.IntN(5) == 0 {
			out[i].at = max(0, out[i-1].at-r.Int64N(maxGap+1))
		}
	}
	return out
}

// pair is one algorithm and configuration on both sides: the Redis script
// and a factory for the in-memory limiter of its chapter.
type pair struct {
	name    string
	redis   decider
	memory  func() core.Algorithm
	maxCost int
	maxGap  int64
	// keyLife is the least real time the script keeps a key after a write
	// (its TTL is at least this), or 0 if no figure is given. Expiry runs on
	// the server's clock while the replay runs on explicit times, so a
	// replay that stalls this long (the race detector on a loaded machine)
	// may find its key gone: compare replays it afresh then.
	keyLife time.Duration
}

// differentialPairs lists every pair; under the exercise06 tag only the
// token bucket's, the one script the learner writes.
func differentialPairs(rdb redis.Scripter) []pair {
	var pairs []pair
	if !learnerScript {
		pairs = windowPairs(rdb)
	}
	for _, b := range []buckets.Config{{Capacity: 3, Rate: 2}, {Capacity: 10, Rate: 5}, {Capacity: 6, Rate: 0.5},
		{Capacity: 3, Rate: 3}, {Capacity: 7, Rate: 30}} {
		bc := buckets.Config{Capacity: b.Capacity, Rate: b.Rate}
		gap := int64(2000 / b.Rate)
		pairs = append(pairs, pair{fmt.Sprintf("token-bucket/C=%d,R=%g", b.Capacity, b.Rate), ok(NewTokenBucket(rdb, b)),
			func() core.Algorithm { return ok(buckets.NewTokenBucket(bc)) }, b.Capacity, gap, 0})
		if !learnerScript {
			// Whole and fractional emission intervals (R = 3: T = 333.33… ms).
			pairs = append(pairs, pair{fmt.Sprintf("gcra/C=%d,R=%g", b.Capacity, b.Rate), ok(NewGCRA(rdb, b)),
				func() core.Algorithm { return ok(buckets.NewGCRA(bc)) }, b.Capacity, gap, 0})
		}
	}
	return pairs
}

// windowPairs are the window algorithms' pairs.
func windowPairs(rdb redis.Scripter) []pair {
	var pairs []pair
	for _, w := range []sliding.Config{
		{Window: time.Second, Limit: 3},
		{Window: time.Second, Limit: 10},
		// Not 250 ms: expiry runs on the server's clock, and a replay that
		// stalls for a window's width (the race detector on a loaded machine,
		// a container's port proxy) finds its key gone and a fresh window.
		{Window: 2500 * time.Millisecond, Limit: 5},
	} {
		fw, sl := fixedwindow.Config{Window: w.Window, Limit: w.Limit}, w
		pairs = append(pairs,
			pair{fmt.Sprintf("fixed-window/W=%v,L=%d", w.Window, w.Limit), ok(NewFixedWindow(rdb, fw)),
				func() core.Algorithm { return ok(fixedwindow.New(fw)) }, w.Limit, w.Window.Milliseconds() / 4, 0},
			pair{fmt.Sprintf("sliding-log/W=%v,L=%d", w.Window, w.Limit), ok(NewSlidingLog(rdb, sl)),
				func() core.Algorithm { return ok(sliding.NewLog(sl)) }, w.Limit, w.Window.Milliseconds() / 4, 0},
		)
		for _, n := range []int{1, 5, 10} { // sub-windows of whole ms
			sc := sliding.Config{Window: w.Window, Limit: w.Limit, SubWindows: n}
			pairs = append(pairs, pair{fmt.Sprintf("sliding-counter/W=%v,L=%d,N=%d", w.Window, w.Limit, n),
				ok(NewSlidingCounter(rdb, sc)),
				func() core.Algorithm { return ok(sliding.NewCounter(sc)) }, w.Limit, w.Window.Milliseconds() / 4, w.Window})
		}
	}
	return pairs
}

// compare replays seq on both sides of p under a fresh identity and fails t at
// the first difference. It returns how many requests were allowed. A
// difference found after the replay stalled past p.keyLife says nothing
// about the script (its key may have expired): the replay runs again under
// a fresh identity, up to staleReplays times.
func compare(t *testing.T, rdb redis.Scripter, p pair, seq []request, label string) int {
	t.Helper()
	for range staleReplays - 1 {
		allowed, err := firstMismatch(p, redistest.ID(t), seq, label)
		if !errors.Is(err, errStalled) {
			require.NoError(t, err)
			return allowed
		}
		t.Logf("replayed afresh: %v", err)
	}
	allowed, err := firstMismatch(p, redistest.ID(t), seq, label)
	require.NoError(t, err)
	return allowed
}

// staleReplays is how many times compare replays a sequence that stalled.
const staleReplays = 5

// errStalled marks a difference found after the replay stalled for its
// pair's keyLife: the key may have expired on the server's clock.
var errStalled = errors.New("the replay stalled past the key's life")

// historyShown is how many requests before a mismatch its report shows.
const historyShown = 8

// firstMismatch replays seq on both sides of p for id and returns how many
// requests were allowed, or an error at the first difference: the decision,
// the remaining count or the retry delay (the script's is in whole ms, never
// earlier than a permit). The error shows the requests that led there, with
// their times, costs and decisions, and marks the late ones, so that a
// learner need not rebuild the random sequence to see why.
func firstMismatch(p pair, id string, seq []request, label string) (int, error) {
	ctx := context.Background()
	mem := p.memory()
	allowed := 0
	var latest int64 = -1 << 62
	type step struct {
		q      request
		latest int64 // the latest time the key had seen before q
		d      core.Decision
	}
	var steps []step
	var lastWrite time.Time // real time before the latest call that wrote (was allowed)
	stalled := ""
	for i, q := range seq {
		now := time.UnixMilli(base + q.at)
		want := mem.AllowN(now, q.cost)
		called := time.Now()
		got, err := p.redis.AllowNAt(ctx, id, now, q.cost)
		if since := time.Since(lastWrite); stalled == "" && p.keyLife > 0 && !lastWrite.IsZero() && since >= p.keyLife {
			stalled = fmt.Sprintf("%v after a write at request %d", since.Round(time.Millisecond), i+1)
		}
		if got.Allowed {
			lastWrite = called
		}
		if err != nil {
			return allowed, fmt.Errorf("%s, request %d (t=%d ms, cost %d): %w", label, i+1, q.at, q.cost, err)
		}
		var what string
		switch {
		case want.Allowed != got.Allowed:
			what = "allowed"
		case want.Remaining != got.Remaining:
			what = "remaining"
		case got.RetryAfter < want.RetryAfter-time.Microsecond || got.RetryAfter >= want.RetryAfter+time.Millisecond:
			what = "retry after (want the in-memory value rounded up to whole ms)"
		}
		if what != "" {
			var b strings.Builder
			fmt.Fprintf(&b, "%s, %s: %s differs at request %d (t=%d ms after base, cost %d%s)\n", p.name, label, what, i+1, q.at,
				q.cost, lateNote(q.at, latest))
			fmt.Fprintf(&b, "  in memory: %s\n  script:    %s\n", decision(want), decision(got))
			first := max(0, len(steps)-historyShown)
			fmt.Fprintf(&b, "  the %d requests before it, as both sides decided them:\n", len(steps)-first)
			for j := first; j < len(steps); j++ {
				s := steps[j]
				fmt.Fprintf(&b, "    #%d t=%d cost %d%s: %s\n", j+1, s.q.at, s.q.cost, lateNote(s.q.at, s.latest), decision(s.d))
			}
			if stalled != "" {
				return allowed, fmt.Errorf("%w (%s, key life %v): %s", errStalled, stalled, p.keyLife, b.String())
			}
			return allowed, fmt.Errorf("%s", b.String())
		}
		steps = append(steps, step{q, latest, got})
		latest = max(latest, q.at)
		if got.Allowed {
			allowed++
		}
	}
	return allowed, nil
}

// lateNote marks a request stamped before the latest time its key had seen.
func lateNote(at, latest int64) string {
	if at >= latest {
		return ""
	}
	return fmt.Sprintf(", late: %d ms behind t=%d, decided at t=%d", latest-at, latest, latest)
}

// decision writes a decision on one line.
func decision(d core.Decision) string {
	if d.Allowed {
		return fmt.Sprintf("allowed, remaining %d", d.Remaining)
	}
	return fmt.Sprintf("rejected, remaining %d, retry after %v", d.Remaining, d.RetryAfter)
}

// flipped is an in-memory limiter dressed as a script that gets one
// decision wrong, the flip-th, to test the differential's own report.
type flipped struct {
	a     core.Algorithm
	flip  int
	calls *int
}

func (f flipped) AllowNAt(_ context.Context, _ string, now time.Time, cost int) (core.Decision, error) {
	d := f.a.AllowN(now, cost)
	if *f.calls++; *f.calls == f.flip {
		d.Allowed, d.RetryAfter = !d.Allowed, 0
	}
	return d, nil
}
func (f flipped) AllowN(context.Context, string, int) (core.Decision, error) {
	return core.Decision{}, fmt.Errorf("flipped needs a time")
}

// TestDifferentialMismatchShowsHistory: when the two sides differ, the
// report names the request, both decisions, and the requests before it with
// their times, costs and decisions, the late ones marked. Before, it said
// "request 53 expected 1 actual 0" and nothing else, and a learner had to
// rebuild the random sequence to learn that request 52 was later.
func TestDifferentialMismatchShowsHistory(t *testing.T) {
	bucket := func() core.Algorithm { return ok(buckets.NewTokenBucket(buckets.Config{Capacity: 3, Rate: 2})) }
	p := pair{name: "token-bucket/C=3,R=2", redis: flipped{bucket(), 5, new(int)}, memory: bucket}
	seq := []request{{0, 1}, {10, 1}, {400, 1}, {20, 1}, {30, 1}, {40, 1}}
	_, err := firstMismatch(p, "x", seq, "seed 9")
	require.Error(t, err)
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{
		"token-bucket/C=3,R=2, seed 9: allowed differs at request 5 (t=30 ms after base, cost 1, late: 370 ms behind t=400, decided at t=400)",
		"in memory: rejected, remaining 0, retry after 470ms",
		"script:    allowed, remaining 0",
		"the 4 requests before it",
		"#1 t=0 cost 1: allowed, remaining 2",
		"#3 t=400 cost 1: allowed, remaining 0",
		"#4 t=20 cost 1, late: 380 ms behind t=400, decided at t=400: rejected, remaining 0, retry after 480ms",
	} {
		require.Contains(t, msg, want)
	}
}

// TestDifferentialAgainstMemory replays the same random sequences through each
// Redis script (explicit times) and through the in-memory limiter of chapters
// 02–04. Decisions and remaining permits must be identical; RetryAfter must
// be the in-memory value rounded up to the script's whole milliseconds.
func TestDifferentialAgainstMemory(t *testing.T) {
	rdb := redistest.Client(t)
	for _, p := range differentialPairs(rdb) {
		t.Run(p.name, func(t *testing.T) {
			allowed, total := 0, 0
			for seed := uint64(1); seed <= 4; seed++ {
				r := rand.New(rand.NewPCG(seed, 6))
				maxCost := 1
				if seed%2 == 0 {
					maxCost = p.maxCost // weighted requests on even seeds
				}
				seq := sequence(r, 150, p.maxGap, maxCost)
				allowed += compare(t, rdb, p, seq, fmt.Sprintf("seed %d", seed))
				total += len(seq)
			}
			require.Greater(t, allowed, 0)
			require.Less(t, allowed, total, "the sequences should exercise rejections too")
			t.Logf("%d of %d allowed, identical on both sides", allowed, total)
		})
	}
}

// TestDifferentialLateTimes: the same comparison with some requests stamped
// earlier than one the key has already seen. Like chapters 02–04, the scripts
// decide such a request at the latest time the key has seen, so decisions and
// remaining permits stay identical; the retry delay is never earlier than
// the in-memory one and counts from the caller's own time.
func TestDifferentialLateTimes(t *testing.T) {
	rdb := redistest.Client(t)
	for _, p := range differentialPairs(rdb) {
		t.Run(p.name, func(t *testing.T) {
			late := 0
			for seed := uint64(1); seed <= 4; seed++ {
				r := rand.New(rand.NewPCG(seed, 7))
				maxCost := 1
				if seed%2 == 0 {
					maxCost = p.maxCost
				}
				seq := withLateTimes(r, sequence(r, 150, p.maxGap, maxCost), 2*p.maxGap)
				for i := 1; i < len(seq); i++ {
					if seq[i].at < seq[i-1].at {
						late++
					}
				}
				compare(t, rdb, p, seq, fmt.Sprintf("seed %d", seed))
			}
			require.Greater(t, late, 50, "the sequences should hold late requests")
		})
	}
}

// FuzzScriptsMatchMemory: any sequence, any of the configurations above, the
// script and the in-memory limiter agree. The first byte picks the pair; then
// each two bytes are a gap (ms, scaled to the pair's range) and a cost.
func FuzzScriptsMatchMemory(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 1, 0, 1, 0, 1})
	f.Add([]byte{7, 10, 3, 0, 2, 200, 1, 0, 9, 3, 1})
	f.Add([]byte{17, 0, 1, 0, 1, 0, 1, 5, 1, 5, 1})
	f.Add([]byte{22, 0, 3, 1, 1, 255, 2, 0, 1, 0, 1, 100, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		rdb := redistest.Client(t)
		pairs := differentialPairs(rdb)
		p := pairs[int(data[0])%len(pairs)]
		var seq []request
		at := int64(0)
		for i := 1; i+1 < len(data) && len(seq) < 64; i += 2 {
			at += int64(data[i]) * p.maxGap / 255
			seq = append(seq, request{at: at, cost: 1 + int(data[i+1])%p.maxCost})
		}
		compare(t, rdb, p, seq, p.name)
	})
}

// TestSlidingLogManyEntries: a log holding hundreds of entries of mixed
// costs, where a large request has to wait for many small ones to leave.
// Its retry delay comes from the running sums stored in the entries (a
// binary search); the chapter 03 log walks its entries. Both must agree.
func TestSlidingLogManyEntries(t *testing.T) {
	if learnerScript {
		t.Skip("the exercise replaces the token bucket only")
	}
	rdb := redistest.Client(t)
	w := sliding.Config{Window: time.Second, Limit: 300}
	p := pair{"sliding-log/L=300", ok(NewSlidingLog(rdb, w)),
		func() core.Algorithm { return ok(sliding.NewLog(w)) }, w.Limit, 3, 0}
	r := rand.New(rand.NewPCG(11, 3))
	seq := make([]request, 3000)
	at := int64(0)
	for i := range seq {
		at += r.Int64N(4)
		cost := 1
		if r.IntN(10) == 0 {
			cost = 1 + r.IntN(w.Limit)
		}
		seq[i] = request{at: at, cost: cost}
	}
	allowed := compare(t, rdb, p, seq, p.name)
	require.Greater(t, allowed, 300)
	require.Less(t, allowed, len(seq)-300)
	t.Logf("%d of %d allowed, identical on both sides", allowed, len(seq))
}

// TestSlidingCounterFractionalSubWindows: the Redis sliding counter takes
// every sub-window the in-memory counter takes, whole milliseconds or not
// (W = 250 ms, N = 4 is 62.5 ms, as are 2.5 s / 40 and 1 s / 16; 999 ms / 8
// is 124.875 ms), and decides as it does, late requests included. Before, it
// refused them ("a divisor of 250"), though the scripts had taken them once
// and chapter 03 does. (The windows are long enough that a stalled replay
// keeps its key: expiry runs on the server's clock, and a 250 ms window's
// state is gone after a 250 ms pause; TestConfigsRefuseWhatChaptersRefuse
// takes 250 ms / 4.) A replay that stalls a window's width anyway is run
// afresh (compare, keyLife): the script's key lives at least W.
func TestSlidingCounterFractionalSubWindows(t *testing.T) {
	rdb := redistest.Client(t)
	for _, w := range []sliding.Config{
		{Window: 2500 * time.Millisecond, Limit: 5, SubWindows: 40},
		{Window: 2500 * time.Millisecond, Limit: 7, SubWindows: 80},
		{Window: time.Second, Limit: 10, SubWindows: 16},
		{Window: 999 * time.Millisecond, Limit: 6, SubWindows: 8},
		{Window: 1001 * time.Millisecond, Limit: 4, SubWindows: 1000},
	} {
		name := fmt.Sprintf("W=%v,L=%d,N=%d", w.Window, w.Limit, w.SubWindows)
		l, err := NewSlidingCounter(rdb, w)
		require.NoError(t, err, name)
		p := pair{"sliding-counter/" + name, l, func() core.Algorithm { return ok(sliding.NewCounter(w)) },
			w.Limit, max(1, w.Window.Milliseconds()/4), w.Window}
		for seed := uint64(1); seed <= 4; seed++ {
			r := rand.New(rand.NewPCG(seed, 8))
			seq := sequence(r, 200, p.maxGap, 1+int(seed%2)*(w.Limit-1))
			compare(t, rdb, p, seq, name+fmt.Sprintf(", seed %d", seed))
			compare(t, rdb, p, withLateTimes(r, seq, 2*p.maxGap), name+fmt.Sprintf(", seed %d, late", seed))
		}
	}
}
