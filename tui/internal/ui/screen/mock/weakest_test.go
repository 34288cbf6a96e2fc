package mock

import (
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

// The summary names the two weakest phases, by the share of their points
// and pushbacks covered, and the chapter sections that answer what they
// missed, found by each point's cue.
func TestMockSummaryNamesTheWeakestPhases(t *testing.T) {
	m := press(newModel(t).Resize(100, 60).(Model), "f", "enter")
	m = press(m, "1", "2", "3", "4", "n", "enter") // phase 1: every point
	m = press(m, "n", "enter")                     // phase 2: nothing
	m = press(m, "1", "2", "3", "4", "n", "enter") // phase 3: its points, no pushback
	m = press(m, "1", "n", "enter")                // phase 4: one point
	if m.state != Done {
		t.Fatalf("state %d after four phases", m.state)
	}
	ws := m.weakest(2)
	if len(ws) != 2 || ws[0].phase != 1 || ws[1].phase != 3 {
		t.Fatalf("weakest %+v, want phases 2 then 4", ws)
	}
	if ws[0].covered != 0 || ws[0].total != len(m.phases[1].Checklist)+len(m.pushes(1)) {
		t.Errorf("phase 2: %d of %d covered", ws[0].covered, ws[0].total)
	}
	// Phase 2 missed "A fixed window lets 2L through" (ch 02, cue 2L).
	sec := course.SectionOf(2, "2L")
	if sec == "" {
		t.Fatal("chapter 02 has no section saying 2L")
	}
	f := uitest.Flat(m.View())
	uitest.Want(t, f, "Weakest phases", "2 Pick the algorithm and the per-key state · 0 of",
		"4 Failure, overload, monitoring and the response · 1 of", "ch 02 § "+sec)
	uitest.CheckFrame(t, m.View(), 100, 60)
	// Every point and pushback covered: no phase is weak.
	for j, ph := range m.phases {
		m.record.Phases[j].Ticked, m.record.Phases[j].Pushed = nil, nil
		for k := range ph.Checklist {
			m.record.Phases[j].Ticked = append(m.record.Phases[j].Ticked, k)
		}
		for k := range ph.Pushback {
			m.record.Phases[j].Pushed = append(m.record.Phases[j].Pushed, k)
		}
	}
	if ws := m.weakest(2); len(ws) != 0 || len(m.weakestRows()) != 0 {
		t.Errorf("all covered, yet weakest %+v", ws)
	}
}
