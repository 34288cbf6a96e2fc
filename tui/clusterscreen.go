package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// The cluster screen (chapter 06, part 3) runs the report of `tui cluster`
// on a real Redis Cluster, off the UI goroutine: it starts the cluster, runs
// E22 (per-primary load bars while the hot key runs), E23 (the failover
// timeline, as shipped and with each mitigation) and E21 (hash tags), and
// stops every process it started when the run ends, the learner leaves the
// screen, or the app quits. Every figure on it is a field of the chapter's
// results.

// The screen's three parts, in the order they run.
const (
	cpHotKey = iota
	cpFailover
	cpHashTags
	nClusterParts
)

var clusterPartNames = [nClusterParts]string{"hot key (E22)", "failover (E23)", "hash tags (E21)"}

type clusterState int

const (
	csIdle     clusterState = iota // nothing run yet, or the last run was stopped
	csRunning                      // a run is under way
	csDone                         // every part measured; the cluster is stopped
	csFailed                       // the run ended on an error
	csNoServer                     // no redis-server on PATH and no REDIS_CLUSTER_ADDRS
)

// clusterNoServer is the one line shown instead of a run when there is no
// cluster to be had.
const clusterNoServer = "no redis-server on PATH: apt-get install redis-server, or REDIS_CLUSTER_ADDRS"

// The events a run sends to the screen, each in a clusterMsg.
type (
	clusterStarted struct {
		how   string
		nodes int
		owned bool
	}
	clusterStage struct {
		part int
		what string
	}
	clusterE23 struct {
		run     cluster.FailoverRun
		skipped string // E23 did not run, and why
	}
	clusterEnd struct{ err error } // nil: every part measured
)

// clusterMsg carries one event of run; the screen drops those of a run it
// no longer shows.
type clusterMsg struct {
	run *clusterRun
	ev  any
}

// clusterRun is one run in the background: its cancel, the channel its
// events come on, and the cluster it started, held so that stop can tear
// it down from the UI goroutine.
type clusterRun struct {
	ctx      context.Context
	cancel   context.CancelFunc
	events   chan tea.Msg
	opened   chan struct{} // closed once the cluster is held or never will be
	finished chan struct{} // closed when the run's goroutine has returned
	once     sync.Once

	mu      sync.Mutex
	cl      *redisproc.Cluster
	stopped bool
}

func newClusterRun() *clusterRun {
	ctx, cancel := context.WithCancel(context.Background())
	return &clusterRun{ctx: ctx, cancel: cancel, events: make(chan tea.Msg, 8),
		opened: make(chan struct{}), finished: make(chan struct{})}
}

// begin runs work in its own goroutine; the channel closes after it.
func (r *clusterRun) begin(work func(*clusterRun)) tea.Cmd {
	return func() tea.Msg {
		go func() {
			defer close(r.finished)
			defer close(r.events)
			defer r.once.Do(func() { close(r.opened) })
			work(r)
		}()
		return nil
	}
}

// listen waits for the run's next event.
func (r *clusterRun) listen() tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-r.events
		if !ok {
			return nil
		}
		return msg
	}
}

