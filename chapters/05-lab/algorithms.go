package lab

import (
	"fmt"
	"strings"
	"time"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// newStepper builds one fresh key of the named algorithm from the chapters'
// own constructors. p must be valid.
func newStepper(algo Algorithm, p Params) (stepper, error) {
	w := time.Duration(p.WindowMS) * time.Millisecond
	switch algo {
	case FixedWindow:
		a, err := fixedwindow.New(fixedwindow.Config{Window: w, Limit: p.Limit})
		return &fixedKey{a: a, p: p}, err
	case FixedWindowTTL:
		a, err := fixedwindow.NewTTL(fixedwindow.Config{Window: w, Limit: p.Limit})
		return &fixedKey{a: a, p: p, ttl: true}, err
	case SlidingLog:
		a, err := sliding.NewLog(sliding.Config{Window: w, Limit: p.Limit})
		return &logKey{a: a, p: p}, err
	case SlidingCounter:
		a, err := sliding.NewCounter(sliding.Config{Window: w, Limit: p.Limit, SubWindows: p.SubWindows})
		return &counterKey{a: a, p: p, sub: -1}, err
	case TokenBucket:
		a, err := buckets.NewTokenBucket(bucketConfig(p))
		return &tokenKey{a: a, p: p}, err
	case GCRA:
		a, err := buckets.NewGCRA(bucketConfig(p))
		return &gcraKey{a: a, c: bucketConfig(p)}, err
	case LeakyQueue:
		a, err := buckets.NewLeakyQueue(bucketConfig(p))
		return &queueKey{a: a, c: bucketConfig(p)}, err
	}
	return nil, unknownAlgorithm(string(algo))
}

func bucketConfig(p Params) buckets.Config {
	return buckets.Config{Capacity: p.Capacity, Rate: p.RatePerS}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// msText prints an instant or a duration in ms: whole when it is whole (the
// worked examples), with two decimals when T = 1000/R is not.
func msText(ns int64) string {
	if ns%msNS == 0 {
		return fmt.Sprint(ns / msNS)
	}
	return fmt.Sprintf("%.2f", float64(ns)/float64(msNS))
}

// fixedKey reads either fixed window. Both keep two values: the window
// (its id, or when it opened) and the count.
type fixedKey struct {
	a interface {
		core.Algorithm
		State() fixedwindow.State
	}
	p   Params
	ttl bool
}

func (k *fixedKey) maxCost() int                            { return k.a.MaxCost() }
func (k *fixedKey) maxCostName() string                     { return "the limit" }
func (k *fixedKey) allow(now int64, cost int) core.Decision { return k.a.AllowN(at(now), cost) }
func (k *fixedKey) step(now int64, cost int) (core.Decision, int) {
	return k.allow(now, cost), 2
}

// window is the one State names: window WindowID from Start for the grid,
// the window opened at Start for the TTL variant; both last W.
func (k *fixedKey) window() (int64, int64, bool) {
	from := k.a.State().Start.UnixNano()
	return from, from + k.p.WindowMS*msNS, true
}

func (k *fixedKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	d := k.allow(now, cost)
	s := k.a.State()
	start := ms(s.Start)
	var state, span string
	if k.ttl {
		state = fmt.Sprintf("window opened %d: count %d", start, s.Count)
		span = fmt.Sprintf("the window opened at %d", start)
	} else {
		state = fmt.Sprintf("window %d: count %d", s.WindowID, s.Count)
		span = fmt.Sprintf("window %d [%d,%d)", s.WindowID, start, start+k.p.WindowMS)
	}
	var why string
	switch {
	case d.Allowed:
		why = fmt.Sprintf("count %d <= L %d in %s", s.Count, k.p.Limit, span)
	case k.ttl:
		why = fmt.Sprintf("count %d > L %d (rejects count too); the key expires at %d",
			s.Count, k.p.Limit, start+k.p.WindowMS)
	default:
		why = fmt.Sprintf("count %d > L %d (rejects count too); window %d opens at %d",
			s.Count, k.p.Limit, s.WindowID+1, start+k.p.WindowMS)
	}
	return d, 2, state, why
}

// stateCopyMax bounds the values a description copies out of a key: a
// longer log shows only its size (and a deeper queue is read from the
// departures the lab keeps), so putting one request in words stays cheap.
const stateCopyMax = 1024

// logKey reads the sliding log: its values are the permits its entries hold
// (a cost-k request counts k), which is L - Remaining after every decision;
// a description lists the entries, one per request, "820x3" for cost 3.
type logKey struct {
	a *sliding.Log
	p Params
}

func (k *logKey) maxCost() int                            { return k.a.MaxCost() }
func (k *logKey) maxCostName() string                     { return "the limit" }
func (k *logKey) allow(now int64, cost int) core.Decision { return k.a.AllowN(at(now), cost) }
func (k *logKey) window() (int64, int64, bool)            { return 0, 0, false }
func (k *logKey) step(now int64, cost int) (core.Decision, int) {
	d := k.allow(now, cost)
	return d, k.p.Limit - d.Remaining
}
func (k *logKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	d, n := k.step(now, cost)
	state := fmt.Sprintf("log [%d timestamps]", n)
	if n <= stateCopyMax {
		kept := k.a.State().Entries
		state = "log " + listText(len(kept), func(i int) string {
			if kept[i].Cost > 1 {
				return fmt.Sprintf("%dx%d", ms(kept[i].At), kept[i].Cost) // one entry of cost k
			}
			return fmt.Sprint(ms(kept[i].At))
		})
	}
	in := n
	if d.Allowed {
		in -= cost
	}
	why := fmt.Sprintf("%d in (%d, %d] + cost %d <= L %d", in, now-k.p.WindowMS, now, cost, k.p.Limit)
	if !d.Allowed {
		why = fmt.Sprintf("%d in (%d, %d] + cost %d > L %d; the oldest leaves at %d",
			in, now-k.p.WindowMS, now, cost, k.p.Limit, now+ceilMS(d.RetryAfter))
	}
	return d, n, state, why
}

// counterKey reads the sliding counter: N+1 counts and the window id.
type counterKey struct {
	a   *sliding.Counter
	p   Params
	sub int64 // State().WindowID as of the latest request, -1 before the first
	now int64 // the latest request's arrival (ms)
}

func (k *counterKey) maxCost() int                            { return k.a.MaxCost() }
func (k *counterKey) maxCostName() string                     { return "the limit" }
func (k *counterKey) allow(now int64, cost int) core.Decision { return k.a.AllowN(at(now), cost) }
func (k *counterKey) step(now int64, cost int) (core.Decision, int) {
	k.now = now
	return k.allow(now, cost), k.p.SubWindows + 2
}

// window is the sub-window State().WindowID names, W/N wide. State copies
// the N+1 counts when N > 1, so it is read only when the latest arrival
// lies outside the sub-window read last.
func (k *counterKey) window() (int64, int64, bool) {
	size := k.p.WindowMS * msNS / int64(k.p.SubWindows)
	if k.now*msNS/size != k.sub {
		k.sub = k.a.State().WindowID
	}
	return k.sub * size, (k.sub + 1) * size, true
}

func (k *counterKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	d, values := k.step(now, cost)
	s := k.a.State()
	est := num(s.Estimate)
	var state string
	if s.Sub != nil {
		state = fmt.Sprintf("subs %s est %s", listText(len(s.Sub), func(i int) string { return fmt.Sprint(s.Sub[i]) }), est)
	} else {
		state = fmt.Sprintf("prev %d curr %d est %s", s.Prev, s.Curr, est)
	}
	size := k.p.WindowMS * msNS / int64(k.p.SubWindows)
	weight := float64(size-(now*msNS)%size) / float64(size)
	inside := s.Curr
	if d.Allowed {
		inside -= cost
	}
	terms := fmt.Sprintf("%d x %.2f + %d", s.Prev, weight, inside)
	if cost > 1 {
		terms += fmt.Sprintf(", + cost %d - 1", cost)
	}
	why := fmt.Sprintf("estimate %s = %s < L %d", est, terms, k.p.Limit)
	if !d.Allowed {
		why = fmt.Sprintf("estimate %s = %s, not < L %d; fits at %s",
			est, terms, k.p.Limit, msText(now*msNS+int64(d.RetryAfter)))
	}
	return d, values, state, why
}

// tokenKey reads the token bucket: tokens and the last refill time.
type tokenKey struct {
	a *buckets.TokenBucket
	p Params
}

func (k *tokenKey) maxCost() int                                  { return k.a.MaxCost() }
func (k *tokenKey) maxCostName() string                           { return "the capacity" }
func (k *tokenKey) allow(now int64, cost int) core.Decision       { return k.a.AllowN(at(now), cost) }
func (k *tokenKey) step(now int64, cost int) (core.Decision, int) { return k.allow(now, cost), 2 }
func (k *tokenKey) window() (int64, int64, bool)                  { return 0, 0, false }
func (k *tokenKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	before := k.a.Tokens(at(now))
	d := k.allow(now, cost)
	tokens := k.a.State().Tokens
	why := fmt.Sprintf("%s tokens >= cost %d; forwarded at once", num(before), cost)
	if !d.Allowed {
		why = fmt.Sprintf("%s tokens < cost %d; enough at %s", num(before), cost,
			msText(now*msNS+int64(d.RetryAfter)))
	}
	return d, 2, "tokens " + num(tokens), why
}

// gcraKey reads GCRA: one instant, TAT.
type gcraKey struct {
	a *buckets.GCRA
	c buckets.Config
}

func (k *gcraKey) maxCost() int                                  { return k.a.MaxCost() }
func (k *gcraKey) maxCostName() string                           { return "the capacity" }
func (k *gcraKey) allow(now int64, cost int) core.Decision       { return k.a.AllowN(at(now), cost) }
func (k *gcraKey) step(now int64, cost int) (core.Decision, int) { return k.allow(now, cost), 1 }
func (k *gcraKey) window() (int64, int64, bool)                  { return 0, 0, false }
func (k *gcraKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	before := k.a.State().TAT.UnixNano()
	d := k.allow(now, cost)
	tat := k.a.State().TAT.UnixNano()
	why := gcraWhy(k.c, now, before, cost, d)
	if d.Allowed {
		why += "; forwarded at once"
	}
	return d, 1, "TAT " + msText(tat), why
}

// gcraWhy states GCRA's test: (TAT - now) + (cost-1)T against tau, where the
// TAT is max(TAT, now) and starts at the first arrival. Only for cost 1 is
// the left side the wait a queue would impose.
func gcraWhy(c buckets.Config, now, tatBefore int64, cost int, d core.Decision) string {
	n := now * msNS
	tat := max(tatBefore, n)
	debt := tat - n + int64(cost-1)*int64(c.Interval())
	op := "<="
	if !d.Allowed {
		op = ">"
	}
	lhs := "TAT - now"
	if cost > 1 {
		lhs = fmt.Sprintf("TAT + %dT - now", cost-1)
	}
	return fmt.Sprintf("%s = %s %s tau %s", lhs, msText(debt), op, msText(int64(c.Tau())))
}

// queueKey reads the leaky-bucket queue: TAT plus the requests waiting.
//
// Reading the chapter's State copies the whole queue, which on every step
// would make a run with a deep queue quadratic. So the key keeps the
// departures it has handed out (the requests the chapter queues: an allowed
// request whose departure is after now, gone once its departure has
// passed), which count the values on every step in O(1) amortised. Only
// explain reads State, and only while at most stateCopyMax are waiting;
// deeper, the queue is read from these departures and TAT is the last
// allowed request's departure plus its cost·T, as CONTRACT.md §2 states it.
// step and explain must see every request of the key.
type queueKey struct {
	a        *buckets.LeakyQueue
	c        buckets.Config
	pending  []int64 // departures still to come (ns), oldest first, from head
	head     int
	departed int64 // ns: departure + cost·T of the last allowed request
	seen     bool  // a request has been stepped
}

func (k *queueKey) maxCost() int                            { return k.a.MaxCost() }
func (k *queueKey) maxCostName() string                     { return "the capacity" }
func (k *queueKey) allow(now int64, cost int) core.Decision { return k.a.AllowN(at(now), cost) }
func (k *queueKey) window() (int64, int64, bool)            { return 0, 0, false }
func (k *queueKey) step(now int64, cost int) (core.Decision, int) {
	d := k.allow(now, cost)
	k.seen = true
	n := now * msNS
	for k.head < len(k.pending) && k.pending[k.head] <= n {
		k.head++
	}
	if k.head > len(k.pending)/2 { // drop the departed half
		k.pending, k.head = append(k.pending[:0], k.pending[k.head:]...), 0
	}
	if d.Allowed {
		departure := n + int64(d.Wait)
		if departure > n {
			k.pending = append(k.pending, departure)
		}
		k.departed = departure + int64(cost)*int64(k.c.Interval())
	}
	return d, 1 + len(k.pending) - k.head
}
func (k *queueKey) explain(now int64, cost int) (core.Decision, int, string, string) {
	before := k.tatText()
	d, values := k.step(now, cost)
	tat, queue := k.tatText(), ""
	if waiting := values - 1; waiting <= stateCopyMax {
		s := k.a.State()
		queue = listText(len(s.Queue), func(i int) string { return msText(s.Queue[i].UnixNano()) })
	} else {
		q := k.pending[k.head:]
		queue = listText(waiting, func(i int) string { return msText(q[i]) })
	}
	state := fmt.Sprintf("TAT %s, queue %s", msText(tat), queue)
	why := gcraWhy(k.c, now, before, cost, d)
	switch {
	case d.Allowed && d.Wait == 0:
		why += ": departs at once"
	case d.Allowed:
		why += ": queued, departs at " + msText(now*msNS+int64(d.Wait))
	case cost == 1: // TAT - now is the wait it would have had
		why = "it would wait " + strings.TrimPrefix(why, "TAT - now = ")
	}
	return d, values, state, why
}

// tatText is the TAT a description shows (ns): the chapter's while at most
// stateCopyMax wait, the lab's own past that, 0 before the first request.
func (k *queueKey) tatText() int64 {
	switch {
	case !k.seen:
		return 0
	case len(k.pending)-k.head <= stateCopyMax:
		return k.a.State().TAT.UnixNano()
	}
	return k.departed
}
