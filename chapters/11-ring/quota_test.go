package ring

import (
	"testing"
	"time"
)

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