// emit sends ev to the screen; false once the run is stopped.
func (r *clusterRun) emit(ev any) bool {
	select {
	case r.events <- clusterMsg{r, ev}:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// tryEmit sends ev unless the screen is behind (a progress report: the next
// one will do).
func (r *clusterRun) tryEmit(ev any) {
	select {
	case r.events <- clusterMsg{r, ev}:
	default:
	}
}

// hold takes cl for teardown; false (and cl closed) if the run was stopped
// while the cluster started.
func (r *clusterRun) hold(cl *redisproc.Cluster) bool {
	r.mu.Lock()
	ok := !r.stopped
	if ok {
		r.cl = cl
	}
	r.mu.Unlock()
	r.once.Do(func() { close(r.opened) })
	if !ok {
		_ = cl.Close()
	}
	return ok
}

// release stops the cluster's processes now (a REDIS_CLUSTER_ADDRS cluster
// is left running: it is not ours).
func (r *clusterRun) release() {
	r.mu.Lock()
	cl := r.cl
	r.cl = nil
	r.mu.Unlock()
	if cl != nil {
		_ = cl.Close()
	}
}

// stop cancels the run and kills every process it started before it
// returns. A cluster still starting notices the cancel within milliseconds
// (OpenCluster polls its context); the wait is bounded all the same, and a
// cluster that comes up later is closed by hold.
func (r *clusterRun) stop() {
	r.cancel()
	select {
	case <-r.opened:
	case <-time.After(5 * time.Second):
	}
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.release()
}

// runClusterParts is the real run: a cluster from OpenCluster, then the
// parts this screen shows in cluster.Experiments' order (E23 only on a
// cluster it started: it kills a primary), each result sent as it is
// measured.
func runClusterParts(r *clusterRun) {
	ctx := r.ctx
	cl, err := redisproc.OpenCluster(ctx)
	if err != nil {
		r.emit(clusterEnd{err})
		return
	}
	if !r.hold(cl) {
		return
	}
	if !r.emit(clusterStarted{how: cl.How, nodes: len(cl.Addrs), owned: cl.Owned()}) {
		r.release()
		return
	}
	err = clusterParts(ctx, r, cl)
	r.release()
	r.emit(clusterEnd{err})
}

func clusterParts(ctx context.Context, r *clusterRun, cl *redisproc.Cluster) error {
	cc := redis.NewClusterClient(cl.Options())
	defer cc.Close()
	prefix := fmt.Sprintf("tui-%d-%d", os.Getpid(), time.Now().UnixNano())
	var ctl cluster.NodeControl
	if cl.Owned() {
		ctl = cl
	}
	report := func(ev any) {
		switch ev := ev.(type) {
		case cluster.Stage:
			r.emit(clusterStage{screenPart[ev.Part], ev.What})
		case cluster.HotKeyProgress:
			if ev.Final {
				r.emit(ev) // a phase's own counts: never dropped
			} else {
				r.tryEmit(ev)
			}
		case cluster.Skipped:
			r.emit(clusterE23{skipped: ev.Why})
		case cluster.FailoverRun:
			r.emit(clusterE23{run: ev})
		default: // HashTagResult, HotKeyResult
			r.emit(ev)
		}
	}
	for _, e := range cluster.Experiments { // the parts this screen shows, in the one order
		if _, shown := screenPart[e.Part]; !shown {
			continue
		}
		if err := e.Run(ctx, cc, ctl, prefix, report); err != nil {
			return err
		}
	}
	return nil
}

// screenPart is the screen's part of each experiment it shows.
var screenPart = map[cluster.Part]int{cluster.PartHotKey: cpHotKey, cluster.PartFailover: cpFailover, cluster.PartHashTags: cpHashTags}

type clusterModel struct {
	th   *theme
	w, h int
	help help.Model
	spin spinner.Model

	work  func(*clusterRun) // the run (tests give their own)
	run   *clusterRun       // the run shown
	state clusterState

	how   string // which cluster: redis-server on PATH or REDIS_CLUSTER_ADDRS
	nodes int
	owned bool
	stage string // what runs now
	err   string

	live    map[string]cluster.HotKeyProgress // E22's latest report per phase
	e22     *cluster.HotKeyResult
	e23cfg  cluster.FailoverConfig
	e23     []cluster.FailoverRun
	e23Skip string
	e21     *cluster.HashTagResult

	part    int  // the part shown
	follow  bool // the shown part follows the run until the learner picks one
	began   time.Time
	elapsed time.Duration
}

// clusterSpinner turns slower than the test harness waits for a command
// (100 ms), so the tests see its ticks as timers.
var clusterSpinner = spinner.Spinner{Frames: []string{"⣾", "⣽", "⣻", "⢿", "⡿", "⣟", "⣯", "⣷"}, FPS: time.Second / 5}

// clusterWork is the run a new screen starts (the package's tests replace
// it, so that no random walk through the screens starts a cluster).
var clusterWork = runClusterParts

func newClusterModel(th *theme) clusterModel {
	return clusterModel{th: th, help: newHelp(th), work: clusterWork,
		spin: spinner.New(spinner.WithSpinner(clusterSpinner), spinner.WithStyle(th.s[stLabel]))}
}

// open shows the last complete run, or starts a new one.
func (m clusterModel) open() (clusterModel, tea.Cmd) {
	if m.state == csDone || m.state == csRunning {
		return m, nil
	}
	return m.start()
}

// start begins a run from scratch.
func (m clusterModel) start() (clusterModel, tea.Cmd) {
	w, h, th, hp, spin, work := m.w, m.h, m.th, m.help, m.spin, m.work
	m = clusterModel{th: th, w: w, h: h, help: hp, spin: spin, work: work}
	m.run, m.state, m.follow = newClusterRun(), csRunning, true
	m.live = map[string]cluster.HotKeyProgress{}
	m.e23cfg = cluster.DefaultFailover("")
	m.stage = "starting a Redis Cluster: 3 primaries + 3 replicas from redis-server"
	m.began = time.Now()
	return m, tea.Batch(m.run.begin(m.work), m.run.listen(), m.spin.Tick)
}

// leave stops a run under way and tears its cluster down; the screen then
// starts afresh next time.
func (m clusterModel) leave() clusterModel {
	if m.state == csRunning && m.run != nil {
		m.run.stop()
		m.state = csIdle
	}
	return m
}

func (m clusterModel) Update(msg tea.Msg) (clusterModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case spinner.TickMsg:
		if m.state != csRunning {
			return m, nil // the spinner stops with the run
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		m.elapsed = time.Since(m.began)
		return m, cmd
	case clusterMsg:
		if msg.run != m.run || m.state != csRunning {
			return m, nil // a stopped run's last words
		}
		m = m.apply(msg.ev)
		m.elapsed = time.Since(m.began)
		if m.state != csRunning {
			return m, nil
		}
		return m, m.run.listen()
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, xkeys.Next):
			m.part, m.follow = (m.part+1)%nClusterParts, false
		case key.Matches(msg, xkeys.Prev):
			m.part, m.follow = (m.part+nClusterParts-1)%nClusterParts, false
		case key.Matches(msg, xkeys.Part):
			m.part, m.follow = int(msg.String()[0]-'1'), false
		case key.Matches(msg, xkeys.Again) && m.state != csRunning:
			return m.start()
		}
	}
	return m, nil
}

