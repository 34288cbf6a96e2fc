package sim

import "testing"

// TestE14_DelayedWriteBackOverAdmits: 4 nodes each admitting 10 per second
// locally and reporting once per second, target 10/s: 40 get through.
func TestE14_DelayedWriteBackOverAdmits(t *testing.T) {
	cases := []struct {
		name    string
		perNode int
		syncMS  int64
		allowed int
	}{
		{"sync once per second", 10, 1000, 40},
		{"sync once per second, heavier traffic", 50, 1000, 40},
		// Twice per window: by the sync at 500 ms the four nodes have
		// admitted 5 each (20), the total reaches them, and they stop.
		{"sync every 500 ms", 10, 500, 20},
		// Every 100 ms: each node admits 1 before each sync; the first sync
		// reports 4, the third 12, so 12 in all.
		{"sync every 100 ms", 10, 100, 12},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := WriteBack(WriteBackConfig{Nodes: 4, Limit: 10, PerNode: tc.perNode, WindowMS: 1000, SyncMS: tc.syncMS})
			if err != nil {
				t.Fatal(err)
			}
			if res.Allowed != tc.allowed || res.Overshoot != max(0, tc.allowed-10) {
				t.Fatalf("allowed %d overshoot %d, want %d, %d", res.Allowed, res.Overshoot, tc.allowed, tc.allowed-10)
			}
		})
	}
	res, _ := WriteBack(WriteBackConfig{Nodes: 4, Limit: 10, PerNode: 10, WindowMS: 1000, SyncMS: 1000})
	for i, n := range res.PerNode {
		if n != 10 {
			t.Errorf("node %d admitted %d, want 10", i+1, n)
		}
	}
	if res.Syncs != 0 {
		t.Errorf("syncs inside the window = %d, want 0", res.Syncs)
	}
}

func TestWriteBackValidate(t *testing.T) {
	ok := WriteBackConfig{Nodes: 4, Limit: 10, PerNode: 10, WindowMS: 1000, SyncMS: 1000}
	bad := []func(*WriteBackConfig){
		func(c *WriteBackConfig) { c.Nodes = 0 },
		func(c *WriteBackConfig) { c.Limit = -1 },
		func(c *WriteBackConfig) { c.PerNode = -1 },
		func(c *WriteBackConfig) { c.WindowMS = 0 },
		func(c *WriteBackConfig) { c.SyncMS = 0 },
		func(c *WriteBackConfig) { c.WindowMS = MaxWindowMS + 1 },
		func(c *WriteBackConfig) { c.SyncMS = MaxWindowMS + 1 },
	}
	for i, edit := range bad {
		c := ok
		edit(&c)
		if _, err := WriteBack(c); err == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
	}
}

// TestWriteBackLongWindowIsQuick: a day-long window synced every ms is
// 86,400,000 syncs; they are counted, not replayed one by one (the loop used
// to run once per sync, and a window near the int64 range never ended).
func TestWriteBackLongWindowIsQuick(t *testing.T) {
	res, err := WriteBack(WriteBackConfig{Nodes: MaxNodes, Limit: 10, PerNode: 100, WindowMS: MaxWindowMS, SyncMS: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Requests every 864,000 ms: all 100 nodes admit one at 0, then hear
	// the total (100) at the first sync; syncs are counted up to the last
	// request, at 99 × 864,000 ms.
	if res.Allowed != 100 || res.Syncs != 99*864000 {
		t.Fatalf("allowed %d, syncs %d", res.Allowed, res.Syncs)
	}
}
