package core

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// clockwork's fake satisfies Clock: tests hand it wherever a Clock goes.
var _ Clock = clockwork.NewFakeClock()

// NowClock reads the time from its function and runs real timers; nil
// means the wall clock.
func TestNowClock(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	c := NowClock(func() time.Time { return at })
	if got := c.Now(); !got.Equal(at) {
		t.Fatalf("Now() = %v, want %v", got, at)
	}
	<-c.NewTimer(0).Chan() // a real timer of 0 fires at once
	if _, ok := NowClock(nil).(nowClock); ok {
		t.Fatal("NowClock(nil) wraps a nil function; want the wall clock")
	}
}