// apply takes one event of the run.
func (m clusterModel) apply(ev any) clusterModel {
	switch ev := ev.(type) {
	case clusterStarted:
		m.how, m.nodes, m.owned = ev.how, ev.nodes, ev.owned
	case clusterStage:
		m.stage = ev.what
		if m.follow {
			m.part = ev.part
		}
	case cluster.HotKeyProgress:
		m.live[ev.Phase] = ev
		m.stage = "E22 the hot key: " + e22PhaseText[ev.Phase]
		if ev.Final && ev.Phase == cluster.PhasePrefetch {
			m.stage = "E22 the hot key: the split key"
		}
	case cluster.HotKeyResult:
		m.e22 = &ev
	case clusterE23:
		if ev.skipped != "" {
			m.e23Skip = ev.skipped
		} else {
			m.e23 = append(m.e23, ev.run)
		}
	case cluster.HashTagResult:
		m.e21 = &ev
	case clusterEnd:
		switch {
		case errors.Is(ev.err, redisproc.ErrNoCluster):
			m.state = csNoServer
		case ev.err != nil:
			m.state, m.err = csFailed, ev.err.Error()
		default:
			m.state = csDone
		}
	}
	return m
}

var e22PhaseText = map[string]string{
	cluster.PhaseMixed:    "mixed traffic, one identity sends 80%",
	cluster.PhaseCentral:  "the hot identity alone, a script call each",
	cluster.PhasePrefetch: "the hot identity alone, through prefetch",
}

func (m clusterModel) wantsEsc() bool  { return false }
func (m clusterModel) keyMap() helpMap { return clusterHelp{running: m.state == csRunning} }

