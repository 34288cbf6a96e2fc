package lab

import "testing"

func TestScenarios(t *testing.T) {
	type pair struct {
		example     string
		left, right Algorithm
	}
	wantPairs := map[string]pair{
		"cross-boundary-spike": {"E1", FixedWindow, SlidingLog},
		"prev-crowded-end":     {"E4", SlidingCounter, SlidingLog},
		"prev-crowded-start":   {"E3", SlidingCounter, SlidingLog},
		"instant-burst":        {"E6", TokenBucket, LeakyQueue},
	}
	if len(Scenarios) != len(wantPairs) {
		t.Fatalf("%d scenarios, want %d", len(Scenarios), len(wantPairs))
	}
	for _, sc := range Scenarios {
		w, ok := wantPairs[sc.Name]
		if !ok || sc.Example != w.example || sc.Left != w.left || sc.Right != w.right {
			t.Errorf("scenario %s: %s %s vs %s", sc.Name, sc.Example, sc.Left, sc.Right)
		}
		if sc.Params != DefaultParams() || sc.Title == "" || sc.Lesson == "" || len(sc.Arrivals) == 0 {
			t.Errorf("scenario %s incomplete: %+v", sc.Name, sc)
		}
		if got, ok := ScenarioByName(sc.Name); !ok || got.Name != sc.Name {
			t.Errorf("ScenarioByName(%s) = %v", sc.Name, ok)
		}
	}
	if _, ok := ScenarioByName("custom"); ok {
		t.Error(`"custom" is any arrivals, not a stored scenario`)
	}
}
