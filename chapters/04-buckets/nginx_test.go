package buckets

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// nginxLimitReq is a small model of the per-key accounting in nginx's
// ngx_http_limit_req_module, kept to its integer arithmetic: the rate and the
// excess are in thousandths of a request, time in whole milliseconds.
//
//	excess = max(0, excess - rate*elapsed/1000 + 1000)   per request
//	reject if excess > burst (state untouched), else store excess and
//	delay the request by (excess - delay)*1000/rate ms when excess > delay.
//
// A key seen for the first time starts with excess 0 and is never delayed.
// `delay` is 0 unless set: `nodelay` makes it unreachable, `delay=N` is N*1000.
type nginxLimitReq struct {
	rate, burst, delay int64 // thousandths
	status             int   // what a rejected request gets
	seen               bool
	excess, last       int64 // thousandths, ms
}

const nginxNoDelay = int64(1) << 62

// request returns whether nginx passes a request arriving at now (ms), how
// many ms it holds it first, and the status of a rejection.
func (z *nginxLimitReq) request(now int64) (ok bool, delayMS int64, status int) {
	excess := int64(0)
	if z.seen {
		elapsed := max(now-z.last, 0)
		excess = max(z.excess-z.rate*elapsed/1000+1000, 0)
		if excess > z.burst {
			return false, 0, z.status
		}
		if elapsed != 0 {
			z.last = now
		}
	} else {
		z.seen, z.last = true, now
	}
	z.excess = excess
	if excess > z.delay {
		delayMS = (excess - z.delay) * 1000 / z.rate
	}
	return true, delayMS, 0
}

// nginxMode is one limit_req configuration and where it sits in this chapter:
// the implementations that make its decisions with C = burst + 1, and how long
// nginx holds each allowed request given the queue's wait at the same point.
type nginxMode struct {
	directive string
	burst     int   // N
	delay     int64 // requests passed at once before delaying; -1 = nodelay
	status    int
	algos     []algo
	wait      func(queueWait, T time.Duration) time.Duration
}

func (m nginxMode) zone(ratePerSecond int64) *nginxLimitReq {
	z := &nginxLimitReq{rate: ratePerSecond * 1000, burst: int64(m.burst) * 1000, delay: m.delay * 1000, status: m.status}
	if m.delay < 0 {
		z.delay = nginxNoDelay
	}
	return z
}

// nginxModes is the table: nginx's three behaviours (and delay=D, between
// them) for a burst of n.
func nginxModes(n int) []nginxMode {
	queueWait := func(w, _ time.Duration) time.Duration { return w }
	noWait := func(_, _ time.Duration) time.Duration { return 0 }
	if n == 0 { // queue depth 0: above the rate, rejected at once; C = 1, nobody waits
		return []nginxMode{
			{"limit_req zone=z;", 0, 0, 503, []algo{leakyQueue, gcra, tokenBucket}, noWait},
			{"limit_req zone=z; limit_req_status 429;", 0, 0, 429, []algo{leakyQueue, gcra, tokenBucket}, noWait},
		}
	}
	modes := []nginxMode{
		{fmt.Sprintf("limit_req zone=z burst=%d;", n), n, 0, 503, []algo{leakyQueue}, queueWait},
		{fmt.Sprintf("limit_req zone=z burst=%d nodelay;", n), n, -1, 503, []algo{gcra, tokenBucket}, noWait},
	}
	for d := 1; d < n; d++ { // the meter's decisions, the queue's wait less d·T
		modes = append(modes, nginxMode{fmt.Sprintf("limit_req zone=z burst=%d delay=%d;", n, d), n, int64(d), 503,
			[]algo{gcra, tokenBucket}, func(w, T time.Duration) time.Duration { return max(w-time.Duration(d)*T, 0) }})
	}
	return modes
}

