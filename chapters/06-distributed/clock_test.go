package distributed

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// newFakeClock is a clock that moves only when a test steps it (Advance).
// The Guard and the PrefetchNode set their deadlines on it, so a test
// decides when a deadline passes instead of sleeping through it.
func newFakeClock() *clockwork.FakeClock {
	return clockwork.NewFakeClockAt(time.UnixMilli(1_700_000_000_000))
}

// hang is how long a test waits for something that should come at once
// before it calls it a hang: a limit, never a measurement.
const hang = 20 * time.Second

// goCall runs call on a goroutine of its own; the channel closes when it
// has returned.
func goCall(call func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	return done
}

// waitTimers waits until n timers are set on clk: the code under test is
// waiting on its deadline.
func waitTimers(t testing.TB, clk *clockwork.FakeClock, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	if err := clk.BlockUntilContext(ctx, n); err != nil {
		t.Fatalf("no %d timers set on the fake clock within %v: %v", n, hang, err)
	}
}

// stepUntilDone steps clk by step each time the call behind done is
// waiting on its timer, and returns how far the clock moved before the
// call returned: when a call waits only for its timers, that is exactly
// when it gave up.
func stepUntilDone(t testing.TB, clk *clockwork.FakeClock, step time.Duration, done <-chan struct{}) time.Duration {
	t.Helper()
	var moved time.Duration
	for {
		ctx, cancel := context.WithTimeout(context.Background(), hang)
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := clk.BlockUntilContext(ctx, 1)
		cancel()
		select {
		case <-done:
			return moved
		default:
		}
		if err != nil {
			t.Fatalf("after %v on the fake clock the call neither returned nor set a timer within %v", moved, hang)
		}
		clk.Advance(step)
		moved += step
	}
}
