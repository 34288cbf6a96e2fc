package overload

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestE29_AIMD (CONTRACT.md E29): from 20, +1 per clean window and × 0.9 on a
// timeout: 30 after ten clean windows, 27 after one timeout.
func TestE29_AIMD(t *testing.T) {
	a, err := NewAIMD(AIMDConfig{Initial: 20, Min: 1, Max: 1000, Backoff: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		a.Update(false)
	}
	if a.Limit() != 30 {
		t.Fatalf("after ten clean windows: %d, want 30", a.Limit())
	}
	if got := a.Update(true); got != 27 {
		t.Errorf("after a timeout: %d, want 27 (30 × 0.9)", got)
	}
}

// TestE29_Gradient (CONTRACT.md E29): limit 100, no-load RTT 10 ms, current
// 20 ms, queue 4: 100 × 10/20 + 4 = 54. The ratio is clamped to [0.5, 1]: at
// 40 ms it is still 0.5 (one slow sample cannot cut more than half), and at
// or below the no-load RTT the limit grows by the queue allowance.
func TestE29_Gradient(t *testing.T) {
	for _, c := range []struct {
		current time.Duration
		want    float64
	}{
		{20 * time.Millisecond, 54},    // the worked example
		{40 * time.Millisecond, 54},    // 10/40 = 0.25 clamps to 0.5
		{12500 * time.Microsecond, 84}, // 10/12.5 = 0.8
		{10 * time.Millisecond, 104},   // no queueing: grow by the allowance
		{5 * time.Millisecond, 104},    // faster than no-load (a new minimum): ratio 1
	} {
		got, err := Gradient(100, 10*time.Millisecond, c.current, 4)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("current %v: %v, want %v", c.current, got, c.want)
		}
	}
}

// TestAIMDFindsCapacity: a dependency that times out whenever more than 25
// requests are in flight. AIMD from 20 climbs to 26, is cut to 23 and then
// saws between 23 and 26 for good: it settles around the capacity without
// being told it.
func TestAIMDFindsCapacity(t *testing.T) {
	const capacity = 25
	a, err := NewAIMD(AIMDConfig{Initial: 20, Min: 1, Max: 1000, Backoff: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewInFlight(a.Limit())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 1000, 0
	for w := range 200 {
		// One window: fill every slot the limit allows.
		n := 0
		for n <= 1000 && l.Acquire().Allowed { // 1000 is Max: more is a bug
			n++
		}
		for range n {
			l.Release()
		}
		if err := l.SetLimit(a.Update(n > capacity)); err != nil {
			t.Fatal(err)
		}
		if w >= 10 {
			lo, hi = min(lo, a.Limit()), max(hi, a.Limit())
		}
	}
	if lo != 23 || hi != 26 {
		t.Errorf("after warm-up the limit ranges over [%d, %d], want [23, 26]", lo, hi)
	}
}

// TestAIMDStaysInBounds: on any sequence of outcomes the limit stays in [Min, Max].
func TestAIMDStaysInBounds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(29, 29))
	for range 200 {
		c := AIMDConfig{Min: 1 + rnd.IntN(10), Backoff: 0.05 + 0.9*rnd.Float64()}
		c.Max = c.Min + rnd.IntN(50)
		c.Initial = c.Min + rnd.IntN(c.Max-c.Min+1)
		a, err := NewAIMD(c)
		if err != nil {
			t.Fatal(err)
		}
		for range 500 {
			if got := a.Update(rnd.IntN(4) == 0); got < c.Min || got > c.Max {
				t.Fatalf("%+v: limit %d out of bounds", c, got)
			}
		}
	}
}

