package sim

import "testing"

// TestE8_PerNodeCountingMultipliesLimit: 3 nodes each counting "10 per
// second" locally let 30 through; one shared counter lets 10.
func TestE8_PerNodeCountingMultipliesLimit(t *testing.T) {
	res, err := PerNode(PerNodeConfig{Nodes: 3, Limit: 10, PerNode: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.LocalAllowed != 30 || res.SharedAllowed != 10 || res.Multiplier != 3 {
		t.Fatalf("local %d shared %d (×%v), want 30, 10 (×3)", res.LocalAllowed, res.SharedAllowed, res.Multiplier)
	}
	for i, n := range res.LocalPerNode {
		if n != 10 {
			t.Errorf("node %d admitted %d locally, want 10", i+1, n)
		}
	}
	// More traffic changes nothing: each local counter stops at its limit.
	res, _ = PerNode(PerNodeConfig{Nodes: 3, Limit: 10, PerNode: 50})
	if res.LocalAllowed != 30 || res.SharedAllowed != 10 {
		t.Fatalf("heavier traffic: local %d shared %d, want 30, 10", res.LocalAllowed, res.SharedAllowed)
	}
}

func TestPerNodeValidate(t *testing.T) {
	for _, c := range []PerNodeConfig{{Nodes: 0, Limit: 1}, {Nodes: 1, Limit: -1}, {Nodes: 1, Limit: 1, PerNode: -1}} {
		if _, err := PerNode(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestSplitHotKey: limit 100 split over 4 shards of 25. Uneven traffic
// (70, 10, 10, 10) admits 55 where one counter admits 100: 45 false
// rejects while 45 permits sit idle. Giving every shard the whole 100 lets
// 400 through when all four are busy.
func TestSplitHotKey(t *testing.T) {
	cases := []struct {
		demand                    []int
		single, split, fullShares int
	}{
		{[]int{70, 10, 10, 10}, 100, 55, 100},
		{[]int{25, 25, 25, 25}, 100, 100, 100}, // even traffic: the split is exact
		{[]int{100, 100, 100, 100}, 100, 100, 400},
		{[]int{40, 0, 0}, 40, 34, 40}, // 100 over 3 shards: 34, 33, 33
	}
	for _, tc := range cases {
		res, err := SplitKey(100, tc.demand)
		if err != nil {
			t.Fatal(err)
		}
		if res.Single != tc.single || res.Split != tc.split || res.FullShares != tc.fullShares {
			t.Errorf("demand %v: single %d split %d full shares %d; want %d, %d, %d",
				tc.demand, res.Single, res.Split, res.FullShares, tc.single, tc.split, tc.fullShares)
		}
	}
	for _, bad := range [][]int{nil, {-1}} {
		if _, err := SplitKey(100, bad); err == nil {
			t.Errorf("demand %v accepted", bad)
		}
	}
	if _, err := SplitKey(-1, []int{1}); err == nil {
		t.Error("limit -1 accepted")
	}
}
