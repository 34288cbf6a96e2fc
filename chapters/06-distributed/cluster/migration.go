package cluster

import (
	"context"
	"fmt"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// MigrationConfig is a slot migration under traffic: Workers goroutines
// decide requests for one identity (a fixed window and a sliding log of
// Limit, one explicit instant) while its slot, with Fillers more keys of the
// same tag, moves to another primary in batches of Batch keys. The slot is
// held MIGRATING for Hold before the keys move and for Hold after, so that
// requests meet each state; traffic stops once the slot has moved, Requests
// were sent, and StartAt more went after the move (so that requests reach
// the new owner however long the move took).
type MigrationConfig struct {
	Prefix   string        `json:"-"`
	Limit    int           `json:"limit"`
	Requests int           `json:"requests"`
	StartAt  int           `json:"start_at"` // requests sent before the migration starts
	Workers  int           `json:"workers"`
	Fillers  int           `json:"fillers"`
	Batch    int           `json:"batch"`
	Hold     time.Duration `json:"hold_ns"`
}

// DefaultMigration is CLUSTER.md's run: limit 1,000, at least 2,500
// requests from 8 goroutines, the migration starting after 300, 2,000
// filler keys moved 100 at a time, 150 ms in each intermediate state.
func DefaultMigration(prefix string) MigrationConfig {
	return MigrationConfig{Prefix: prefix, Limit: 1000, Requests: 2500, StartAt: 300, Workers: 8,
		Fillers: 2000, Batch: 100, Hold: 150 * time.Millisecond}
}

// MigrationResult is what RunMigration measured.
type MigrationResult struct {
	Config      MigrationConfig `json:"config"`
	ID          string          `json:"id"`
	Slot        int             `json:"slot"`
	From        string          `json:"from"`
	To          string          `json:"to"`
	Keys        int             `json:"keys_moved"`
	Sent        int64           `json:"sent"`
	During      int64           `json:"during"` // decided between IMPORTING and the last SETSLOT NODE
	Errors      int64           `json:"errors"`
	AdmittedFW  int64           `json:"admitted_fixed_window"`
	AdmittedLog int64           `json:"admitted_sliding_log"`
	CountOnTo   int64           `json:"count_on_target"` // the fixed window's count, read on the new owner
	Asking      int64           `json:"asking"`          // ASKING commands the target received: ASK followed
	Moved       int64           `json:"moved"`           // MOVED replies the client followed
	TookMs      int64           `json:"took_ms"`         // IMPORTING → last SETSLOT NODE
}

// RunMigration moves one identity's slot to another primary while traffic
// runs (CLUSTER SETSLOT IMPORTING / MIGRATING, MIGRATE, SETSLOT NODE, as
// redis-cli --cluster reshard does) through a fresh ClusterClient with cc's
// options, which counts the MOVED replies its nodes return.
func RunMigration(ctx context.Context, cc *redis.ClusterClient, cfg MigrationConfig) (MigrationResult, error) {
	m := &migration{ctx: ctx, cc: cc, cfg: cfg, res: MigrationResult{Config: cfg, ID: cfg.Prefix + "-moving"}, started: make(chan struct{})}
	m.until.Store(math.MaxInt64)
	defer m.close()
	err := runPhases(
		m.connect,          // a client of its own that counts MOVED
		m.pickSlot,         // the identity's slot, its owner and the primary it moves to
		m.fill,             // filler keys in the slot; the two primaries' statistics reset
		m.limiters,         // a fixed window and a sliding log, their scripts cached
		m.moveUnderTraffic, // the slot moves while requests keep coming
		m.readTarget,       // what the new owner counted, and the redirections
	)
	return m.res, err
}

// migration is one RunMigration under way: its client, the slot's old and
// new owner, the limiters the traffic decides with, and what it has
// measured so far in res.
type migration struct {
	ctx context.Context
	cc  *redis.ClusterClient // the client whose options the run copies
	cfg MigrationConfig
	res MigrationResult

	client   *redis.ClusterClient
	moved    atomic.Int64 // MOVED replies client's nodes returned
	top      redisproc.Topology
	from, to redisproc.Node
	nodes    map[string]*redis.Client // from and to, by address
	src, dst *redis.Client            // from and to, directly
	fw       *distributed.FixedWindow
	log      *distributed.SlidingLog
	at       time.Time // the one instant every decision is stamped with

	migrating atomic.Bool   // the slot is being moved
	until     atomic.Int64  // traffic stops after this many requests, set when the slot has moved
	started   chan struct{} // closed once StartAt requests were sent
	startOnce sync.Once
}

// close closes the clients the run opened.
func (m *migration) close() {
	redisproc.CloseAll(m.nodes)
	if m.client != nil {
		_ = m.client.Close()
	}
}

// connect checks the identity and opens a client with cc's options whose
// node clients count the MOVED replies they see.
func (m *migration) connect() error {
	if err := checkPrefix(m.res.ID); err != nil {
		return err
	}
	opt := *m.cc.Options()
	m.client = redis.NewClusterClient(&opt)
	m.client.OnNewNode(func(rdb *redis.Client) { rdb.AddHook(movedCounter{&m.moved}) })
	return nil
}

// pickSlot finds the identity's slot, the primary that owns it and another
// primary to move it to, and opens a client to each.
func (m *migration) pickSlot() error {
	var err error
	if m.top, err = topology(m.ctx, m.client); err != nil {
		return err
	}
	m.res.Slot = KeySlot(distributed.Key(m.res.ID, "fw"))
	var ok bool
	if m.from, ok = m.top.Owner(m.res.Slot); !ok {
		return fmt.Errorf("slot %d has no primary", m.res.Slot)
	}
	for _, p := range m.top.Primaries() {
		if p.ID != m.from.ID {
			m.to = p
			break
		}
	}
	m.res.From, m.res.To = m.from.Addr, m.to.Addr
	m.nodes = redisproc.NodeClients(m.from.Addr, m.to.Addr)
	m.src, m.dst = m.nodes[m.from.Addr], m.nodes[m.to.Addr]
	return nil
}

// fill writes Fillers keys under the identity's tag, so that the slot has
// keys to move, then resets both primaries' statistics.
func (m *migration) fill() error {
	pipe := m.client.Pipeline()
	for i := 0; i < m.cfg.Fillers; i++ {
		pipe.Set(m.ctx, distributed.Key(m.res.ID, fmt.Sprintf("filler:%d", i)), i, 10*time.Minute)
	}
	if _, err := pipe.Exec(m.ctx); err != nil {
		return err
	}
	for _, n := range m.nodes {
		if err := n.ConfigResetStat(m.ctx).Err(); err != nil {
			return err
		}
	}
	return nil
}

// limiters builds the fixed window and the sliding log the traffic decides
// with and caches their scripts on every primary.
func (m *migration) limiters() error {
	w := sliding.Config{Window: time.Hour, Limit: m.cfg.Limit}
	var err error
	if m.fw, err = fixedWindow(m.client, w.Window, w.Limit); err != nil {
		return err
	}
	if m.log, err = distributed.NewSlidingLog(m.client, w); err != nil {
		return err
	}
	m.at = time.UnixMilli(1_700_000_000_000)
	return warm(m.ctx, m.client, m.top, m.cfg.Prefix, false, m.fw, m.log)
}

// moveUnderTraffic starts Workers goroutines sending requests, moves the
// slot once StartAt were sent, and lets traffic run on until Requests were
// sent in all and StartAt more after the move.
func (m *migration) moveUnderTraffic() error {
	var wg sync.WaitGroup
	for g := 0; g < m.cfg.Workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.send()
		}()
	}
	<-m.started
	begin := time.Now()
	m.migrating.Store(true)
	err := m.migrateSlot()
	m.migrating.Store(false)
	m.res.TookMs = time.Since(begin).Milliseconds()
	m.until.Store(max(int64(m.cfg.Requests), m.res.sent()+int64(m.cfg.StartAt)))
	wg.Wait()
	return err
}

