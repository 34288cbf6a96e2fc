package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Without redis-server the screen says so in one line with the hint; the
// real run is asked, with PATH emptied.
func TestClusterScreenWithoutRedisServer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("REDIS_CLUSTER_ADDRS", "")
	m := appNew(t, 80, 24)
	m.cluster.work = runClusterParts
	d := newTeaDriver(t, m)
	d.send(uitest.Key("C"))
	d.until("the run ends", 10*time.Second, func(m appModel) bool { return m.cluster.state != csRunning })
	f := d.m.View()
	uitest.CheckFrame(t, f, 80, 24)
	if d.m.cluster.state != csNoServer {
		t.Fatalf("state %d (%s), want no server", d.m.cluster.state, d.m.cluster.err)
	}
	row := uitest.Row(f, "no redis-server")
	if strings.TrimSpace(row) != clusterNoServer || !strings.Contains(row, "apt-get install redis-server") {
		t.Errorf("the no-server line %q", row)
	}
	uitest.Want(t, f, "r run again")
	uitest.Lacks(t, f, "✗")
	if len([]rune(clusterNoServer)) > widget.MinW {
		t.Errorf("the hint is %d columns, more than %d", len([]rune(clusterNoServer)), widget.MinW)
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

// until delivers messages until done holds, asking done again after each
// message and every 20 ms (done may watch the processes, not the screen).
func (d *teaDriver) until(what string, limit time.Duration, done func(appModel) bool) {
	d.t.Helper()
	deadline := time.After(limit)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !done(d.m) {
		select {
		case <-tick.C:
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

// stoppedRedis reports whether one of this binary's redis-server processes
// is stopped (SIGSTOP: E23's frozen replica), from /proc/PID/stat.
func stoppedRedis(t *testing.T) bool {
	t.Helper()
	for _, pid := range ourRedis(t) {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			continue // gone since pgrep
		}
		// pid (comm) state ...: the state follows the last ')'.
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && (f[0] == "T" || f[0] == "t") {
			return true
		}
	}
	return false
}

// TestClusterScreenRealRun runs the screen on a cluster of its own: the load
// bars while E22 runs, every part measured with the chapter's figures, the
// six processes gone when the run ends; then a run stopped by esc in the
// middle of a failover and one ended by q leave no process behind.
//
// It is the course's one real end-to-end run of part 3 (tui cluster's
// report runs on a fake; the experiments are chapters/06-distributed/
// cluster's to test): what it adds is the processes' life cycle.
func TestClusterScreenRealRun(t *testing.T) {
	testenv.NeedsProcesses(t)
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
			if p, ok := cm.ev.(part3.HotKeyProgress); ok && p.Phase == part3.PhaseMixed {
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
		d.send(uitest.Key(k))
	}
	if d.m.scr != scrCluster {
		t.Fatalf("chapter 06's 2 opens screen %d", d.m.scr)
	}
	d.until("the cluster to start", 30*time.Second, func(m appModel) bool { return m.cluster.how != "" || m.cluster.state != csRunning })
	if n := ourRedis(t); len(n) != 6 {
		t.Errorf("%d redis-server processes while the cluster runs, want 6", len(n))
	}
	d.until("the load bars", 30*time.Second, func(m appModel) bool {
		_, ok := m.cluster.live[part3.PhaseMixed]
		return ok || m.cluster.state != csRunning
	})
	bars := d.m.View()
	uitest.CheckFrame(t, bars, 80, 24)
	uitest.Want(t, bars, "script calls per primary", "hot "+string(widget.GlyphBarUsed))
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
	d.send(uitest.Key("1"))
	f := d.m.View()
	t.Logf("\n%s", f)
	uitest.CheckFrame(t, f, 80, 24)
	hotRow := uitest.Row(f, "hot "+string(widget.GlyphBarUsed))
	uitest.Want(t, hotRow, strings.TrimPrefix(e22.HotPrimary, "127.0.0.1"), fmt.Sprintf("%5.1f%%", 100*e22.HotShare))
	if want := int(e22.HotShare*float64(c.barWidth()) + 0.5); barCells(hotRow) != want {
		t.Errorf("hot row %q: %d cells, want %d", hotRow, barCells(hotRow), want)
	}
	uitest.Want(t, f, fmt.Sprintf("%.1f× fewer", e22.Reduction), fmt.Sprintf("%6d", e22.HotBorrow))
	// Part 2: the three failovers.
	d.send(uitest.Key("2"))
	f = d.m.View()
	t.Logf("\n%s", f)
	uitest.CheckFrame(t, f, 80, 24)
	if len(c.e23) != 3 {
		t.Fatalf("E23: %d runs", len(c.e23))
	}
	for _, r := range c.e23 {
		row := uitest.Flat(uitest.RowStarting(f, string(r.Mitigation)+" "))
		want := fmt.Sprintf("%s %d %d %d %d %d", r.Mitigation, r.Before, r.LagAdmitted, r.Forgotten, r.OverAdmitted, r.LagRefused)
		if !strings.HasPrefix(row, want) {
			t.Errorf("E23 row %q, want it to start %q", row, want)
		}
	}
	if none := c.e23[0]; none.Forgotten <= 0 || none.OverAdmitted != int(none.Forgotten) {
		t.Errorf("E23 as shipped: forgot %d, over-admitted %d", none.Forgotten, none.OverAdmitted)
	} else {
		uitest.Want(t, f, fmt.Sprintf("+%d over", none.OverAdmitted))
	}
	// Part 3: 10,000 identities over the three primaries.
	d.send(uitest.Key("3"))
	f = d.m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "CROSSSLOT", "10000 identities over the primaries")
	for _, s := range c.e21.Split {
		uitest.Want(t, f, fmt.Sprintf("%d %5.1f%%", s.Count, 100*s.Share))
	}
	t.Logf("\n%s", f)

	// Again, stopped by esc in the middle of the failover.
	d.send(uitest.Key("r"))
	d.until("E23 to begin", 60*time.Second, func(m appModel) bool {
		return m.cluster.e22 != nil && m.cluster.part == cpFailover || m.cluster.state != csRunning
	})
	run := d.m.cluster.run
	// The replica frozen, requests coming: esc must take a stopped process too.
	d.until("E23's replica to be frozen", 60*time.Second, func(m appModel) bool {
		return stoppedRedis(t) || m.cluster.state != csRunning
	})
	if d.m.cluster.state != csRunning {
		t.Fatalf("the run ended (state %d: %s) before E23 froze a replica", d.m.cluster.state, d.m.cluster.err)
	}
	d.send(uitest.Key("esc"))
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
	d.send(uitest.Key("2"))
	d.until("the cluster to start again", 30*time.Second, func(m appModel) bool { return m.cluster.how != "" || m.cluster.state != csRunning })
	run = d.m.cluster.run
	nm, cmd := d.m.Update(uitest.Key("q"))
	d.m = nm.(appModel)
	if !uitest.IsQuit(cmd) {
		t.Error("q does not quit")
	}
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes after q: %v", n)
	}
	<-run.finished

	// And stopped while the cluster is still starting.
	d.send(uitest.Key("esc"))
	d.send(uitest.Key("2"))
	d.until("the run's goroutine to start", 5*time.Second, func(appModel) bool { return len(ourRedis(t)) > 0 })
	run = d.m.cluster.run
	stopAt := time.Now()
	d.send(uitest.Key("esc"))
	t.Logf("esc while the cluster starts: back in %v", time.Since(stopAt))
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes right after esc while starting: %v", n)
	}
	<-run.finished
	if n := ourRedis(t); len(n) != 0 {
		t.Errorf("redis-server processes once the run stopped while starting returned: %v", n)
	}
}
