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

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
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

// DefaultMigration: limit 1,000, at least 2,500 requests from 8 goroutines,
// the migration starting after 300, 2,000 filler keys moved 100 at a time,
// 150 ms in each intermediate state.
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
	res := MigrationResult{Config: cfg, ID: cfg.Prefix + "-moving"}
	if err := checkPrefix(res.ID); err != nil {
		return res, err
	}
	opt := *cc.Options()
	client := redis.NewClusterClient(&opt)
	defer client.Close()
	var moved atomic.Int64
	client.OnNewNode(func(rdb *redis.Client) { rdb.AddHook(movedCounter{&moved}) })
	top, err := topology(ctx, client)
	if err != nil {
		return res, err
	}
	res.Slot = KeySlot(distributed.Key(res.ID, "fw"))
	from, ok := top.Owner(res.Slot)
	if !ok {
		return res, fmt.Errorf("slot %d has no primary", res.Slot)
	}
	var to redisproc.Node
	for _, p := range top.Primaries() {
		if p.ID != from.ID {
			to = p
			break
		}
	}
	res.From, res.To = from.Addr, to.Addr
	nodes := redisproc.NodeClients(from.Addr, to.Addr)
	defer redisproc.CloseAll(nodes)
	src, dst := nodes[from.Addr], nodes[to.Addr]

	pipe := client.Pipeline()
	for i := 0; i < cfg.Fillers; i++ {
		pipe.Set(ctx, distributed.Key(res.ID, fmt.Sprintf("filler:%d", i)), i, 10*time.Minute)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return res, err
	}
	for _, n := range nodes {
		if err := n.ConfigResetStat(ctx).Err(); err != nil {
			return res, err
		}
	}

	w := sliding.Config{Window: time.Hour, Limit: cfg.Limit}
	fw, err := distributed.NewFixedWindow(client, fixedwindow.Config{Window: w.Window, Limit: w.Limit})
	if err != nil {
		return res, err
	}
	log, err := distributed.NewSlidingLog(client, w)
	if err != nil {
		return res, err
	}
	if err := warm(ctx, client, top, cfg.Prefix, false, fw, log); err != nil {
		return res, err
	}
	at := time.UnixMilli(1_700_000_000_000)
	var migrating atomic.Bool
	var until atomic.Int64 // traffic stops after this many requests, set when the slot has moved
	until.Store(math.MaxInt64)
	started := make(chan struct{})
	var startOnce sync.Once
	var wg sync.WaitGroup
	for g := 0; g < cfg.Workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for res.sent() < until.Load() {
				n := atomic.AddInt64(&res.Sent, 1)
				if n >= int64(cfg.StartAt) {
					startOnce.Do(func() { close(started) })
				}
				if migrating.Load() {
					atomic.AddInt64(&res.During, 1)
				}
				d1, err1 := fw.AllowNAt(ctx, res.ID, at, 1)
				d2, err2 := log.AllowNAt(ctx, res.ID, at, 1)
				if err1 != nil || err2 != nil {
					atomic.AddInt64(&res.Errors, 1)
					continue
				}
				if d1.Allowed {
					atomic.AddInt64(&res.AdmittedFW, 1)
				}
				if d2.Allowed {
					atomic.AddInt64(&res.AdmittedLog, 1)
				}
			}
		}()
	}
	<-started
	begin := time.Now()
	migrating.Store(true)
	err = migrateSlot(ctx, top, src, dst, from, to, res.Slot, cfg, &res.Keys)
	migrating.Store(false)
	res.TookMs = time.Since(begin).Milliseconds()
	until.Store(max(int64(cfg.Requests), res.sent()+int64(cfg.StartAt)))
	wg.Wait()
	if err != nil {
		return res, err
	}

	if res.CountOnTo, err = windowCount(ctx, dst, distributed.Key(res.ID, "fw")); err != nil {
		return res, fmt.Errorf("count on the target: %w", err)
	}
	info, err := dst.Info(ctx, "commandstats").Result()
	if err != nil {
		return res, err
	}
	res.Asking = redisproc.StatCount(info, "cmdstat_asking", "calls")
	res.Moved = moved.Load()
	return res, nil
}

func (r *MigrationResult) sent() int64 { return atomic.LoadInt64(&r.Sent) }

// migrateSlot moves slot from one primary to another and tells every
// primary; keys counts the keys moved.
func migrateSlot(ctx context.Context, top redisproc.Topology, src, dst *redis.Client, from, to redisproc.Node, slot int, cfg MigrationConfig, keys *int) error {
	if err := dst.Do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", from.ID).Err(); err != nil {
		return fmt.Errorf("SETSLOT IMPORTING: %w", err)
	}
	if err := src.Do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", to.ID).Err(); err != nil {
		return fmt.Errorf("SETSLOT MIGRATING: %w", err)
	}
	time.Sleep(cfg.Hold)
	host, port, _ := net.SplitHostPort(to.Addr)
	for {
		batch, err := src.ClusterGetKeysInSlot(ctx, slot, cfg.Batch).Result()
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		args := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
		for _, k := range batch {
			args = append(args, k)
		}
		if err := src.Do(ctx, args...).Err(); err != nil {
			return fmt.Errorf("MIGRATE: %w", err)
		}
		*keys += len(batch)
	}
	time.Sleep(cfg.Hold)
	// The target first, then the source, then everyone else.
	order := []*redis.Client{dst, src}
	others := map[string]*redis.Client{}
	for _, p := range top.Primaries() {
		if p.ID != from.ID && p.ID != to.ID {
			others[p.Addr] = redis.NewClient(&redis.Options{Addr: p.Addr, MaxRetries: -1})
			order = append(order, others[p.Addr])
		}
	}
	defer redisproc.CloseAll(others)
	for _, c := range order {
		if err := c.Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", to.ID).Err(); err != nil {
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
