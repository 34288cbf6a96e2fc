package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// HotKeyConfig is the hot-key run: Requests spread evenly over Windows aligned
// windows; of every 100 requests the first HotPercent are one identity's and
// the rest go round-robin to Spread others; every identity may make Limit
// requests per Window.
type HotKeyConfig struct {
	Prefix     string        `json:"-"`
	Requests   int           `json:"requests"`
	HotPercent int           `json:"hot_percent"`
	Spread     int           `json:"spread_ids"`
	Limit      int           `json:"limit"`
	Window     time.Duration `json:"window_ns"`
	Windows    int           `json:"windows"`
	Batch      int           `json:"batch"`     // prefetch batch
	AppNodes   int           `json:"app_nodes"` // prefetch nodes sharing the hot identity's limit
	Workers    int           `json:"workers"`   // goroutines sending requests
}

// DefaultHotKey is the run of CLUSTER.md: 10,000 requests, 80 % from one
// identity, 200 others, 1,000 per window each, four windows, prefetch batch
// 25 on four app nodes, eight goroutines. The windows are a minute wide but
// stamped explicitly, so a run takes as long as its requests do.
func DefaultHotKey(prefix string) HotKeyConfig {
	return HotKeyConfig{Prefix: prefix, Requests: 10000, HotPercent: 80, Spread: 200, Limit: 1000,
		Window: time.Minute, Windows: 4, Batch: 25, AppNodes: 4, Workers: 8}
}

// Validate reports the first bad field as a *core.ParamError.
func (c HotKeyConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"requests", c.Requests}, {"windows", c.Windows}, {"spread", c.Spread}, {"limit", c.Limit},
		{"batch", c.Batch}, {"app nodes", c.AppNodes}, {"workers", c.Workers}} {
		if f.v < 1 {
			return core.BadParam(f.name, f.v, "an integer >= 1")
		}
	}
	if c.HotPercent < 0 || c.HotPercent > 100 {
		return core.BadParam("hot percent", c.HotPercent, "an integer from 0 to 100")
	}
	if c.Window < time.Millisecond || c.Window%time.Millisecond != 0 {
		return core.BadParam("window", c.Window, "a whole number of milliseconds >= 1ms")
	}
	return checkPrefix(c.Prefix)
}

// HotKeyResult is what RunHotKey measured.
type HotKeyResult struct {
	Config     HotKeyConfig   `json:"config"`
	Hot        string         `json:"hot_id"`
	HotPrimary string         `json:"hot_primary"`
	Mixed      []PrimaryShare `json:"mixed"`       // script calls per primary, every request a script call
	HotShare   float64        `json:"hot_share"`   // the hot primary's share of Mixed
	HotCentral int64          `json:"hot_central"` // the hot identity alone: its primary's script calls, no prefetch
	HotBorrow  int64          `json:"hot_borrow"`  // the same requests through prefetch
	OtherCalls int64          `json:"other_calls"` // script calls on the other primaries in the hot-only runs
	Reduction  float64        `json:"reduction"`   // HotCentral / HotBorrow
	// The hot identity's admitted requests per aligned window: mixed run,
	// hot alone without prefetch, hot alone with prefetch.
	MixedAdmitted    []int64     `json:"mixed_admitted"`
	CentralAdmitted  []int64     `json:"central_admitted"`
	PrefetchAdmitted []int64     `json:"prefetch_admitted"`
	Split            SplitResult `json:"split"`
}

// The counted phases of E22, as HotKeyProgress names them.
const (
	PhaseMixed    = "mixed"        // every request a script call, HotPercent from one identity
	PhaseCentral  = "hot-central"  // the hot identity alone, a script call each
	PhasePrefetch = "hot-prefetch" // the hot identity alone, through prefetch
)

// HotKeyProgress is how far a watched E22 run has got: the counted phase
// running and the script calls each primary has served in it so far (INFO
// commandstats, reset when the phase began). Final marks a phase's last
// report, whose counts are the ones HotKeyResult gives.
type HotKeyProgress struct {
	Phase string
	Hot   string // the hot identity's primary
	Calls []PrimaryShare
	Final bool
}

// WatchEvery is how often RunHotKey reads the counts while a phase runs.
const WatchEvery = 100 * time.Millisecond

