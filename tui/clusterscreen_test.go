package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
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
	m = appPress(m, "6")
	for i, l := range chapterInfos()[chapterIndex(6)].links {
		if l.view == ivCluster {
			ks := m.chapter.keys.Links[i].Keys()
			appWant(t, m.View(), l.label)
			return appPress(m, ks[len(ks)-1])
		}
	}
	t.Fatal("chapter 06 offers no link to the cluster screen")
	return m
}

// clusterEv delivers one event of the run the screen shows.
func clusterEv(m appModel, ev any) appModel {
	return appSend(m, clusterMsg{run: m.cluster.run, ev: ev})
}

// Figures of one run on this machine (tui cluster), as the chapter returns them.
const (
	fakeA, fakeB, fakeHot = "127.0.0.1:35729", "127.0.0.1:36117", "127.0.0.1:36485"
)

func fakeE22() cluster.HotKeyResult {
	c := cluster.DefaultHotKey("")
	return cluster.HotKeyResult{Config: c, HotPrimary: fakeHot,
		Mixed: []cluster.PrimaryShare{{Addr: fakeA, Slots: 5461, Count: 656, Share: 0.0656},
			{Addr: fakeB, Slots: 5461, Count: 728, Share: 0.0728}, {Addr: fakeHot, Slots: 5462, Count: 8616, Share: 0.8616}},
		HotShare: 0.8616, HotCentral: 8000, HotBorrow: 172, Reduction: 46.5,
		CentralAdmitted: []int64{1000, 1000, 1000, 1000}, PrefetchAdmitted: []int64{1000, 1000, 1000, 999},
		Split: cluster.SplitResult{Primaries: []string{fakeA, fakeHot, fakeB, fakeA},
			Cases: []cluster.SplitCase{{Demand: []int{70, 10, 10, 10}, Single: 100, Split: 55, FullShares: 100},
				{Demand: []int{100, 100, 100, 100}, Single: 100, Split: 100, FullShares: 400}}},
	}
}

func fakeE23() []cluster.FailoverRun {
	return []cluster.FailoverRun{
		{Mitigation: cluster.MitigationNone, Before: 200, LagSent: 400, LagAdmitted: 400, FirstRefuse: -1, OldCount: 600, NewCount: 502,
			Forgotten: 98, AfterAdmitted: 498, FailoverMs: 33, Total: 1098, OverAdmitted: 98},
		{Mitigation: cluster.MitigationMinReplicas, Before: 200, LagSent: 221, LagAdmitted: 202, LagRefused: 19, FirstRefuse: 2090,
			RefuseMs: 106, OldCount: 402, NewCount: 402, AfterAdmitted: 598, AfterRefused: 1, NoReplicaMs: 113, FailoverMs: 26, Total: 1000},
		{Mitigation: cluster.MitigationWait, Before: 200, LagSent: 41, LagRefused: 41, FirstRefuse: 10, RefuseMs: 98, OldCount: 241,
			NewCount: 231, Forgotten: 10, AfterAdmitted: 768, AfterRefused: 1, FailoverMs: 443, Total: 968,
			PlainP50: 27, PlainP99: 101, WaitP50: 49, WaitP99: 113},
	}
}

func fakeE21() cluster.HashTagResult {
	return cluster.HashTagResult{ID: "x-user-42", Slot: 15995, KeySlots: map[string]int{"a": 15995, "b": 15995, "c": 15995},
		CrossSlot: "CROSSSLOT Keys in request don't hash to the same slot", SharedTag: "[0 0]", IDs: 10000,
		Split: []cluster.PrimaryShare{{Addr: fakeA, Slots: 5461, Count: 3321, Share: 0.3321},
			{Addr: fakeB, Slots: 5461, Count: 3332, Share: 0.3332}, {Addr: fakeHot, Slots: 5462, Count: 3347, Share: 0.3347}}}
}

// barCells is how many bar cells a screen row holds.
func barCells(row string) int { return strings.Count(row, string(glyphBarUsed)) }