// View: the title, what runs (or how it ended), the parts, the part shown.
func (m clusterModel) View() string {
	th, w := m.th, m.w
	title := th.paint(stTitle, "06 · The cluster") + th.paint(stDim, "   chapter 06 part 3 on a real Redis Cluster")
	body := []string{titleBar(th, title, w), m.status(), m.tabs(), ""}
	switch m.part {
	case cpHotKey:
		body = append(body, m.hotKey()...)
	case cpFailover:
		body = append(body, m.failover()...)
	default:
		body = append(body, m.hashTags()...)
	}
	return frame(body, []string{helpLine(m.help, m.keyMap(), w)}, w, m.h)
}

func (m clusterModel) status() string {
	th, secs := m.th, fmt.Sprintf(" · %ds", int(m.elapsed.Seconds()))
	switch m.state {
	case csRunning:
		return m.spin.View() + " " + m.stage + th.paint(stDim, secs)
	case csDone:
		gone := "the cluster's processes are stopped"
		if !m.owned {
			gone = "the cluster (" + m.how + ") is left running"
		}
		return th.paint(stAllowed, "✓ measured") + th.paint(stDim, secs+" · "+gone+" · "+keyHint(xkeys.Again))
	case csNoServer:
		return th.paint(stQueued, clusterNoServer)
	case csFailed:
		return th.paint(stError, "✗ "+m.err) // one row: frame cuts it
	}
	return th.paint(stDim, "stopped · "+keyHint(xkeys.Again))
}

// tabs names the parts: ▸ the one shown, ✓ measured, … running.
func (m clusterModel) tabs() string {
	th := m.th
	var out []string
	for i, name := range clusterPartNames {
		mark := " "
		switch {
		case m.partDone(i):
			mark = "✓"
		case m.state == csRunning && m.partRunning(i):
			mark = "…"
		}
		t := fmt.Sprintf("%d %s %s", i+1, mark, name)
		if i == m.part {
			out = append(out, th.paint(stSelected, string(glyphPointer)+t))
		} else {
			out = append(out, th.paint(stDim, " "+t))
		}
	}
	return strings.Join(out, "  ")
}

func (m clusterModel) partDone(i int) bool {
	switch i {
	case cpHotKey:
		return m.e22 != nil
	case cpFailover:
		return m.e23Skip != "" || len(m.e23) == len(cluster.Mitigations)
	}
	return m.e21 != nil
}

func (m clusterModel) partRunning(i int) bool {
	for _, e := range cluster.Experiments { // the first part not done, in the order they run
		if p, shown := screenPart[e.Part]; shown && !m.partDone(p) {
			return p == i
		}
	}
	return false
}

// barWidth is the width of a full bar at the screen's width.
func (m clusterModel) barWidth() int { return min(max(m.w-44, 20), 50) }

// shareBar draws share (0..1) of width cells.
func shareBar(th *theme, st styleID, share float64, width int) string {
	n := min(max(int(share*float64(width)+0.5), 0), width)
	return th.paint(st, strings.Repeat(string(glyphBarUsed), n)) + strings.Repeat(" ", width-n)
}

// pending is what a part shows before its run.
func (m clusterModel) pending(what string) []string {
	th := m.th
	switch m.state {
	case csNoServer:
		return []string{th.paint(stDim, "nothing to show without a cluster: "+keyHint(xkeys.Again)+" once one is installed")}
	case csFailed:
		return append(wrapRows(th, stError, m.err, m.w, 3), th.paint(stDim, "not measured in this run: "+keyHint(xkeys.Again)))
	case csIdle:
		return []string{th.paint(stDim, "not measured in this run: "+keyHint(xkeys.Again))}
	}
	if m.how == "" {
		return wrapRows(th, stDim, "waiting for the cluster: six redis-server processes on loopback ports, "+
			"the slots split over three primaries, a replica for each, until every node reports cluster_state:ok", m.w, 3)
	}
	return []string{th.paint(stDim, what)}
}

