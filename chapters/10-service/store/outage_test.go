package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// TestOutageWraps: a counter behind the switch fails with ErrDown while it
// is on, counting nothing, and counts on once it is off; OutageOf finds
// the switch, and a nil *Outage is never down.
func TestOutageWraps(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	mem, err := NewMemory(MemoryOptions{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	var o Outage
	st := o.Wrap(mem)
	defer st.Close()
	if OutageOf(st) != &o || OutageOf(mem) != nil || OutageOf(mem).Down() {
		t.Fatalf("OutageOf: %p on the wrapped store (want %p), %p on the bare one", OutageOf(st), &o, OutageOf(mem))
	}
	unit, _ := rules.ParseUnit("minute")
	c, err := st.Counter(&rules.Rule{Path: "d.k", Unit: unit, RequestsPerUnit: 2, Algorithm: rules.AlgoFixedWindow})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, step := range []struct {
		down      bool
		allowed   bool
		remaining int
		err       error
	}{
		{false, true, 1, nil},
		{true, false, 0, ErrDown},
		{false, true, 0, nil}, // the refused call counted nothing
		{false, false, 0, nil},
	} {
		o.Set(step.down)
		d, err := c.AllowN(ctx, "x", 1)
		if !errors.Is(err, step.err) || err == nil && (d.Allowed != step.allowed || d.Remaining != step.remaining) {
			t.Errorf("call %d (down %v): %+v, %v; want allowed %v, remaining %d, error %v", i, step.down, d, err, step.allowed, step.remaining, step.err)
		}
		if _, err := c.Peek(ctx, "x"); !errors.Is(err, step.err) {
			t.Errorf("peek %d (down %v): %v, want %v", i, step.down, err, step.err)
		}
	}
}

// TestNewMemoryBadMaxKeys: a bound out of range is refused by name.
func TestNewMemoryBadMaxKeys(t *testing.T) {
	for _, n := range []int{-1, 1_000_000_001} {
		if _, err := NewMemory(MemoryOptions{MaxKeys: n}); err == nil || !strings.Contains(err.Error(), "max keys") {
			t.Errorf("MaxKeys %d: %v, want an error naming max keys", n, err)
		}
	}
}
