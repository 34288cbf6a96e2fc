package ring

import (
	"fmt"
	"testing"
	"time"
)

// globalRun sends one GLOBAL request every 20 ms to each of n peers for 5 s
// (clock under test control) on a key of C = 10 refilled at 10/s, calls Sync
// on every peer each interval, and returns the total admitted and the
// hits the owner could not cover.
func globalRun(t *testing.T, n int, interval time.Duration) (admitted int, uncovered int64) {
	clk := newClock()
	peers := cluster(t, n, clk.now)
	req := Request{Key: "tenant-7", Hits: 1, Limit: 10, Duration: time.Second, Behavior: Global}
	const step, run = 20 * time.Millisecond, 5 * time.Second
	for at := time.Duration(0); at < run; at += step {
		if at > 0 && at%interval == 0 {
			for _, p := range peers {
				if err := p.Sync(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, p := range peers {
			out := p.Check([]Request{req})[0]
			if out.Error != "" || out.Hops != 0 {
				t.Fatalf("GLOBAL answer %+v, want one with no hop", out)
			}
			if out.Allowed {
				admitted++
			}
		}
		clk.add(step)
	}
	for _, p := range peers {
		uncovered += p.OverAdmitted.Load()
	}
	return admitted, uncovered
}

// TestE41_GlobalOverAdmissionBound: an exact bucket of C = 10, R = 10/s
// admits C + R·T = 60 in T = 5 s of over-demand. Between two syncs each of
// the N peers spends its own copy, which holds what the owner held at the
// last sync plus R·I of refill, so the other N−1 copies over-admit at most
// (N−1)·R·I per interval, plus (N−1)·C in the first (every copy starts full):
// (N−1)·(C + R·T) over the run. Measured for 3 peers and I from 20 ms to 1 s.
func TestE41_GlobalOverAdmissionBound(t *testing.T) {
	const c, r, run, exact = 10, 10.0, 5.0, 60
	for _, n := range []int{2, 3} {
		for _, interval := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, time.Second} {
			t.Run(fmt.Sprint(n, "peers/", interval), func(t *testing.T) {
				admitted, uncovered := globalRun(t, n, interval)
				over := admitted - exact
				bound := float64(n-1) * (c + r*run)
				perInterval := float64(over-(n-1)*c) / (run / interval.Seconds())
				t.Logf("N=%d I=%v: admitted %d, over %d (bound %.0f), %.2f per interval after the first (bound (N−1)·R·I = %.2f), owner could not cover %d",
					n, interval, admitted, over, bound, perInterval, float64(n-1)*r*interval.Seconds(), uncovered)
				if over < 0 || float64(over) > bound {
					t.Errorf("over-admitted %d, want 0 ≤ over ≤ (N−1)·(C + R·T) = %.0f", over, bound)
				}
				if uncovered < int64(over)-int64(n-1)*c {
					t.Errorf("owner counted %d uncovered hits, want at least %d", uncovered, over-(n-1)*c)
				}
			})
		}
	}
}
