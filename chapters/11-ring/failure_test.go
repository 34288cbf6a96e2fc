package ring

import (
	"fmt"
	"testing"
	"time"
)

// TestE44_APeerDiesItsCountsAreLost: 3 peers, 300 keys of 5 an hour, each
// key drained (8 requests, 5 admitted). Then one peer dies: the survivors
// take a ring without it, its keys move (about a third), and their counts
// start over on the new owners. The same 8 requests again admit exactly 5
// per moved key and 0 for the others: the over-admission is one limit per
// moved key per window, and only the dead peer's keys pay it.
func TestE44_APeerDiesItsCountsAreLost(t *testing.T) {
	clk := newClock()
	peers := cluster(t, 3, clk.now)
	keys := make([]string, 300)
	for i := range keys {
		keys[i] = fmt.Sprintf("client-%d", i)
	}
	send := func(via []*Peer) (admitted int, errs int) {
		for i, k := range keys {
			p := via[i%len(via)]
			for range 8 {
				out := p.Check([]Request{{Key: k, Hits: 1, Limit: 5, Duration: time.Hour}})[0]
				if out.Error != "" {
					errs++
				} else if out.Allowed {
					admitted++
				}
			}
		}
		return admitted, errs
	}
	if got, errs := send(peers); got != 5*len(keys) || errs != 0 {
		t.Fatalf("first pass: %d admitted, %d errors; want %d and 0", got, errs, 5*len(keys))
	}
	before := peers[0].ring.Load()
	dead := peers[2]
	dead.Close()
	after, err := before.Without(dead.Addr())
	if err != nil {
		t.Fatal(err)
	}
	survivors := peers[:2]
	// Before the survivors learn, a forward to the dead peer fails: an
	// error, which the caller's failure mode decides.
	var lost string
	for _, k := range keys {
		if before.Owner(k) == dead.Addr() {
			lost = k
			break
		}
	}
	if out := survivors[0].Check([]Request{{Key: lost, Hits: 1, Limit: 5, Duration: time.Hour}})[0]; out.Error == "" {
		t.Errorf("forward to a dead owner answered %+v, want an error", out)
	}
	for _, p := range survivors {
		p.SetRing(after)
	}
	moved := int(Moved(before, after, keys)*float64(len(keys)) + 0.5)
	got, errs := send(survivors)
	t.Logf("%d of %d keys moved; second pass admitted %d", moved, len(keys), got)
	if errs != 0 || got != 5*moved {
		t.Errorf("after the failure: %d admitted (%d errors), want 5 × %d moved keys = %d", got, errs, moved, 5*moved)
	}
	if moved < len(keys)/5 || moved > len(keys)/2 {
		t.Errorf("%d of %d keys moved, want about a third", moved, len(keys))
	}
}
