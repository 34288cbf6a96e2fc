package ring

import (
	"math"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	overload "github.com/ratelimit-course/ratelimit/chapters/09-overload"
	"github.com/ratelimit-course/ratelimit/core"
)

// QuotaRun is what SimulateQuota measured.
type QuotaRun struct {
	Period       time.Duration `json:"period"`
	Admitted     []int         `json:"admitted"`     // per proxy
	Fair         []float64     `json:"fair"`         // per proxy: max-min fair share of the true demand
	Over         float64       `json:"over"`         // admitted − limit × run, in requests
	Misallocated float64       `json:"misallocated"` // Σ|admitted − fair| / 2, as a fraction of limit × run
}

// SimulateQuota pushes quota to proxies, as Envoy's RLQS does: each proxy
// enforces a local token bucket (rate = its share, capacity = share × period,
// at least 1) and reports the requests it saw every period; the server then
// assigns the limit max-min fair (chapter 09, E30) over the reported demand.
// Before the first report the shares are equal. Demand (requests per
// second, evenly spaced) is before for the first half of run and after for
// the second. A proxy keeps its tokens, up to its new capacity, when its
// share changes. Time advances in 1 ms steps.
func SimulateQuota(limit float64, before, after []float64, run, period time.Duration) (QuotaRun, error) {
	if len(before) == 0 || len(before) != len(after) {
		return QuotaRun{}, core.BadParam("demand", len(after), "one demand per proxy, before and after")
	}
	if period < time.Millisecond || run < period {
		return QuotaRun{}, core.BadParam("period", period, "1 ms to the run's length")
	}
	p := len(before)
	shares := make([]float64, p)
	for i := range shares {
		shares[i] = limit / float64(p)
	}
	was := make([]float64, p)
	bs := make([]*buckets.TokenBucket, p)
	seen, due := make([]float64, p), make([]float64, p)
	out := QuotaRun{Period: period, Admitted: make([]int, p)}
	var now time.Time
	const step = time.Millisecond
	for at := time.Duration(0); at < run; at += step {
		now = time.Unix(0, 0).Add(at)
		if at%period == 0 {
			if at > 0 {
				for i := range seen {
					seen[i] /= period.Seconds()
				}
				next, err := overload.MaxMinFair(limit, ones(p), seen)
				if err != nil {
					return QuotaRun{}, err
				}
				was, shares = shares, next
			}
			for i := range bs {
				bs[i] = reassign(bs[i], now, was[i], shares[i], period)
				seen[i] = 0
			}
		}
		demand := before
		if at >= run/2 {
			demand = after
		}
		for i, d := range demand {
			for due[i] += d * step.Seconds(); due[i] >= 1-1e-9; due[i]-- {
				seen[i]++
				if bs[i] != nil && bs[i].AllowN(now, 1).Allowed {
					out.Admitted[i]++
				}
			}
		}
	}
	total := 0
	fairBefore, _ := overload.MaxMinFair(limit, ones(p), before)
	fairAfter, _ := overload.MaxMinFair(limit, ones(p), after)
	out.Fair = make([]float64, p)
	miss := 0.0
	for i := range out.Fair {
		out.Fair[i] = (fairBefore[i] + fairAfter[i]) * run.Seconds() / 2
		total += out.Admitted[i]
		miss += math.Abs(float64(out.Admitted[i]) - out.Fair[i])
	}
	out.Over = float64(total) - limit*run.Seconds()
	out.Misallocated = miss / 2 / (limit * run.Seconds())
	return out, nil
}

// reassign gives a proxy a bucket of the new share, keeping the whole
// tokens it held (up to the new capacity); the same bucket if the share has
// not changed, nil when it is zero.
func reassign(old *buckets.TokenBucket, now time.Time, was, share float64, period time.Duration) *buckets.TokenBucket {
	if share <= 0 {
		return nil
	}
	c := max(1, int(share*period.Seconds()))
	if old != nil && math.Abs(was-share) < 1e-9 {
		return old
	}
	b, err := buckets.NewTokenBucket(buckets.Config{Capacity: c, Rate: share})
	if err != nil {
		return nil
	}
	if old != nil {
		if spend := c - min(c, int(old.Tokens(now)+1e-9)); spend > 0 {
			b.AllowN(now, spend)
		}
	}
	return b
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// TestE43_QuotaPushedToTheProxy: three proxies share 100/s; demand is
// 150/40/10 per second for 30 s, then 10/40/150 for 30 s. The max-min fair
// split is 50/40/10, then 10/40/50. The server reassigns from reported
// demand every T. Over-admission stays under the buckets' burst (limit × T;
// measured, it is negative: the lag shows as limit left unused) and the
// share of the limit that goes to the wrong proxy grows with T, because a
// proxy's share lags its demand by up to one period after the shift: 0.000
// at 100 ms, 0.004 at 1 s, 0.019 at 5 s, 0.039 at 10 s.
func TestE43_QuotaPushedToTheProxy(t *testing.T) {
	before, after := []float64{150, 40, 10}, []float64{10, 40, 150}
	var prev float64
	for _, period := range []time.Duration{100 * time.Millisecond, time.Second, 5 * time.Second, 10 * time.Second} {
		r, err := SimulateQuota(100, before, after, time.Minute, period)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("T=%v: admitted %v (fair %.0f), over %.0f, misallocated %.3f", period, r.Admitted, r.Fair, r.Over, r.Misallocated)
		if r.Over > 100*period.Seconds()+1 {
			t.Errorf("T=%v: over-admitted %.0f, want at most limit × T = %.0f", period, r.Over, 100*period.Seconds())
		}
		if r.Misallocated+1e-9 < prev {
			t.Errorf("T=%v: misallocated %.3f, less than %.3f at a shorter T", period, r.Misallocated, prev)
		}
		prev = r.Misallocated
	}
	if prev < 0.03 {
		t.Errorf("T=10s: misallocated %.3f, want the lag to show (≥ 0.03)", prev)
	}
}

func TestQuotaBadInput(t *testing.T) {
	if _, err := SimulateQuota(100, []float64{1}, []float64{1, 2}, time.Second, time.Second); err == nil {
		t.Error("demands of different lengths accepted")
	}
	if _, err := SimulateQuota(100, []float64{1}, []float64{1}, time.Second, 0); err == nil {
		t.Error("a zero period accepted")
	}
}