// hotKey is E22: script calls per primary while the hot key runs, then the
// hot identity alone with and without prefetch, and the split key.
func (m clusterModel) hotKey() []string {
	th, bw := m.th, m.barWidth()
	c := cluster.DefaultHotKey("")
	if m.e22 != nil {
		c = m.e22.Config
	}
	out := wrapRows(th, stHeading, fmt.Sprintf("E22 the hot key: %d requests, %d%% from one identity, limit %d per window",
		c.Requests, c.HotPercent, c.Limit), m.w, 2)
	mixed, seen := m.live[cluster.PhaseMixed]
	if m.e22 != nil {
		mixed = cluster.HotKeyProgress{Phase: cluster.PhaseMixed, Calls: m.e22.Mixed, Hot: m.e22.HotPrimary, Final: true}
		seen = true
	}
	if !seen {
		return append(out, m.pending("E22 starts in a moment")...)
	}
	out = append(out, th.paint(stLabel, "script calls per primary (INFO commandstats)")+th.paint(stDim, phaseNote(mixed)))
	for _, s := range mixed.Calls {
		tag, st := "    ", stNone
		if s.Addr == mixed.Hot {
			tag, st = "hot ", stRejected
		}
		out = append(out, fmt.Sprintf("  %-7s %s", shortAddrs([]string{s.Addr})[0], th.paint(st, tag))+
			shareBar(th, st, s.Share, bw)+fmt.Sprintf(" %6d %5.1f%%", s.Count, 100*s.Share))
	}
	hotN := c.Requests * c.HotPercent / 100 // the bars' full width: the hot identity's requests
	out = append(out, "", th.paint(stLabel, fmt.Sprintf("the hot identity alone, %d requests: script calls on its primary", hotN)))
	rows := []struct {
		label, phase string
		result       func(cluster.HotKeyResult) int64
	}{
		{"a call each", cluster.PhaseCentral, func(r cluster.HotKeyResult) int64 { return r.HotCentral }},
		{fmt.Sprintf("prefetch, batch %d", c.Batch), cluster.PhasePrefetch, func(r cluster.HotKeyResult) int64 { return r.HotBorrow }},
	}
	for i, r := range rows {
		p, ok := m.live[r.phase]
		var n int64
		switch {
		case m.e22 != nil:
			n, ok = r.result(*m.e22), true
		case ok:
			for _, s := range p.Calls {
				if s.Addr == p.Hot {
					n = s.Count
				}
			}
		}
		if !ok {
			out = append(out, th.paint(stDim, fmt.Sprintf("  %-19s ·", r.label)))
			continue
		}
		line := fmt.Sprintf("  %-19s ", r.label) + shareBar(th, stAllowed, float64(n)/float64(max(hotN, 1)), bw) + fmt.Sprintf(" %6d", n)
		if i == 1 && m.e22 != nil {
			line += th.paint(stAllowed, fmt.Sprintf("  %.1f× fewer", m.e22.Reduction))
		}
		out = append(out, line)
	}
	if m.e22 == nil {
		return out
	}
	r := m.e22
	out = append(out, th.paint(stDim, fmt.Sprintf("  the other primaries meanwhile: %d script calls", r.OtherCalls)))
	out = append(out, fmt.Sprintf("  admitted per window, limit %d: a call each %s", c.Limit, joinCounts(r.CentralAdmitted)),
		fmt.Sprintf("  %31s prefetch    %s", "", joinCounts(r.PrefetchAdmitted)), "",
		th.paint(stLabel, fmt.Sprintf("the key split over 4 slots (%s), limit 100", strings.Join(shortAddrs(r.Split.Primaries), " "))),
		th.paint(stDim, fmt.Sprintf("  %-22s %8s %14s %15s", "demand per shard", "one key", "4 keys of 25", "4 keys of 100")))
	for _, sc := range r.Split.Cases {
		out = append(out, fmt.Sprintf("  %-22s %8d %14d %15d", joinCounts(sc.Demand), sc.Single, sc.Split, sc.FullShares))
	}
	return out
}

func phaseNote(p cluster.HotKeyProgress) string {
	if p.Final {
		return ", mixed traffic"
	}
	return ", mixed traffic, counting…"
}

