package cluster

import (
	"fmt"
	"strings"
	"testing"
	"time"

	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The package's tests walk the screens with random keys; none of them may
// start six redis-server processes by chance. A screen opened in a test
// waits to be stopped; the tests that want the real run set work.
func init() { clusterWork = clusterWaitForStop }

func clusterWaitForStop(r *clusterRun) { <-r.ctx.Done() }

// clusterOpen opens the cluster screen from chapter 06's link, as a
// learner does.
func clusterOpen(t *testing.T, m appModel) appModel {
	t.Helper()
	return appPress(m, "6", "2")
}

// clusterEv delivers one event of the run the screen shows.
func clusterEv(m appModel, ev any) appModel {
	return appSend(m, clusterMsg{run: m.cluster.run, ev: ev})
}

// Figures of one run on this machine (tui cluster), as the chapter returns them.
const (
	fakeA, fakeB, fakeHot = "127.0.0.1:35729", "127.0.0.1:36117", "127.0.0.1:36485"
)

func fakeE22() part3.HotKeyResult {
	c := part3.DefaultHotKey("")
	return part3.HotKeyResult{Config: c, HotPrimary: fakeHot,
		Mixed: []part3.PrimaryShare{{Addr: fakeA, Slots: 5461, Count: 656, Share: 0.0656},
			{Addr: fakeB, Slots: 5461, Count: 728, Share: 0.0728}, {Addr: fakeHot, Slots: 5462, Count: 8616, Share: 0.8616}},
		HotShare: 0.8616, HotCentral: 8000, HotBorrow: 172, Reduction: 46.5,
		CentralAdmitted: []int64{1000, 1000, 1000, 1000}, PrefetchAdmitted: []int64{1000, 1000, 1000, 999},
		Split: part3.SplitResult{Primaries: []string{fakeA, fakeHot, fakeB, fakeA},
			Cases: []part3.SplitCase{{Demand: []int{70, 10, 10, 10}, Single: 100, Split: 55, FullShares: 100},
				{Demand: []int{100, 100, 100, 100}, Single: 100, Split: 100, FullShares: 400}}},
	}
}

func fakeE23() []part3.FailoverRun {
	return []part3.FailoverRun{
		{Mitigation: part3.MitigationNone, Before: 200, LagSent: 400, LagAdmitted: 400, FirstRefuse: -1, OldCount: 600, NewCount: 502,
			Forgotten: 98, AfterAdmitted: 498, FailoverMs: 33, Total: 1098, OverAdmitted: 98},
		{Mitigation: part3.MitigationMinReplicas, Before: 200, LagSent: 221, LagAdmitted: 202, LagRefused: 19, FirstRefuse: 2090,
			RefuseMs: 106, OldCount: 402, NewCount: 402, AfterAdmitted: 598, AfterRefused: 1, NoReplicaMs: 113, FailoverMs: 26, Total: 1000},
		{Mitigation: part3.MitigationWait, Before: 200, LagSent: 41, LagRefused: 41, FirstRefuse: 10, RefuseMs: 98, OldCount: 241,
			NewCount: 231, Forgotten: 10, AfterAdmitted: 768, AfterRefused: 1, FailoverMs: 443, Total: 968,
			PlainP50: 27, PlainP99: 101, WaitP50: 49, WaitP99: 113},
	}
}

func fakeE21() part3.HashTagResult {
	return part3.HashTagResult{ID: "x-user-42", Slot: 15995, KeySlots: map[string]int{"a": 15995, "b": 15995, "c": 15995},
		CrossSlot: "CROSSSLOT Keys in request don't hash to the same slot", SharedTag: "[0 0]", IDs: 10000,
		Split: []part3.PrimaryShare{{Addr: fakeA, Slots: 5461, Count: 3321, Share: 0.3321},
			{Addr: fakeB, Slots: 5461, Count: 3332, Share: 0.3332}, {Addr: fakeHot, Slots: 5462, Count: 3347, Share: 0.3347}}}
}

// barCells is how many bar cells a screen row holds.
func barCells(row string) int { return strings.Count(row, string(widget.GlyphBarUsed)) }

// TestClusterScreenShowsTheRun drives the screen with a run's events (no
// cluster): the load bars while the hot key runs, E22's figures, the
// failover timelines and table, E21's split, at 80×24 without colour.
func TestClusterScreenShowsTheRun(t *testing.T) {
	m := clusterOpen(t, appNew(t, 80, 24))
	if m.scr != scrCluster || m.cluster.state != csRunning {
		t.Fatalf("chapter 06's link opens the cluster screen and starts a run: screen %d state %d", m.scr, m.cluster.state)
	}
	f := m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "06 · The cluster", "starting a Redis Cluster", "waiting for the cluster", "esc stop the cluster, back", "? all keys")
	run := m.cluster.run

	m = clusterEv(m, clusterStarted{how: "redis-server cluster /usr/bin/redis-server", nodes: 6, owned: true})
	m = clusterEv(m, clusterStage{cpHotKey, "E22 the hot key"})
	// The mixed phase under way: the bars are the shares reported so far.
	live := part3.HotKeyProgress{Phase: part3.PhaseMixed, Hot: fakeHot, Calls: []part3.PrimaryShare{
		{Addr: fakeA, Count: 150, Share: 0.075}, {Addr: fakeB, Count: 170, Share: 0.085}, {Addr: fakeHot, Count: 1680, Share: 0.84}}}
	m = clusterEv(m, live)
	f = m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "mixed traffic, one identity sends 80%", "counting…")
	bw := m.cluster.barWidth()
	for _, s := range live.Calls {
		row := uitest.Row(f, strings.TrimPrefix(s.Addr, "127.0.0.1")+" ")
		want := int(s.Share*float64(bw) + 0.5)
		if barCells(row) != want || !strings.Contains(row, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share)) {
			t.Errorf("live row %q: want %d cells and %d calls (%.1f%%)", row, want, s.Count, 100*s.Share)
		}
		if hot := strings.Contains(row, " hot "); hot != (s.Addr == fakeHot) {
			t.Errorf("row %q: hot mark %v, want it on %s only", row, hot, fakeHot)
		}
	}
	// The hot identity alone, a call each, part way.
	m = clusterEv(m, part3.HotKeyProgress{Phase: part3.PhaseMixed, Hot: fakeHot, Calls: fakeE22().Mixed, Final: true})
	m = clusterEv(m, part3.HotKeyProgress{Phase: part3.PhaseCentral, Hot: fakeHot,
		Calls: []part3.PrimaryShare{{Addr: fakeA}, {Addr: fakeB}, {Addr: fakeHot, Count: 4000, Share: 1}}})
	f = m.View()
	if row := uitest.Row(f, "a call each"); barCells(row) != bw/2 || !strings.Contains(row, " 4000") {
		t.Errorf("half the hot identity's 8000 calls: %q, want %d cells and 4000", row, bw/2)
	}
	uitest.Want(t, f, "the hot identity alone, a script call each")

	m = clusterEv(m, fakeE22())
	f = m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "1 ✓ hot key", "8616  86.2%", "46.5× fewer", "a call each 1000/1000/1000/1000", "prefetch    1000/1000/1000/999")
	for _, c := range []string{"70/10/10/10 100 55 100", "100/100/100/100 100 100 400"} {
		if got := uitest.Flat(uitest.Row(f, strings.Fields(c)[0]+" ")); got != c {
			t.Errorf("split key row %q, want %q", got, c)
		}
	}
	if row := uitest.Row(f, "prefetch, batch 25"); barCells(row) != 1 || !strings.Contains(row, "   172") {
		t.Errorf("prefetch row %q: 172 of 8000 calls is one cell", row)
	}
	if row := uitest.Row(f, "a call each "); barCells(row) != bw {
		t.Errorf("central row %q: 8000 of 8000 calls is the full %d cells", row, bw)
	}

	// E23: the screen follows the run to the failover part.
	m = clusterEv(m, clusterStage{cpFailover, "E23 failover 1 of 3 (none): freeze the replica, kill the primary, promote"})
	if m.cluster.part != cpFailover {
		t.Fatal("the shown part follows the run to E23")
	}
	for _, r := range fakeE23() {
		m = clusterEv(m, clusterE23{run: r})
	}
	f = m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "+98 over", "within the limit", "refusal 106 ms", "p50 27→49 µs")
	uitest.Want(t, uitest.Flat(f), "E23 failover: limit 1000; 200 admitted and replicated", "from 2090 ms into the freeze", "refused for 113 ms", "p99 101 → 113 µs", "(TAKEOVER)")
	for _, c := range []struct{ row, fields string }{
		{"none     ", "none 200 400 98 98 0 —"},
		{"min-replicas-to-write", "min-replicas-to-write 200 202 0 0 19 refusal 106 ms"},
		{"wait     ", "wait 200 0 10 0 41 p50 27→49 µs"},
	} {
		if got := uitest.Flat(uitest.RowStarting(f, c.row)); got != c.fields {
			t.Errorf("table row %q, want %q", got, c.fields)
		}
	}
	// The timelines, in time order: the runs of marks up to the limit │,
	// and over-admission right of it.
	for _, c := range []struct {
		label, order string
		over         bool
	}{
		{"none", "█▓┃░│", true}, {"min-replicas", "█▓✗┃✗░│", false}, {"WAIT", "█✗┃✗░ │", false},
	} {
		row := uitest.RowStarting(f, fmt.Sprintf("  %-13s", c.label))
		bar, after, _ := strings.Cut(strings.TrimPrefix(row, fmt.Sprintf("  %-13s", c.label)), "│")
		var order []rune
		for _, r := range bar + "│" {
			if len(order) == 0 || order[len(order)-1] != r {
				order = append(order, r)
			}
		}
		if string(order) != c.order || strings.Contains(after, "░") != c.over {
			t.Errorf("timeline %q: marks %q, want %q; cells past the limit %v, want %v", row, string(order), c.order, !c.over, c.over)
		}
	}

	m = clusterEv(m, clusterStage{cpHashTags, "E21 hash tags: 10000 identities"})
	m = clusterEv(m, fakeE21())
	f = m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "all in slot 15995", "CROSSSLOT Keys in request", "returned [0 0]", "10000 identities over the primaries")
	for _, s := range fakeE21().Split {
		row := uitest.Row(f, strings.TrimPrefix(s.Addr, "127.0.0.1")+" ")
		if want := int(s.Share*float64(bw) + 0.5); barCells(row) != want || !strings.Contains(row, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share)) {
			t.Errorf("E21 row %q: want %d cells, %d ids", row, want, s.Count)
		}
	}
	m = clusterEv(m, clusterEnd{})
	f = m.View()
	uitest.Want(t, f, "✓ measured", "the cluster's processes are stopped", "r run again", "esc back")
	if tabs := uitest.Row(f, "hot key (E22)"); m.cluster.state != csDone || !strings.Contains(tabs, "1 ✓") ||
		!strings.Contains(tabs, "2 ✓") || !strings.Contains(tabs, "3 ✓") {
		t.Errorf("every part measured: state %d, tabs %q", m.cluster.state, uitest.Row(f, "hot key (E22)"))
	}

	// The parts by key; a picked part stays put.
	for k, want := range map[string]int{"1": cpHotKey, "3": cpHashTags, "right": cpHotKey, "left": cpFailover, "2": cpFailover} {
		if got := appPress(m, k).cluster.part; got != want {
			t.Errorf("%s from part %d shows part %d, want %d", k, m.cluster.part, got, want)
		}
	}
	sheet := appPress(m, "?").View()
	uitest.Want(t, sheet, "Keys · the cluster", "previous part", "that part", "run again")

	// esc goes back to chapter 06; the finished run has nothing left to stop,
	// and opening the screen again shows it without running it again.
	m = appPress(m, "esc")
	if m.scr != scrChapter || m.chapter != 6 {
		t.Fatalf("esc from the cluster screen lands on screen %d", m.scr)
	}
	if m = clusterOpen(t, m); m.cluster.run != run || m.cluster.state != csDone {
		t.Error("a finished run is shown again, not run again")
	}
	if m = appPress(m, "r"); m.cluster.run == run || m.cluster.state != csRunning || m.cluster.e22 != nil {
		t.Error("r starts a new run from scratch")
	}
	// An event of the old run no longer lands.
	m = appSend(m, clusterMsg{run: run, ev: fakeE22()})
	if m.cluster.e22 != nil {
		t.Error("an event of a replaced run was applied")
	}
	second := m.cluster.run
	m = appPress(m, "esc")
	select {
	case <-second.finished:
	case <-time.After(5 * time.Second):
		t.Fatal("esc did not stop the run")
	}
	if m.cluster.state != csIdle || second.ctx.Err() == nil {
		t.Errorf("after esc: state %d, run context %v", m.cluster.state, second.ctx.Err())
	}
}