// send is one worker of the traffic: it decides requests until the run
// has sent until of them.
func (m *migration) send() {
	for m.res.sent() < m.until.Load() {
		n := atomic.AddInt64(&m.res.Sent, 1)
		if n >= int64(m.cfg.StartAt) {
			m.startOnce.Do(func() { close(m.started) })
		}
		if m.migrating.Load() {
			atomic.AddInt64(&m.res.During, 1)
		}
		m.decide()
	}
}

// decide sends one request to both limiters and counts the outcome.
func (m *migration) decide() {
	d1, err1 := m.fw.AllowNAt(m.ctx, m.res.ID, m.at, 1)
	d2, err2 := m.log.AllowNAt(m.ctx, m.res.ID, m.at, 1)
	if err1 != nil || err2 != nil {
		atomic.AddInt64(&m.res.Errors, 1)
		return
	}
	if d1.Allowed {
		atomic.AddInt64(&m.res.AdmittedFW, 1)
	}
	if d2.Allowed {
		atomic.AddInt64(&m.res.AdmittedLog, 1)
	}
}

// readTarget reads the fixed window's count on the new owner and how many
// ASKING commands it received.
func (m *migration) readTarget() error {
	var err error
	if m.res.CountOnTo, err = windowCount(m.ctx, m.dst, distributed.Key(m.res.ID, "fw")); err != nil {
		return fmt.Errorf("count on the target: %w", err)
	}
	info, err := m.dst.Info(m.ctx, "commandstats").Result()
	if err != nil {
		return err
	}
	m.res.Asking = redisproc.StatCount(info, "cmdstat_asking", "calls")
	m.res.Moved = m.moved.Load()
	return nil
}

