package cluster

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
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
		run     distributed.E23Run
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
	cl      *redistest.Cluster
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
func (r *clusterRun) hold(cl *redistest.Cluster) bool {
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

// runClusterParts is the real run: a cluster from OpenCluster, then E22,
// E23 (on a cluster it started: it kills a primary) and E21, each result
// sent as it is measured.
func runClusterParts(r *clusterRun) {
	ctx := r.ctx
	cl, err := redistest.OpenCluster(ctx)
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

func clusterParts(ctx context.Context, r *clusterRun, cl *redistest.Cluster) error {
	cc := redis.NewClusterClient(cl.Options())
	defer cc.Close()
	prefix := fmt.Sprintf("tui-%d-%d", os.Getpid(), time.Now().UnixNano())

	r.emit(clusterStage{cpHotKey, "E22 the hot key"})
	e22, err := distributed.RunE22Watch(ctx, cc, distributed.DefaultE22(prefix), func(p distributed.E22Progress) {
		if p.Final {
			r.emit(p) // a phase's own counts: never dropped
		} else {
			r.tryEmit(p)
		}
	})
	if err != nil {
		return fmt.Errorf("E22: %w", err)
	}
	r.emit(e22)

	if !cl.Owned() {
		r.emit(clusterE23{skipped: "E23 kills a primary: it runs only on a cluster this screen starts (unset REDIS_CLUSTER_ADDRS)"})
	} else {
		for i, mit := range []string{distributed.MitigationNone, distributed.MitigationMinReplicas, distributed.MitigationWait} {
			r.emit(clusterStage{cpFailover, fmt.Sprintf("E23 failover %d of 3 (%s): freeze the replica, kill the primary, promote", i+1, mit)})
			run, err := distributed.RunE23(ctx, cc, cl, distributed.DefaultE23(prefix), mit)
			if err != nil {
				return fmt.Errorf("E23 (%s): %w", mit, err)
			}
			r.emit(clusterE23{run: run})
		}
	}

	r.emit(clusterStage{cpHashTags, "E21 hash tags: 10000 identities"})
	e21, err := distributed.RunE21(ctx, cc, prefix, 10000)
	if err != nil {
		return fmt.Errorf("E21: %w", err)
	}
	r.emit(e21)
	return nil
}
