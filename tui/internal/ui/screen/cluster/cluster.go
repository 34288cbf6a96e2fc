package cluster

import (
	"errors"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
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

type Model struct {
	th   *widget.Theme
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

	live    map[string]part3.HotKeyProgress // E22's latest report per phase
	e22     *part3.HotKeyResult
	e23cfg  part3.FailoverConfig
	e23     []part3.FailoverRun
	e23Skip string
	e21     *part3.HashTagResult

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

func New(th *widget.Theme) Model {
	return Model{th: th, help: widget.NewHelp(th), work: clusterWork,
		spin: spinner.New(spinner.WithSpinner(clusterSpinner), spinner.WithStyle(th.S[widget.StLabel]))}
}

// open shows the last complete run, or starts a new one.
func (m Model) open() (Model, tea.Cmd) {
	if m.state == csDone || m.state == csRunning {
		return m, nil
	}
	return m.start()
}

// start begins a run from scratch.
func (m Model) start() (Model, tea.Cmd) {
	w, h, th, hp, spin, work := m.w, m.h, m.th, m.help, m.spin, m.work
	m = Model{th: th, w: w, h: h, help: hp, spin: spin, work: work}
	m.run, m.state, m.follow = newClusterRun(), csRunning, true
	m.live = map[string]part3.HotKeyProgress{}
	m.e23cfg = part3.DefaultFailover("")
	m.stage = "starting a Redis Cluster: 3 primaries + 3 replicas from redis-server"
	m.began = time.Now()
	return m, tea.Batch(m.run.begin(m.work), m.run.listen(), m.spin.Tick)
}

// leave stops a run under way and tears its cluster down; the screen then
// starts afresh next time.
func (m Model) leave() Model {
	if m.state == csRunning && m.run != nil {
		m.run.stop()
		m.state = csIdle
	}
	return m
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
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
		case key.Matches(msg, keys.Next):
			m.part, m.follow = (m.part+1)%nClusterParts, false
		case key.Matches(msg, keys.Prev):
			m.part, m.follow = (m.part+nClusterParts-1)%nClusterParts, false
		case key.Matches(msg, keys.Part):
			m.part, m.follow = int(msg.String()[0]-'1'), false
		case key.Matches(msg, keys.Again) && m.state != csRunning:
			return m.start()
		}
	}
	return m, nil
}

// apply takes one event of the run.
func (m Model) apply(ev any) Model {
	switch ev := ev.(type) {
	case clusterStarted:
		m.how, m.nodes, m.owned = ev.how, ev.nodes, ev.owned
	case clusterStage:
		m.stage = ev.what
		if m.follow {
			m.part = ev.part
		}
	case part3.HotKeyProgress:
		m.live[ev.Phase] = ev
		m.stage = "E22 the hot key: " + e22PhaseText[ev.Phase]
		if ev.Final && ev.Phase == part3.PhasePrefetch {
			m.stage = "E22 the hot key: the split key"
		}
	case part3.HotKeyResult:
		m.e22 = &ev
	case clusterE23:
		if ev.skipped != "" {
			m.e23Skip = ev.skipped
		} else {
			m.e23 = append(m.e23, ev.run)
		}
	case part3.HashTagResult:
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
	part3.PhaseMixed:    "mixed traffic, one identity sends 80%",
	part3.PhaseCentral:  "the hot identity alone, a script call each",
	part3.PhasePrefetch: "the hot identity alone, through prefetch",
}

func (m Model) wantsEsc() bool      { return false }
func (m Model) keyMap() help.KeyMap { return clusterHelp{running: m.state == csRunning} }