// The failover timeline's marks.
const (
	glyphBefore   = '█' // admitted and replicated before the freeze
	glyphFrozen   = '▓' // admitted while the replica was frozen
	glyphKill     = '┃' // the primary killed, the replica promoted
	glyphAfter    = '░' // admitted by the promoted replica
	glyphLimitBar = '│' // the window's limit
)

var e23Labels = map[string]string{
	cluster.MitigationNone: "none", cluster.MitigationMinReplicas: "min-replicas", cluster.MitigationWait: "WAIT",
}

// failover is E23: one timeline per run (what the window admitted, in time
// order, against its limit), then the table and what each mitigation costs.
func (m clusterModel) failover() []string {
	th, c, w := m.th, m.e23cfg, m.w
	out := wrapRows(th, stHeading, fmt.Sprintf("E23 failover: limit %d; %d admitted and replicated, the replica frozen "+
		"for %v (a request per %v), the primary killed, the replica promoted (TAKEOVER)",
		c.Limit, c.Before, c.Lag, c.Every), w, 2)
	if m.e23Skip != "" {
		return append(out, wrapRows(th, stQueued, "skipped: "+m.e23Skip, w, 2)...)
	}
	if len(m.e23) == 0 {
		return append(out, m.pending("E23 runs after E22")...)
	}
	// One scale for the three timelines: the most any run admitted.
	most := c.Limit
	for _, r := range m.e23 {
		most = max(most, r.Total)
	}
	bw := m.barWidth()
	out = append(out, "", th.paint(stLabel, "what the window admitted, in time order"))
	for _, mit := range []string{cluster.MitigationNone, cluster.MitigationMinReplicas, cluster.MitigationWait} {
		label := fmt.Sprintf("  %-13s", e23Labels[mit])
		r, ok := e23Run(m.e23, mit)
		if !ok {
			out = append(out, th.paint(stDim, label+"·"))
			continue
		}
		over := th.paint(stDim, "within the limit")
		if r.OverAdmitted > 0 {
			over = th.paint(stRejected, fmt.Sprintf("+%d over", r.OverAdmitted))
		}
		out = append(out, label+e23Timeline(th, r, c.Limit, float64(bw)/float64(most))+fmt.Sprintf(" %5d ", r.Total)+over)
	}
	out = append(out, th.paint(stDim, fmt.Sprintf("  %c before  %c while frozen  %c refused  %c kill → promoted  %c after  %c limit",
		glyphBefore, glyphFrozen, glyphRejected, glyphKill, glyphAfter, glyphLimitBar)), "")
	out = append(out, m.e23Table()...)
	for _, r := range m.e23 {
		switch r.Mitigation {
		case cluster.MitigationMinReplicas:
			out = append(out, wrapRows(th, stDim, fmt.Sprintf("min-replicas-to-write 1, max lag %d s: writes refused from %d ms into the freeze "+
				"(%.0f ms each); the new primary, replica-less, refused for %d ms", c.MaxLag, r.FirstRefuse, r.RefuseMs, r.NoReplicaMs), w, 2)...)
		case cluster.MitigationWait:
			out = append(out, wrapRows(th, stDim, fmt.Sprintf("WAIT 1 %v per decision: p50 %d → %d µs, p99 %d → %d µs with a healthy replica; "+
				"frozen, each decision waited %.0f ms and was refused", c.WaitTimeout, r.PlainP50, r.WaitP50, r.PlainP99, r.WaitP99, r.RefuseMs), w, 2)...)
		}
	}
	return out
}

func e23Run(runs []cluster.FailoverRun, mit string) (cluster.FailoverRun, bool) {
	for _, r := range runs {
		if r.Mitigation == mit {
			return r, true
		}
	}
	return cluster.FailoverRun{}, false
}