// TestE7_NginxLimitReq plays the same arrivals through the nginx model and
// through this chapter's implementations with C = burst + 1, and requires the
// same decisions and the same delays. Rates are whole requests per second
// that divide 1000 ms, where nginx's integer arithmetic is exact.
func TestE7_NginxLimitReq(t *testing.T) {
	// rate 1r/s, burst 5, 7 simultaneous requests: 1 at once, 5 delayed
	// 1..5 s, the 7th rejected; with nodelay all 6 at once; no burst: 1.
	seven := make([]int64, 7)
	examples := map[string]struct {
		verdicts string
		delays   []int64 // ms, allowed requests only
	}{
		"limit_req zone=z;":                       {"A R R R R R R", []int64{0}},
		"limit_req zone=z; limit_req_status 429;": {"A R R R R R R", []int64{0}},
		"limit_req zone=z burst=5;":               {"A A A A A A R", []int64{0, 1000, 2000, 3000, 4000, 5000}},
		"limit_req zone=z burst=5 nodelay;":       {"A A A A A A R", []int64{0, 0, 0, 0, 0, 0}},
		"limit_req zone=z burst=5 delay=2;":       {"A A A A A A R", []int64{0, 0, 0, 1000, 2000, 3000}},
	}
	seen := 0
	for _, m := range append(nginxModes(0), nginxModes(5)...) {
		w, ok := examples[m.directive]
		if !ok {
			continue
		}
		seen++
		got, delays := nginxPlay(t, m.zone(1), seven, m.status)
		if got != w.verdicts || fmt.Sprint(delays) != fmt.Sprint(w.delays) {
			t.Errorf("nginx %q, 7 at once: %s delays %v, want %s %v", m.directive, got, delays, w.verdicts, w.delays)
		}
		compareWithNginx(t, m, 1, seven)
	}
	if seen != len(examples) {
		t.Errorf("checked %d of %d example modes", seen, len(examples))
	}

	// Random traffic: bursts and gaps in whole ms around the rate.
	rng := rand.New(rand.NewPCG(7, 7))
	for _, r := range []int64{1, 2, 4, 5, 10, 20} {
		for trial := 0; trial < 30; trial++ {
			arr := make([]int64, 60)
			at := int64(0)
			for i := range arr {
				switch rng.IntN(4) {
				case 0: // same instant
				case 1:
					at += rng.Int64N(1000 / r)
				default:
					at += rng.Int64N(3000 / r)
				}
				arr[i] = at
			}
			for _, n := range []int{0, 1, 3, 5} {
				for _, m := range nginxModes(n) {
					compareWithNginx(t, m, r, arr)
				}
			}
		}
	}
}

func nginxPlay(t *testing.T, z *nginxLimitReq, arr []int64, status int) (string, []int64) {
	t.Helper()
	v := make([]byte, 0, 2*len(arr))
	var delays []int64
	for i, at := range arr {
		if i > 0 {
			v = append(v, ' ')
		}
		ok, d, st := z.request(at)
		if ok {
			v = append(v, 'A')
			delays = append(delays, d)
		} else {
			v = append(v, 'R')
			if st != status {
				t.Errorf("rejected with %d, want %d", st, status)
			}
		}
	}
	return string(v), delays
}

// compareWithNginx requires each of m's implementations (C = burst + 1,
// R = rate) to match the nginx model request by request.
func compareWithNginx(t *testing.T, m nginxMode, rate int64, arr []int64) {
	t.Helper()
	c := Config{Capacity: m.burst + 1, Rate: float64(rate)}
	rs := arrivalsMS(arr...)
	queue := play(t, leakyQueue, c, rs)
	for _, a := range m.algos {
		z := m.zone(rate)
		ds := play(t, a, c, rs)
		for i, at := range arr {
			ok, delay, _ := z.request(at)
			d := ds[i]
			want := m.wait(queue[i].Wait, c.Interval())
			ourWait := d.Wait // the queue holds requests itself; the meter never does
			if a.name != leakyQueue.name {
				ourWait = want
				if d.Wait != 0 {
					t.Fatalf("%s set Wait %v", a.name, d.Wait)
				}
			}
			if ok != d.Allowed || (ok && (time.Duration(delay)*time.Millisecond != want || ourWait != want)) {
				t.Fatalf("%q as %s (C=%d, R=%d) on %v: request %d at %d ms: nginx ok=%v delay %d ms; ours %+v, delay %v",
					m.directive, a.name, c.Capacity, rate, arr, i+1, at, ok, delay, d, want)
			}
		}
	}
}