// RunHotKey measures the hot key (E22) on the cluster behind cc: the share
// of script calls each primary serves under mixed traffic (INFO
// commandstats, reset before each phase), the hot identity's calls with and
// without local prefetch, what each admits per window, and the split key.
// It reports each counted phase to watch as it runs (one report at a time,
// from other goroutines; nil: none). The reads are INFO calls, which the
// script counts leave out.
func RunHotKey(ctx context.Context, cc *redis.ClusterClient, c HotKeyConfig, watch func(HotKeyProgress)) (HotKeyResult, error) {
	h := &hotKey{ctx: ctx, cc: cc, c: c, watch: watch, res: HotKeyResult{Config: c, Hot: c.Prefix + "-hot"}}
	defer h.close()
	err := runPhases(
		c.Validate,
		h.findPrimaries, // the hot identity's primary; a client for every primary
		h.prepare,       // the limiter, its scripts cached on every primary
		h.mixed,         // 1. mixed traffic, one script call per request
		h.hotCentral,    // 2. the hot identity alone, a script call each,
		h.hotPrefetch,   //    then through prefetch, in later windows
		h.split,         // the same limit split over several keys
	)
	return h.res, err
}

// hotKey is one RunHotKey under way: the primaries it counts on, the
// limiter it decides with, and what it has measured so far in res.
type hotKey struct {
	ctx   context.Context
	cc    *redis.ClusterClient
	c     HotKeyConfig
	watch func(HotKeyProgress)
	res   HotKeyResult

	top       redisproc.Topology
	nodes     map[string]*redis.Client // every primary, by address
	perWindow int                      // requests per window in the mixed phase
	base      time.Time                // the first window's start
	fw        *distributed.FixedWindow
}

// close closes the clients of the primaries.
func (h *hotKey) close() { redisproc.CloseAll(h.nodes) }

// findPrimaries reads the cluster's topology, the hot identity's primary,
// and opens a client to every primary.
func (h *hotKey) findPrimaries() error {
	var err error
	if h.top, err = topology(h.ctx, h.cc); err != nil {
		return err
	}
	owner, _ := h.top.Owner(KeySlot(distributed.Key(h.res.Hot, "fw")))
	h.res.HotPrimary = owner.Addr
	var addrs []string
	for _, p := range h.top.Primaries() {
		addrs = append(addrs, p.Addr)
	}
	h.nodes = redisproc.NodeClients(addrs...)
	return nil
}

// prepare builds the fixed window every central decision goes through and
// caches its scripts, and prefetch's, on every primary.
func (h *hotKey) prepare() error {
	h.perWindow = h.c.Requests / h.c.Windows
	h.base = time.UnixMilli(1_700_000_040_000).Truncate(h.c.Window) // explicit, aligned instants
	var err error
	if h.fw, err = fixedWindow(h.cc, h.c.Window, h.c.Limit); err != nil {
		return err
	}
	return warm(h.ctx, h.cc, h.top, h.c.Prefix, true, h.fw)
}

// at is the instant of request i of n in window w.
func (h *hotKey) at(w, i, n int) time.Time {
	return h.base.Add(time.Duration(w)*h.c.Window + time.Duration(i)*h.c.Window/time.Duration(n))
}

// mixed sends the mixed traffic, a script call per request, and records
// each primary's share of the calls and what the hot identity was admitted.
func (h *hotKey) mixed() error {
	admitted := make([]atomic.Int64, h.c.Windows)
	calls, err := h.counted(PhaseMixed, func() error {
		return runWindows(h.ctx, h.c.Windows, h.perWindow, h.c.Workers, func(w, i int) error {
			id := h.mixedID(i)
			d, err := h.fw.AllowNAt(h.ctx, id, h.at(w, i, h.perWindow), 1)
			if err == nil && d.Allowed && id == h.res.Hot {
				admitted[w].Add(1)
			}
			return err
		})
	})
	if err != nil {
		return err
	}
	h.res.MixedAdmitted = loads(admitted)
	h.res.Mixed = shares(h.top, calls)
	for _, s := range h.res.Mixed {
		if s.Addr == h.res.HotPrimary {
			h.res.HotShare = s.Share
		}
	}
	return nil
}

// mixedID is the identity of the mixed phase's request i: of every 100,
// the first HotPercent are the hot identity's; the rest go round-robin to
// the Spread others.
func (h *hotKey) mixedID(i int) string {
	hot, cold := h.c.HotPercent, 100-h.c.HotPercent
	if i%100 < hot {
		return h.res.Hot
	}
	k := i/100*cold + i%100 - hot // the k-th request of someone else
	return fmt.Sprintf("%s-%d", h.c.Prefix, k%h.c.Spread)
}