// TestClusterScreenShowsTheRun drives the screen with a run's events (no
// cluster): the load bars while the hot key runs, E22's figures, the
// failover timelines and table, E21's split, at 80×24 without colour.
func TestClusterScreenShowsTheRun(t *testing.T) {
	m := clusterOpen(t, appNew(t, 80, 24))
	if m.scr != scrCluster || m.cluster.state != csRunning {
		t.Fatalf("chapter 06's link opens the cluster screen and starts a run: screen %d state %d", m.scr, m.cluster.state)
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "06 · The cluster", "starting a Redis Cluster", "waiting for the cluster", "esc stop the cluster, back", "? all keys")
	run := m.cluster.run

	m = clusterEv(m, clusterStarted{how: "redis-server cluster /usr/bin/redis-server", nodes: 6, owned: true})
	m = clusterEv(m, clusterStage{cpHotKey, "E22 the hot key"})
	// The mixed phase under way: the bars are the shares reported so far.
	live := cluster.HotKeyProgress{Phase: cluster.PhaseMixed, Hot: fakeHot, Calls: []cluster.PrimaryShare{
		{Addr: fakeA, Count: 150, Share: 0.075}, {Addr: fakeB, Count: 170, Share: 0.085}, {Addr: fakeHot, Count: 1680, Share: 0.84}}}
	m = clusterEv(m, live)
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "mixed traffic, one identity sends 80%", "counting…")
	bw := m.cluster.barWidth()
	for _, s := range live.Calls {
		row := appRow(f, strings.TrimPrefix(s.Addr, "127.0.0.1")+" ")
		want := int(s.Share*float64(bw) + 0.5)
		if barCells(row) != want || !strings.Contains(row, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share)) {
			t.Errorf("live row %q: want %d cells and %d calls (%.1f%%)", row, want, s.Count, 100*s.Share)
		}
		if hot := strings.Contains(row, " hot "); hot != (s.Addr == fakeHot) {
			t.Errorf("row %q: hot mark %v, want it on %s only", row, hot, fakeHot)
		}
	}
	// The hot identity alone, a call each, part way.
	m = clusterEv(m, cluster.HotKeyProgress{Phase: cluster.PhaseMixed, Hot: fakeHot, Calls: fakeE22().Mixed, Final: true})
	m = clusterEv(m, cluster.HotKeyProgress{Phase: cluster.PhaseCentral, Hot: fakeHot,
		Calls: []cluster.PrimaryShare{{Addr: fakeA}, {Addr: fakeB}, {Addr: fakeHot, Count: 4000, Share: 1}}})
	f = m.View()
	if row := appRow(f, "a call each"); barCells(row) != bw/2 || !strings.Contains(row, " 4000") {
		t.Errorf("half the hot identity's 8000 calls: %q, want %d cells and 4000", row, bw/2)
	}
	appWant(t, f, "the hot identity alone, a script call each")

	m = clusterEv(m, fakeE22())
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "1 ✓ hot key", "8616  86.2%", "46.5× fewer", "a call each 1000/1000/1000/1000", "prefetch    1000/1000/1000/999")
	for _, c := range []string{"70/10/10/10 100 55 100", "100/100/100/100 100 100 400"} {
		if got := flatText(appRow(f, strings.Fields(c)[0]+" ")); got != c {
			t.Errorf("split key row %q, want %q", got, c)
		}
	}
	if row := appRow(f, "prefetch, batch 25"); barCells(row) != 1 || !strings.Contains(row, "   172") {
		t.Errorf("prefetch row %q: 172 of 8000 calls is one cell", row)
	}
	if row := appRow(f, "a call each "); barCells(row) != bw {
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
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "+98 over", "within the limit", "refusal 106 ms", "p50 27→49 µs")
	appWant(t, flatText(f), "E23 failover: limit 1000; 200 admitted and replicated", "from 2090 ms into the freeze", "refused for 113 ms", "p99 101 → 113 µs", "(TAKEOVER)")
	for _, c := range []struct{ row, fields string }{
		{"none     ", "none 200 400 98 98 0 —"},
		{"min-replicas-to-write", "min-replicas-to-write 200 202 0 0 19 refusal 106 ms"},
		{"wait     ", "wait 200 0 10 0 41 p50 27→49 µs"},
	} {
		if got := flatText(appRowStarting(f, c.row)); got != c.fields {
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
		row := appRowStarting(f, fmt.Sprintf("  %-13s", c.label))
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
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "all in slot 15995", "CROSSSLOT Keys in request", "returned [0 0]", "10000 identities over the primaries")
	for _, s := range fakeE21().Split {
		row := appRow(f, strings.TrimPrefix(s.Addr, "127.0.0.1")+" ")
		if want := int(s.Share*float64(bw) + 0.5); barCells(row) != want || !strings.Contains(row, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share)) {
			t.Errorf("E21 row %q: want %d cells, %d ids", row, want, s.Count)
		}
	}
	m = clusterEv(m, clusterEnd{})
	f = m.View()
	appWant(t, f, "✓ measured", "the cluster's processes are stopped", "r run again", "esc back")
	if tabs := appRow(f, "hot key (E22)"); m.cluster.state != csDone || !strings.Contains(tabs, "1 ✓") ||
		!strings.Contains(tabs, "2 ✓") || !strings.Contains(tabs, "3 ✓") {
		t.Errorf("every part measured: state %d, tabs %q", m.cluster.state, appRow(f, "hot key (E22)"))
	}

	// The parts by key; a picked part stays put.
	for k, want := range map[string]int{"1": cpHotKey, "3": cpHashTags, "right": cpHotKey, "left": cpFailover, "2": cpFailover} {
		if got := appPress(m, k).cluster.part; got != want {
			t.Errorf("%s from part %d shows part %d, want %d", k, m.cluster.part, got, want)
		}
	}
	sheet := appPress(m, "?").View()
	appWant(t, sheet, "Keys · the cluster", "previous part", "that part", "run again")

	// esc goes back to chapter 06; the finished run has nothing left to stop,
	// and opening the screen again shows it without running it again.
	m = appPress(m, "esc")
	if m.scr != scrChapter || uiChapters[m.chapter.idx].num != 6 {
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

// Without redis-server the screen says so in one line with the hint; the
// real run is asked, with PATH emptied.
func TestClusterScreenWithoutRedisServer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("REDIS_CLUSTER_ADDRS", "")
	m := appNew(t, 80, 24)
	m.cluster.work = runClusterParts
	d := newTeaDriver(t, m)
	d.send(appKey("C"))
	d.until("the run ends", 10*time.Second, func(m appModel) bool { return m.cluster.state != csRunning })
	f := d.m.View()
	appCheckFrame(t, f, 80, 24)
	if d.m.cluster.state != csNoServer {
		t.Fatalf("state %d (%s), want no server", d.m.cluster.state, d.m.cluster.err)
	}
	row := appRow(f, "no redis-server")
	if strings.TrimSpace(row) != clusterNoServer || !strings.Contains(row, "apt-get install redis-server") {
		t.Errorf("the no-server line %q", row)
	}
	appWant(t, f, "r run again")
	appLacks(t, f, "✗")
	if len([]rune(clusterNoServer)) > minW {
		t.Errorf("the hint is %d columns, more than %d", len([]rune(clusterNoServer)), minW)
	}
}

