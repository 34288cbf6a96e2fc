package distributed

import "testing"

// TestE8_PerNodeCountingMultipliesLimit: 3 nodes each counting "10 per
// second" locally let 30 through; one shared counter lets 10.
func TestE8_PerNodeCountingMultipliesLimit(t *testing.T) {
	res, err := SimulatePerNode(PerNodeConfig{Nodes: 3, Limit: 10, PerNode: 10})
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
	res, _ = SimulatePerNode(PerNodeConfig{Nodes: 3, Limit: 10, PerNode: 50})
	if res.LocalAllowed != 30 || res.SharedAllowed != 10 {
		t.Fatalf("heavier traffic: local %d shared %d, want 30, 10", res.LocalAllowed, res.SharedAllowed)
	}
}

func TestPerNodeValidate(t *testing.T) {
	for _, c := range []PerNodeConfig{{Nodes: 0, Limit: 1}, {Nodes: 1, Limit: -1}, {Nodes: 1, Limit: 1, PerNode: -1}} {
		if _, err := SimulatePerNode(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
