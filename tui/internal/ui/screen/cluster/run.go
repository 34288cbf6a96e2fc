package cluster

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/redis/go-redis/v9"

	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

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
		run     part3.FailoverRun
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
// parts this screen shows in part3.Experiments' order (E23 only on a
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
	var ctl part3.NodeControl
	if cl.Owned() {
		ctl = cl
	}
	report := func(ev any) {
		switch ev := ev.(type) {
		case part3.Stage:
			r.emit(clusterStage{screenPart[ev.Part], ev.What})
		case part3.HotKeyProgress:
			if ev.Final {
				r.emit(ev) // a phase's own counts: never dropped
			} else {
				r.tryEmit(ev)
			}
		case part3.Skipped:
			r.emit(clusterE23{skipped: ev.Why})
		case part3.FailoverRun:
			r.emit(clusterE23{run: ev})
		default: // HashTagResult, HotKeyResult
			r.emit(ev)
		}
	}
	for _, e := range part3.Experiments { // the parts this screen shows, in the one order
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
var screenPart = map[part3.Part]int{part3.PartHotKey: cpHotKey, part3.PartFailover: cpFailover, part3.PartHashTags: cpHashTags}
