package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
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

// DefaultHotKey is the run of the README: 10,000 requests, 80 % from one
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
	res := HotKeyResult{Config: c, Hot: c.Prefix + "-hot"}
	if err := c.Validate(); err != nil {
		return res, err
	}
	top, err := topology(ctx, cc)
	if err != nil {
		return res, err
	}
	owner, _ := top.Owner(KeySlot(distributed.Key(res.Hot, "fw")))
	res.HotPrimary = owner.Addr
	var addrs []string
	for _, p := range top.Primaries() {
		addrs = append(addrs, p.Addr)
	}
	nodes := redisproc.NodeClients(addrs...)
	defer redisproc.CloseAll(nodes)
	read := func() (map[string]int64, error) {
		m := map[string]int64{}
		for a, n := range nodes {
			calls, err := scriptCalls(ctx, n)
			if err != nil {
				return nil, err
			}
			m[a] = calls
		}
		return m, nil
	}
	counted := func(phase string, run func() error) (map[string]int64, error) {
		for _, n := range nodes {
			if err := n.ConfigResetStat(ctx).Err(); err != nil {
				return nil, err
			}
		}
		stop := make(chan struct{})
		var watching sync.WaitGroup
		if watch != nil {
			watching.Add(1)
			go func() {
				defer watching.Done()
				t := time.NewTicker(WatchEvery)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						if m, err := read(); err == nil {
							watch(HotKeyProgress{Phase: phase, Hot: res.HotPrimary, Calls: shares(top, m)})
						}
					}
				}
			}()
		}
		err := run()
		close(stop)
		watching.Wait()
		if err != nil {
			return nil, err
		}
		m, err := read()
		if err == nil && watch != nil {
			watch(HotKeyProgress{Phase: phase, Hot: res.HotPrimary, Calls: shares(top, m), Final: true})
		}
		return m, err
	}

	perWindow := c.Requests / c.Windows
	base := time.UnixMilli(1_700_000_040_000).Truncate(c.Window) // explicit, aligned instants
	at := func(w, i, n int) time.Time {
		return base.Add(time.Duration(w)*c.Window + time.Duration(i)*c.Window/time.Duration(n))
	}
	fw, err := distributed.NewFixedWindow(cc, fixedwindow.Config{Window: c.Window, Limit: c.Limit})
	if err != nil {
		return res, err
	}
	if err := warm(ctx, cc, top, c.Prefix, true, fw); err != nil {
		return res, err
	}

	// 1. Mixed traffic, one script call per request.
	hot, cold := c.HotPercent, 100-c.HotPercent
	var admitted []atomic.Int64
	mixed, err := counted(PhaseMixed, func() error {
		admitted = make([]atomic.Int64, c.Windows)
		return runWindows(ctx, c.Windows, perWindow, c.Workers, func(w, i int) error {
			id := res.Hot
			if i%100 >= hot { // the k-th request of someone else
				k := i/100*cold + i%100 - hot
				id = fmt.Sprintf("%s-%d", c.Prefix, k%c.Spread)
			}
			d, err := fw.AllowNAt(ctx, id, at(w, i, perWindow), 1)
			if err == nil && d.Allowed && id == res.Hot {
				admitted[w].Add(1)
			}
			return err
		})
	})
	if err != nil {
		return res, err
	}
	res.MixedAdmitted = loads(admitted)
	res.Mixed = shares(top, mixed)
	for _, s := range res.Mixed {
		if s.Addr == res.HotPrimary {
			res.HotShare = s.Share
		}
	}

	// 2. The hot identity's requests alone, in later windows: once with a
	// script call each, once through prefetch.
	nHot := perWindow * c.HotPercent / 100
	hotOnly := func(phase string, first int, decide func(t time.Time, i int) (bool, error)) (map[string]int64, []int64, error) {
		admitted := make([]atomic.Int64, c.Windows)
		m, err := counted(phase, func() error {
			return runWindows(ctx, c.Windows, nHot, c.Workers, func(w, i int) error {
				ok, err := decide(at(first+w, i, nHot), i)
				if ok {
					admitted[w].Add(1)
				}
				return err
			})
		})
		return m, loads(admitted), err
	}
	m, central, err := hotOnly(PhaseCentral, c.Windows, func(t time.Time, _ int) (bool, error) {
		d, err := fw.AllowNAt(ctx, res.Hot, t, 1)
		return d.Allowed, err
	})
	if err != nil {
		return res, err
	}
	res.CentralAdmitted, res.HotCentral = central, m[res.HotPrimary]
	app := make([]*distributed.PrefetchNode, c.AppNodes)
	bc := distributed.BorrowConfig{Key: distributed.Key(res.Hot, "prefetch"), Limit: c.Limit, Batch: c.Batch, Window: c.Window}
	for k := range app {
		if app[k], err = distributed.NewPrefetchNode(cc, bc, distributed.NodeOptions{Timeout: time.Second}); err != nil {
			return res, err
		}
	}
	m, res.PrefetchAdmitted, err = hotOnly(PhasePrefetch, 2*c.Windows, func(t time.Time, i int) (bool, error) {
		return app[i%len(app)].AllowAt(ctx, t)
	})
	if err != nil {
		return res, err
	}
	res.HotBorrow = m[res.HotPrimary]
	for a, n := range m {
		if a != res.HotPrimary {
			res.OtherCalls += n
		}
	}
	if res.HotBorrow > 0 {
		res.Reduction = float64(res.HotCentral) / float64(res.HotBorrow)
	}

	res.Split, err = splitOnCluster(ctx, cc, top, c.Prefix+"-split", base)
	return res, err
}