// teaDriver runs commands the way Bubble Tea does (each in a goroutine, its
// message back into Update), for the real run whose events take seconds.
type teaDriver struct {
	t    *testing.T
	m    appModel
	msgs chan tea.Msg
	seen func(tea.Msg) // each message before Update, if set
}

func newTeaDriver(t *testing.T, m appModel) *teaDriver {
	return &teaDriver{t: t, m: m, msgs: make(chan tea.Msg, 256)}
}

func (d *teaDriver) exec(cmd tea.Cmd) {
	if cmd != nil {
		go func() { d.msgs <- cmd() }()
	}
}

func (d *teaDriver) send(msg tea.Msg) {
	if d.seen != nil {
		d.seen(msg)
	}
	nm, cmd := d.m.Update(msg)
	d.m = nm.(appModel)
	d.exec(cmd)
}

// until delivers messages until done holds.
func (d *teaDriver) until(what string, limit time.Duration, done func(appModel) bool) {
	d.t.Helper()
	deadline := time.After(limit)
	for !done(d.m) {
		select {
		case out := <-d.msgs:
			switch out := out.(type) {
			case tea.BatchMsg:
				for _, c := range out {
					d.exec(c)
				}
			case nil, tea.QuitMsg:
			default:
				d.send(out)
			}
		case <-deadline:
			d.t.Fatalf("waited %v for %s; screen:\n%s", limit, what, d.m.View())
		}
	}
}

