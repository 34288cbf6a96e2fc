package core

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// Clock is the course's one clock for code that waits: what time it is, and
// a timer that fires after a while. Limiters take their time as an argument
// (now), so they need no clock; the parts that wait on a deadline (chapter
// 06's Guard and PrefetchNode) take a Clock, so that a test steps time
// instead of sleeping through it.
//
// It is the part of clockwork.Clock (github.com/jonboulle/clockwork) the
// course uses, so clockwork's real clock and its FakeClock both satisfy it.
// The fake is the reason for the library: FakeClock.BlockUntilContext waits
// until the code under test has set its timers, and Advance then fires the
// ones due, which is what a test needs to step time without a race.
//
// A deadline handed to a network client stays on real time whatever the
// Clock: go-redis turns a context's deadline into the socket's, and a fake
// clock cannot make a socket time out.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) clockwork.Timer
}

// RealClock is the wall clock: time.Now and time.NewTimer.
func RealClock() Clock { return clockwork.NewRealClock() }

// NowClock is a Clock that reads the time from now and runs its timers on
// real time: for a caller that has only a time function (chapter 10's
// service option Now). nil now means the wall clock.
func NowClock(now func() time.Time) Clock {
	if now == nil {
		return RealClock()
	}
	return nowClock{Clock: clockwork.NewRealClock(), now: now}
}

type nowClock struct {
	clockwork.Clock
	now func() time.Time
}

func (c nowClock) Now() time.Time { return c.now() }