func (r *MigrationResult) sent() int64 { return atomic.LoadInt64(&r.Sent) }

// migrateSlot moves the slot from one primary to the other and tells every
// primary, holding it MIGRATING for Hold before the keys move and after.
func (m *migration) migrateSlot() error {
	if err := m.dst.Do(m.ctx, "CLUSTER", "SETSLOT", m.res.Slot, "IMPORTING", m.from.ID).Err(); err != nil {
		return fmt.Errorf("SETSLOT IMPORTING: %w", err)
	}
	if err := m.src.Do(m.ctx, "CLUSTER", "SETSLOT", m.res.Slot, "MIGRATING", m.to.ID).Err(); err != nil {
		return fmt.Errorf("SETSLOT MIGRATING: %w", err)
	}
	time.Sleep(m.cfg.Hold)
	if err := m.moveKeys(); err != nil {
		return err
	}
	time.Sleep(m.cfg.Hold)
	return m.assignSlot()
}

// moveKeys moves the slot's keys to the new owner, Batch at a time, and
// counts them in Keys.
func (m *migration) moveKeys() error {
	host, port, _ := net.SplitHostPort(m.to.Addr)
	for {
		batch, err := m.src.ClusterGetKeysInSlot(m.ctx, m.res.Slot, m.cfg.Batch).Result()
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		args := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
		for _, k := range batch {
			args = append(args, k)
		}
		if err := m.src.Do(m.ctx, args...).Err(); err != nil {
			return fmt.Errorf("MIGRATE: %w", err)
		}
		m.res.Keys += len(batch)
	}
}

// assignSlot tells every primary that the slot is the new owner's: the
// target first, then the source, then everyone else.
func (m *migration) assignSlot() error {
	order := []*redis.Client{m.dst, m.src}
	others := map[string]*redis.Client{}
	for _, p := range m.top.Primaries() {
		if p.ID != m.from.ID && p.ID != m.to.ID {
			others[p.Addr] = redis.NewClient(&redis.Options{Addr: p.Addr, MaxRetries: -1})
			order = append(order, others[p.Addr])
		}
	}
	defer redisproc.CloseAll(others)
	for _, c := range order {
		if err := c.Do(m.ctx, "CLUSTER", "SETSLOT", m.res.Slot, "NODE", m.to.ID).Err(); err != nil {
			return fmt.Errorf("SETSLOT NODE on %s: %w", c.Options().Addr, err)
		}
	}
	return nil
}

// movedCounter counts MOVED replies a node client sees.
type movedCounter struct{ n *atomic.Int64 }

func (m movedCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (m movedCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if err != nil && len(err.Error()) > 6 && err.Error()[:6] == "MOVED " {
			m.n.Add(1)
		}
		return err
	}
}

func (m movedCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
