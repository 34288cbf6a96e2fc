package service

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	ch10 "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The traffic driver: the composed request sent at a steady rate over a
// number of keys for a while, on the screen's clock. The learner steps the
// clock; each step sends the requests whose times it passes, each at its
// own time.

const (
	fRate = iota
	fKeys
	fFor
)

var trafficFields = []widget.FieldSpec{
	{Label: "rate/s", Param: "rate", Limit: 5, About: "requests a second, 1 to 1000"},
	{Label: "keys", Param: "keys", Limit: 3, About: "how many keys share the traffic, 1 to 100 (the first descriptor's value gets -1, -2, …)"},
	{Label: "seconds", Param: "for", Limit: 5, About: "how long the traffic runs, 0.1 to 60"},
}

// traffic is what the driver's fields say.
type traffic struct {
	rate, keys int
	dur        time.Duration
}

// readTraffic reads the fields; a field it cannot read gets its message.
func readTraffic(f *widget.Form) (traffic, bool) {
	f.Errs = [widget.FormMax]string{}
	var t traffic
	var err error
	if t.rate, err = strconv.Atoi(f.Value(fRate)); err != nil || t.rate < 1 || t.rate > 1000 {
		f.Errs[fRate] = f.FieldError(fRate, f.Value(fRate), "a whole number from 1 to 1000", "")
	}
	if t.keys, err = strconv.Atoi(f.Value(fKeys)); err != nil || t.keys < 1 || t.keys > 100 {
		f.Errs[fKeys] = f.FieldError(fKeys, f.Value(fKeys), "a whole number from 1 to 100", "")
	}
	sec, err := strconv.ParseFloat(f.Value(fFor), 64)
	if err != nil || sec < 0.1 || sec > 60 {
		f.Errs[fFor] = f.FieldError(fFor, f.Value(fFor), "a number of seconds from 0.1 to 60", "")
	}
	t.dur = time.Duration(sec * float64(time.Second))
	return t, f.FirstErr() < 0
}

// run is one traffic run: when it started on the clock, what it sends, how
// far it has got and what came back.
type run struct {
	req   composed
	t     traffic
	start time.Duration // on the screen's clock
	sent  int
	tally tally
}

func (r *run) total() int { return int(r.t.dur.Seconds() * float64(r.t.rate)) }

// at is when request j goes out.
func (r *run) at(j int) time.Duration {
	return r.start + time.Duration(j)*time.Second/time.Duration(r.t.rate)
}

func (r *run) done() bool { return r.sent >= r.total() }

// tally counts a run's answers, and every descriptor's part in them.
type tally struct {
	ok, over, closed int // requests: OK, OVER_LIMIT, refused because the store is down (fails closed)
	deny, store      int // descriptors the deny cache answered, and those that went to the store
	failedOpen       int // descriptors the store could not count, answered OK (fails open)
}

// add counts one answer.
func (t *tally) add(a answer) {
	switch {
	case errors.Is(a.err, ch10.ErrUnavailable):
		t.closed++
	case a.err != nil:
	case a.overLimit():
		t.over++
	default:
		t.ok++
	}
	for i, tr := range a.traces {
		if tr.Deny {
			t.deny++
		}
		if tr.Store {
			t.store++
		}
		if a.failedOpen(i) {
			t.failedOpen++
		}
	}
}

func (t tally) String() string {
	s := fmt.Sprintf("%d OK, %d OVER_LIMIT", t.ok, t.over)
	if t.closed > 0 {
		s += fmt.Sprintf(", %d refused (store down)", t.closed)
	}
	s += fmt.Sprintf("; deny cache %d, store %d", t.deny, t.store)
	if t.failedOpen > 0 {
		s += fmt.Sprintf(", failed open %d", t.failedOpen)
	}
	return s
}
