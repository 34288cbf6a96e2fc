package peer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// WindowBudget is the least time left in a minute to start the sequence in.
// Every rule of peer/rules counts per minute, hour or day, so the sequence
// must not cross a minute's end. It also starts 2 s past the minute's start
// and stops 2 s before its end, for a server whose clock is off by as much.
const WindowBudget = 30 * time.Second

// windowMargin is how far from either end of the minute the sequence runs.
const windowMargin = 2 * time.Second

// window says when to start the sequence and when the minute it runs in
// ends: at now, if the minute began windowMargin ago or more and has
// WindowBudget left; else windowMargin into the next minute (or into this
// one, if it has just begun).
func window(now time.Time) (start, end time.Time) {
	begin := now.Truncate(time.Minute)
	switch {
	case now.Sub(begin) < windowMargin:
		return begin.Add(windowMargin), begin.Add(time.Minute)
	case begin.Add(time.Minute).Sub(now) < WindowBudget:
		next := begin.Add(time.Minute)
		return next.Add(windowMargin), next.Add(time.Minute)
	}
	return now, begin.Add(time.Minute)
}

// WaitForWindow waits with sleep, if need be, for the start of a minute
// with WindowBudget left, saying so with say, and returns that minute's
// end, for Comparison.Run.
func WaitForWindow(now func() time.Time, sleep func(time.Duration), say func(string)) time.Time {
	t := now()
	start, end := window(t)
	if wait := start.Sub(t); wait > 0 {
		say(fmt.Sprintf("waiting %.1fs for a minute of its own", wait.Seconds()))
		sleep(wait)
	}
	return end
}

// Sequence is n requests drawn from seed on the domains named with suffix.
func Sequence(n int, seed uint64, suffix string) []Request {
	r := rand.New(rand.NewPCG(seed, 0))
	seq := make([]Request, n)
	for i := range seq {
		seq[i] = NewRequest(r, suffix)
	}
	return seq
}

// Ask is one server's ShouldRateLimit.
type Ask func(context.Context, *rls.RateLimitRequest) (*rls.RateLimitResponse, error)

// Client is c's ShouldRateLimit as an Ask.
func Client(c rls.RateLimitServiceClient) Ask {
	return func(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, error) {
		return c.ShouldRateLimit(ctx, req)
	}
}

// Exchange is one request of the sequence, both answers and where they
// differ (Diffs, empty when they agree).
type Exchange struct {
	Request
	Ours, Theirs Answer
	Diffs        []string
}

// Comparison sends a sequence to this service (Ours) and another server
// (Theirs) and compares their answers.
type Comparison struct {
	Ours, Theirs Ask
	// Other names the other server in the kinds of difference ("the
	// reference", "the target").
	Other string
	// Now is the clock the minute's end is read on.
	Now func() time.Time
}

// Run sends each request of seq to both servers at once and compares the
// answers, until seq ends or windowMargin before end (from WaitForWindow): it
// returns the exchanges made, in order.
func (c Comparison) Run(seq []Request, end time.Time) []Exchange {
	done := make([]Exchange, 0, len(seq))
	tainted := map[string]bool{} // counters one side counted and the other did not
	for _, p := range seq {
		if end.Sub(c.Now()) < windowMargin {
			break
		}
		ex := Exchange{Request: p}
		var wg sync.WaitGroup
		send := func(ask Ask, a *Answer) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			a.Resp, a.Err = ask(ctx, p.Req)
		}
		wg.Add(2)
		go send(c.Ours, &ex.Ours)
		go send(c.Theirs, &ex.Theirs)
		wg.Wait()
		if (ex.Ours.Err == nil) != (ex.Theirs.Err == nil) {
			for i := range p.Req.GetDescriptors() {
				tainted[counterOf(p.Req, i)] = true
			}
		}
		ex.Diffs = differences(p, ex.Ours, ex.Theirs, tainted, c.Other)
		done = append(done, ex)
	}
	return done
}

// Kind is one kind of difference: how often, and the index of the
// exchange it was first seen in.
type Kind struct {
	Kind           string
	Count, FirstAt int
}

// Tally counts the differences of done by kind, in the order first seen.
func Tally(done []Exchange) []Kind {
	at := map[string]int{}
	var kinds []Kind
	for i, ex := range done {
		for _, d := range ex.Diffs {
			j, seen := at[d]
			if !seen {
				j = len(kinds)
				at[d] = j
				kinds = append(kinds, Kind{Kind: d, FirstAt: i})
			}
			kinds[j].Count++
		}
	}
	return kinds
}

// Coverage is what the sequence did with one case: how many descriptors
// were built from it, and how many of those the other server answered with
// a limit and 0 remaining (the counter reached or crossed its limit).
type Coverage struct {
	Sent, Drained int
}

// Covered is the coverage of every case that done sent, by the case's name.
func Covered(done []Exchange) map[string]Coverage {
	cov := map[string]Coverage{}
	for _, ex := range done {
		for i, s := range ex.Theirs.Resp.GetStatuses() {
			c := cov[ex.Cases[i]]
			c.Sent++
			if s.GetCurrentLimit() != nil && s.GetLimitRemaining() == 0 {
				c.Drained++
			}
			cov[ex.Cases[i]] = c
		}
	}
	return cov
}