// hotCentral sends the hot identity's requests alone, a script call each,
// in the windows after the mixed phase's.
func (h *hotKey) hotCentral() error {
	calls, admitted, err := h.hotOnly(PhaseCentral, h.c.Windows, func(t time.Time, _ int) (bool, error) {
		d, err := h.fw.AllowNAt(h.ctx, h.res.Hot, t, 1)
		return d.Allowed, err
	})
	if err != nil {
		return err
	}
	h.res.CentralAdmitted, h.res.HotCentral = admitted, calls[h.res.HotPrimary]
	return nil
}

// hotPrefetch sends the same requests through AppNodes prefetch nodes that
// share the hot identity's limit, in the windows after hotCentral's, and
// compares the script calls.
func (h *hotKey) hotPrefetch() error {
	app := make([]*distributed.PrefetchNode, h.c.AppNodes)
	bc := distributed.BorrowConfig{Key: distributed.Key(h.res.Hot, "prefetch"), Limit: h.c.Limit, Batch: h.c.Batch, Window: h.c.Window}
	for k := range app {
		var err error
		if app[k], err = distributed.NewPrefetchNode(h.cc, bc, distributed.NodeOptions{Timeout: time.Second}); err != nil {
			return err
		}
	}
	calls, admitted, err := h.hotOnly(PhasePrefetch, 2*h.c.Windows, func(t time.Time, i int) (bool, error) {
		return app[i%len(app)].AllowAt(h.ctx, t)
	})
	h.res.PrefetchAdmitted = admitted
	if err != nil {
		return err
	}
	h.res.HotBorrow = calls[h.res.HotPrimary]
	for a, n := range calls {
		if a != h.res.HotPrimary {
			h.res.OtherCalls += n
		}
	}
	if h.res.HotBorrow > 0 {
		h.res.Reduction = float64(h.res.HotCentral) / float64(h.res.HotBorrow)
	}
	return nil
}

// split measures the split key on the same cluster.
func (h *hotKey) split() error {
	var err error
	h.res.Split, err = splitOnCluster(h.ctx, h.cc, h.top, h.c.Prefix+"-split", h.base)
	return err
}

// hotOnly sends the hot identity's share of each window alone, starting
// at window first, deciding request i at instant t with decide. It returns
// the script calls per primary and what was admitted per window.
func (h *hotKey) hotOnly(phase string, first int, decide func(t time.Time, i int) (bool, error)) (map[string]int64, []int64, error) {
	nHot := h.perWindow * h.c.HotPercent / 100
	admitted := make([]atomic.Int64, h.c.Windows)
	calls, err := h.counted(phase, func() error {
		return runWindows(h.ctx, h.c.Windows, nHot, h.c.Workers, func(w, i int) error {
			ok, err := decide(h.at(first+w, i, nHot), i)
			if ok {
				admitted[w].Add(1)
			}
			return err
		})
	})
	return calls, loads(admitted), err
}

// counted resets every primary's statistics, runs run while it reports
// the phase's counts to watch, and returns the script calls each primary
// served, reporting them once more as the phase's final counts.
func (h *hotKey) counted(phase string, run func() error) (map[string]int64, error) {
	for _, n := range h.nodes {
		if err := n.ConfigResetStat(h.ctx).Err(); err != nil {
			return nil, err
		}
	}
	stop := h.watchPhase(phase)
	err := run()
	stop()
	if err != nil {
		return nil, err
	}
	calls, err := h.readCalls()
	if err == nil && h.watch != nil {
		h.watch(HotKeyProgress{Phase: phase, Hot: h.res.HotPrimary, Calls: shares(h.top, calls), Final: true})
	}
	return calls, err
}

// watchPhase reports the phase's counts to watch every WatchEvery, from a
// goroutine of its own, until stop is called; stop returns once the
// goroutine has ended. Without watch it does nothing.
func (h *hotKey) watchPhase(phase string) (stop func()) {
	if h.watch == nil {
		return func() {}
	}
	done := make(chan struct{})
	var watching sync.WaitGroup
	watching.Add(1)
	go func() {
		defer watching.Done()
		t := time.NewTicker(WatchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if calls, err := h.readCalls(); err == nil {
					h.watch(HotKeyProgress{Phase: phase, Hot: h.res.HotPrimary, Calls: shares(h.top, calls)})
				}
			}
		}
	}()
	return func() {
		close(done)
		watching.Wait()
	}
}

// readCalls reads how many scripts each primary has run since the phase
// began.
func (h *hotKey) readCalls() (map[string]int64, error) {
	m := map[string]int64{}
	for a, n := range h.nodes {
		calls, err := scriptCalls(h.ctx, n)
		if err != nil {
			return nil, err
		}
		m[a] = calls
	}
	return m, nil
}