// e23Timeline draws one run at scale cells per request: before █, while frozen
// ▓, ✗ where requests were refused, ┃ the failover, after ░, and │ where the
// window's count reaches the limit (what is right of it is over-admitted).
func e23Timeline(th *theme, r cluster.FailoverRun, limit int, scale float64) string {
	var b strings.Builder
	done, cells := 0, 0 // requests drawn, columns they take
	run := func(n int, g rune, st styleID) {
		if n <= 0 {
			return
		}
		end := max(int(float64(done+n)*scale+0.5), cells+1) // never a segment of no cells
		b.WriteString(th.paint(st, strings.Repeat(string(g), end-cells)))
		done, cells = done+n, end
	}
	mark := func(on bool, g rune, st styleID) {
		if on {
			b.WriteString(th.paint(st, string(g)))
		}
	}
	run(r.Before, glyphBefore, stAllowed)
	run(r.LagAdmitted, glyphFrozen, stQueued)
	mark(r.LagRefused > 0, glyphRejected, stRejected)
	mark(true, glyphKill, stFrame)
	mark(r.AfterRefused > 0, glyphRejected, stRejected)
	within := min(r.AfterAdmitted, max(limit-done, 0))
	run(within, glyphAfter, stAllowed)
	if done < limit { // under the limit: the mark where it would be
		at := int(float64(limit)*scale + 0.5)
		b.WriteString(strings.Repeat(" ", max(at-cells, 0)))
		cells = max(cells, at)
	}
	mark(true, glyphLimitBar, stLabel)
	run(r.AfterAdmitted-within, glyphAfter, stRejected)
	return b.String()
}

// e23Table is the three runs side by side, every figure a field of cluster.FailoverRun.
func (m clusterModel) e23Table() []string {
	th := m.th
	var rows [][]string
	for _, r := range m.e23 {
		cost := "—"
		switch r.Mitigation {
		case cluster.MitigationMinReplicas:
			cost = fmt.Sprintf("refusal %.0f ms", r.RefuseMs)
		case cluster.MitigationWait:
			cost = fmt.Sprintf("p50 %d→%d µs", r.PlainP50, r.WaitP50)
		}
		rows = append(rows, []string{r.Mitigation, fmt.Sprint(r.Before), fmt.Sprint(r.LagAdmitted), fmt.Sprint(r.Forgotten),
			fmt.Sprint(r.OverAdmitted), fmt.Sprint(r.LagRefused), cost})
	}
	widths := []int{22, 7, 7, 7, 6, 8, 16}
	t := table.New().Headers("mitigation", "before", "frozen", "forgot", "over", "refused", "  latency").Rows(rows...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := th.s[stNone]
			if row == table.HeaderRow {
				s = th.s[stLabel]
			}
			s = s.Width(widths[col])
			if col > 0 && col < 6 {
				s = s.Align(lipgloss.Right)
			} else if col == 6 {
				s = s.PaddingLeft(2)
			}
			return s
		})
	head := "admitted before the kill (before the freeze, while frozen), forgotten by the promoted replica, " +
		"over-admitted, refused while frozen, what a decision costs"
	return append(wrapRows(th, stDim, head, m.w, 2), splitLines(t.String())...)
}

// hashTags is E21: one identity's keys in one slot, CROSSSLOT without a
// shared tag, and 10,000 identities over the primaries.
func (m clusterModel) hashTags() []string {
	th, bw := m.th, m.barWidth()
	out := []string{th.paint(stHeading, "E21 hash tags: rl:{id}:kind puts every key of an identity in one slot")}
	if m.e21 == nil {
		return append(out, m.pending("E21 runs after E23")...)
	}
	r := m.e21
	out = append(out,
		fmt.Sprintf("  the %d keys of %s: all in slot %d (CLUSTER KEYSLOT)", len(r.KeySlots), "one identity", r.Slot))
	out = append(out, hanging(wrapRows(th, stNone, "a script over two keys without a shared tag: "+r.CrossSlot, m.w-4, 2), "  ", "    ")...)
	out = append(out, "  the same script over two keys under one tag: ran, returned "+r.SharedTag, "",
		th.paint(stLabel, fmt.Sprintf("%d identities over the primaries", r.IDs)))
	for _, s := range r.Split {
		out = append(out, fmt.Sprintf("  %-7s %5d slots ", shortAddrs([]string{s.Addr})[0], s.Slots)+
			shareBar(th, stAllowed, s.Share, bw)+fmt.Sprintf(" %5d %5.1f%%", s.Count, 100*s.Share))
	}
	return out
}