// ourRedis lists the redis-server processes this test binary started.
func ourRedis(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("pgrep", "-P", strconv.Itoa(os.Getpid()), "-x", "redis-server").Output()
	if err != nil {
		if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 1 {
			return nil // none
		}
		t.Fatalf("pgrep: %v", err)
	}
	return strings.Fields(string(out))
}

// TestClusterScreenRealRun runs the screen on a cluster of its own: the load
// bars while E22 runs, every part measured with the chapter's figures, the
// six processes gone when the run ends; then a run stopped by esc in the
// middle of a failover and one ended by q leave no process behind.
func TestClusterScreenRealRun(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("REQUIRE_REDIS") == "1" {
			t.Fatal("REQUIRE_REDIS=1 but no redis-server on PATH")
		}
		t.Skip("no redis-server on PATH (apt-get install redis-server)")
	}
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("no pgrep to count the processes (apt-get install procps)")
	}
	t.Setenv("REDIS_CLUSTER_ADDRS", "") // a cluster of its own: E23 kills a primary
	if n := ourRedis(t); len(n) != 0 {
		t.Fatalf("redis-server processes of this binary before the test: %v", n)
	}
	m := appNew(t, 80, 24)
	m.cluster.work = runClusterParts
	d := newTeaDriver(t, m)
	var live, final int
	d.seen = func(msg tea.Msg) {
		if cm, ok := msg.(clusterMsg); ok {
			if p, ok := cm.ev.(cluster.HotKeyProgress); ok && p.Phase == cluster.PhaseMixed {
				if p.Final {
					final++
				} else {
					live++
				}
			}
		}
	}
	began := time.Now()
	for _, k := range []string{"6", "2"} {
		d.send(appKey(k))
	}
	if d.m.scr != scrCluster {
		t.Fatalf("chapter 06's 2 opens screen %d", d.m.scr)
	}
	d.until("the cluster to start", 30*time.Second, func(m appModel) bool { return m.cluster.how != "" || m.cluster.state != csRunning })
	if n := ourRedis(t); len(n) != 6 {
		t.Errorf("%d redis-server processes while the cluster runs, want 6", len(n))
	}
	d.until("the load bars", 30*time.Second, func(m appModel) bool {
		_, ok := m.cluster.live[cluster.PhaseMixed]
		return ok || m.cluster.state != csRunning
	})
	bars := d.m.View()
	appCheckFrame(t, bars, 80, 24)
	appWant(t, bars, "script calls per primary", "hot "+string(glyphBarUsed))
	d.until("the run to end", 60*time.Second, func(m appModel) bool { return m.cluster.state != csRunning })
	took := time.Since(began)
	c := d.m.cluster
	if c.state != csDone {
		t.Fatalf("the run ended in state %d: %s", c.state, c.err)
	}
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes after the run: %v", n)
	}
	t.Logf("run took %v; %d live reports of the mixed phase, %d final", took, live, final)
	if final != 1 {
		t.Errorf("%d final reports of the mixed phase, want 1", final)
	}

	// Part 1: the hot primary's share and the prefetch reduction, as measured.
	e22 := c.e22
	if e22.HotShare < 0.80 || e22.HotShare > 0.90 || e22.Reduction < 20 {
		t.Errorf("E22: hot share %.3f, reduction %.1f", e22.HotShare, e22.Reduction)
	}
	d.send(appKey("1"))
	f := d.m.View()
	t.Logf("\n%s", f)
	appCheckFrame(t, f, 80, 24)
	hotRow := appRow(f, "hot "+string(glyphBarUsed))
	appWant(t, hotRow, strings.TrimPrefix(e22.HotPrimary, "127.0.0.1"), fmt.Sprintf("%5.1f%%", 100*e22.HotShare))
	if want := int(e22.HotShare*float64(c.barWidth()) + 0.5); barCells(hotRow) != want {
		t.Errorf("hot row %q: %d cells, want %d", hotRow, barCells(hotRow), want)
	}
	appWant(t, f, fmt.Sprintf("%.1f× fewer", e22.Reduction), fmt.Sprintf("%6d", e22.HotBorrow))
	// Part 2: the three failovers.
	d.send(appKey("2"))
	f = d.m.View()
	t.Logf("\n%s", f)
	appCheckFrame(t, f, 80, 24)
	if len(c.e23) != 3 {
		t.Fatalf("E23: %d runs", len(c.e23))
	}
	for _, r := range c.e23 {
		row := flatText(appRowStarting(f, r.Mitigation+" "))
		want := fmt.Sprintf("%s %d %d %d %d %d", r.Mitigation, r.Before, r.LagAdmitted, r.Forgotten, r.OverAdmitted, r.LagRefused)
		if !strings.HasPrefix(row, want) {
			t.Errorf("E23 row %q, want it to start %q", row, want)
		}
	}
	if none := c.e23[0]; none.Forgotten <= 0 || none.OverAdmitted != int(none.Forgotten) {
		t.Errorf("E23 as shipped: forgot %d, over-admitted %d", none.Forgotten, none.OverAdmitted)
	} else {
		appWant(t, f, fmt.Sprintf("+%d over", none.OverAdmitted))
	}
	// Part 3: 10,000 identities over the three primaries.
	d.send(appKey("3"))
	f = d.m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "CROSSSLOT", "10000 identities over the primaries")
	for _, s := range c.e21.Split {
		appWant(t, f, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share))
	}
	t.Logf("\n%s", f)

	// Again, stopped by esc in the middle of the failover.
	d.send(appKey("r"))
	d.until("E23 to begin", 60*time.Second, func(m appModel) bool {
		return m.cluster.e22 != nil && m.cluster.part == cpFailover || m.cluster.state != csRunning
	})
	run := d.m.cluster.run
	time.Sleep(1500 * time.Millisecond) // the replica frozen, requests coming
	d.send(appKey("esc"))
	if d.m.scr != scrChapter {
		t.Errorf("esc lands on screen %d, want chapter 06", d.m.scr)
	}
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes right after esc: %v", n)
	}
	select {
	case <-run.finished:
	case <-time.After(20 * time.Second):
		t.Fatal("the stopped run's goroutine did not return")
	}
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes once the stopped run returned: %v", n)
	}

	// And ended by q while it runs.
	d.send(appKey("2"))
	d.until("the cluster to start again", 30*time.Second, func(m appModel) bool { return m.cluster.how != "" || m.cluster.state != csRunning })
	run = d.m.cluster.run
	nm, cmd := d.m.Update(appKey("q"))
	d.m = nm.(appModel)
	if !appIsQuit(cmd) {
		t.Error("q does not quit")
	}
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes after q: %v", n)
	}
	<-run.finished

	// And stopped while the cluster is still starting.
	d.send(appKey("esc"))
	d.send(appKey("2"))
	d.until("the run's goroutine to start", 5*time.Second, func(appModel) bool { return len(ourRedis(t)) > 0 })
	run = d.m.cluster.run
	stopAt := time.Now()
	d.send(appKey("esc"))
	t.Logf("esc while the cluster starts: back in %v", time.Since(stopAt))
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes right after esc while starting: %v", n)
	}
	<-run.finished
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes once the run stopped while starting returned: %v", n)
	}
}