func TestAdaptiveBadParams(t *testing.T) {
	for _, c := range []struct {
		cfg   AIMDConfig
		param string
	}{
		{AIMDConfig{Initial: 1, Min: 1, Max: 0, Backoff: 0.9}, "max"},
		{AIMDConfig{Initial: 5, Min: 0, Max: 10, Backoff: 0.9}, "min"},
		{AIMDConfig{Initial: 11, Min: 1, Max: 10, Backoff: 0.9}, "initial"},
		{AIMDConfig{Initial: 5, Min: 1, Max: 10, Backoff: 1}, "backoff"},
	} {
		if _, err := NewAIMD(c.cfg); !isParam(err, c.param) {
			t.Errorf("%+v: %v, want a ParamError naming %s", c.cfg, err, c.param)
		}
	}
	if _, err := Gradient(100, 0, time.Millisecond, 4); !isParam(err, "rtt") {
		t.Errorf("no-load RTT 0: %v", err)
	}
	if _, err := Gradient(0, time.Millisecond, time.Millisecond, 4); !isParam(err, "limit") {
		t.Errorf("limit 0: %v", err)
	}
	if _, err := Gradient(10, time.Millisecond, time.Millisecond, -1); !isParam(err, "queue") {
		t.Errorf("queue -1: %v", err)
	}
}

// TestAIMDRoundsDownAndKeepsMin: the cut rounds down (25 × 0.9 = 22.5 is
// 22, not 23), and a cut to 0 (1 × 0.5) is lifted back to Min.
func TestAIMDRoundsDownAndKeepsMin(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  AIMDConfig
		want int
	}{
		{"25 × 0.9 rounds down", AIMDConfig{Initial: 25, Min: 1, Max: 100, Backoff: 0.9}, 22},
		{"29 × 0.5 rounds down", AIMDConfig{Initial: 29, Min: 1, Max: 100, Backoff: 0.5}, 14},
		{"1 × 0.5 is lifted to Min", AIMDConfig{Initial: 1, Min: 1, Max: 100, Backoff: 0.5}, 1},
		{"10 × 0.5 stops at Min 8", AIMDConfig{Initial: 10, Min: 8, Max: 100, Backoff: 0.5}, 8},
	} {
		a, err := NewAIMD(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := a.Update(true); got != c.want || a.Limit() != c.want {
			t.Errorf("%s: Update(true) = %d, Limit() = %d, want %d", c.name, got, a.Limit(), c.want)
		}
	}
	a, err := NewAIMD(AIMDConfig{Initial: 10, Min: 1, Max: 10, Backoff: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Update(false); got != 10 {
		t.Errorf("a clean window at Max 10: %d, want 10", got)
	}
}

// TestGradientRefusesWhatTheStubNames: each bad input is a ParamError
// naming its parameter, checked in the stub's order; a NaN limit or queue
// fails (a NaN compares false with everything, so limit < 1 lets it
// through), and so does a round-trip time of 0 on either side, with the
// durations as the value.
func TestGradientRefusesWhatTheStubNames(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name            string
		limit           float64
		noLoad, current time.Duration
		queue           float64
		param, value    string
	}{
		{"NaN limit", math.NaN(), ms, ms, 4, "limit", ""},
		{"limit 0", 0, ms, ms, 4, "limit", ""},
		{"limit above 1e9", 2e9, ms, ms, 4, "limit", ""},
		{"limit first", math.NaN(), 0, ms, -1, "limit", ""},
		{"no-load RTT 0", 100, 0, ms, 4, "rtt", "0s"},
		{"current RTT 0", 100, ms, 0, 4, "rtt", "0s"},
		{"negative RTT", 100, -ms, ms, 4, "rtt", "-1ms"},
		{"NaN queue", 100, ms, ms, math.NaN(), "queue", ""},
		{"queue -1", 100, ms, ms, -1, "queue", ""},
	} {
		_, err := Gradient(c.limit, c.noLoad, c.current, c.queue)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: %v, want a *core.ParamError naming %q", c.name, err, c.param)
			continue
		}
		if c.value != "" && !strings.Contains(pe.Value, c.value) {
			t.Errorf("%s: the error's value is %q, want the offending duration %s in it", c.name, pe.Value, c.value)
		}
	}
}
