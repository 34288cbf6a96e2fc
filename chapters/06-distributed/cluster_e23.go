package distributed

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/redis/go-redis/v9"
)

// The mitigations E23 compares.
const (
	MitigationNone        = "none"                  // asynchronous replication as shipped
	MitigationMinReplicas = "min-replicas-to-write" // the primary refuses writes while its replica lags
	MitigationWait        = "wait"                  // WAIT 1 <ms> after each decision
)

// E23Config is one failover run: Before requests admitted and replicated,
// then the replica frozen while one request every Every arrives for Lag,
// then the primary killed and the replica promoted, then requests until the
// window rejects. One identity, one fixed window of Limit (an hour wide,
// stamped explicitly: the run stays inside it).
type E23Config struct {
	Prefix      string        `json:"-"`
	Limit       int           `json:"limit"`
	Before      int           `json:"before"`
	Lag         time.Duration `json:"lag_ns"`
	Every       time.Duration `json:"every_ns"`
	ReplTimeout int           `json:"repl_timeout_s"` // the primary drops a silent replica after this many s
	MaxLag      int           `json:"max_lag_s"`      // min-replicas-max-lag
	WaitTimeout time.Duration `json:"wait_timeout_ns"`
	Samples     int           `json:"latency_samples"` // decisions timed with and without WAIT
}

// DefaultE23 is the README's run: limit 1,000, 200 admitted before the
// freeze, 4 s of one request per 10 ms while the replica is frozen, the
// primary dropping a silent replica after 2 s, min-replicas-max-lag 1 s,
// WAIT 1 50, 500 decisions timed each way.
func DefaultE23(prefix string) E23Config {
	return E23Config{Prefix: prefix, Limit: 1000, Before: 200, Lag: 4 * time.Second, Every: 10 * time.Millisecond,
		ReplTimeout: 2, MaxLag: 1, WaitTimeout: 50 * time.Millisecond, Samples: 500}
}

// E23Run is what one failover run measured. Counts are requests; a refused
// request is one the limiter could not decide (an error), which the
// endpoint's failure policy turns into a refusal (fail-closed, E15).
type E23Run struct {
	Mitigation string `json:"mitigation"`
	Primary    string `json:"primary"`
	Replica    string `json:"replica"`
	Before     int    `json:"before"` // admitted and on the replica before the freeze
	// While the replica was frozen.
	LagSent     int     `json:"lag_sent"`
	LagAdmitted int     `json:"lag_admitted"`
	LagRefused  int     `json:"lag_refused"`
	FirstRefuse int64   `json:"first_refused_ms"` // ms after the freeze; -1 if none
	RefuseMs    float64 `json:"refuse_ms"`        // mean time a refused decision took
	// The count of the window on the old primary just before the kill, and
	// on the promoted replica right after; the difference was forgotten.
	OldCount  int64 `json:"old_count"`
	NewCount  int64 `json:"new_count"`
	Forgotten int64 `json:"forgotten"`
	// After the promotion, until the window rejects.
	AfterAdmitted int   `json:"after_admitted"`
	AfterRefused  int   `json:"after_refused"`  // refused while the new primary had no replica
	NoReplicaMs   int64 `json:"no_replica_ms"`  // how long it refused every write
	FailoverMs    int64 `json:"failover_ms"`    // kill → the client routes the slot to the new primary
	Total         int   `json:"total_admitted"` // admitted in the window over the whole run
	OverAdmitted  int   `json:"over_admitted"`  // Total − Limit, if positive
	AckUs         int64 `json:"ack_us"`         // the healthy replica's slowest acknowledgement, measured before the run
	// WAIT only: median and 99th-percentile decision latency, µs, with a
	// healthy replica, without and with WAIT.
	PlainP50 int64 `json:"plain_p50_us,omitempty"`
	PlainP99 int64 `json:"plain_p99_us,omitempty"`
	WaitP50  int64 `json:"wait_p50_us,omitempty"`
	WaitP99  int64 `json:"wait_p99_us,omitempty"`
	WaitAcks int64 `json:"wait_acks,omitempty"` // acknowledgements the replica sent while they were timed
}

// ErrNotReplicated is the answer of a WaitForReplicas scripter when no
// replica confirmed the decision in time: the decision is applied on the
// primary but may not survive a failover, so the caller should treat it as
// an outage (its failure policy), not as an admission.
var ErrNotReplicated = errors.New("decision not confirmed by a replica in time")

// WaitForReplicas wraps cc so that every script runs on its key's primary
// followed, on the same connection, by WAIT replicas timeout: a decision
// comes back only once that many replicas have it, or as ErrNotReplicated.
// It costs one replication round trip per decision and does not make Redis
// consistent: a write WAIT gave up on is still on the primary. It checks
// the primaries' maxmemory-policy first (CheckNoEviction), since limiters
// cannot see through the wrapper.
func WaitForReplicas(ctx context.Context, cc *redis.ClusterClient, replicas int, timeout time.Duration) (redis.Scripter, error) {
	if err := CheckNoEviction(ctx, cc); err != nil {
		return nil, err
	}
	return AssumeNoEviction(waitScripter{cc, replicas, timeout}), nil
}

type waitScripter struct {
	*redis.ClusterClient
	replicas int
	timeout  time.Duration
}

func (w waitScripter) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	return w.run(ctx, keys, func(p redis.Pipeliner) *redis.Cmd { return p.EvalSha(ctx, sha, keys, args...) })
}

func (w waitScripter) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return w.run(ctx, keys, func(p redis.Pipeliner) *redis.Cmd { return p.Eval(ctx, script, keys, args...) })
}

func (w waitScripter) run(ctx context.Context, keys []string, call func(redis.Pipeliner) *redis.Cmd) *redis.Cmd {
	node, err := w.MasterForKey(ctx, keys[0])
	if err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	pipe := node.Pipeline() // one connection: WAIT counts this connection's writes
	cmd := call(pipe)
	acks := redis.NewIntCmd(ctx, "wait", w.replicas, w.timeout.Milliseconds())
	if w.replicas > 0 { // 0: the same path without WAIT, to time WAIT alone
		_ = pipe.Process(ctx, acks)
	}
	_, _ = pipe.Exec(ctx)
	switch {
	case cmd.Err() != nil, w.replicas == 0:
	case acks.Err() != nil:
		cmd.SetErr(acks.Err())
	case acks.Val() < int64(w.replicas):
		cmd.SetErr(ErrNotReplicated)
	}
	return cmd
}

// RunE23 measures one failover (E23) on the shard of the identity
// Prefix-mitigation: it needs ctl to freeze the replica and kill the
// primary, and leaves the shard whole again (the old primary restarted as
// the new one's replica, the configuration changes undone).
func RunE23(ctx context.Context, cc *redis.ClusterClient, ctl NodeControl, cfg E23Config, mitigation string) (E23Run, error) {
	run := E23Run{Mitigation: mitigation, FirstRefuse: -1}
	switch mitigation {
	case MitigationNone, MitigationMinReplicas, MitigationWait:
	default:
		return run, core.BadParam("mitigation", strconv.Quote(mitigation), "none, min-replicas-to-write or wait")
	}
	id := cfg.Prefix + "-" + mitigation
	if err := checkID(id); err != nil {
		return run, err
	}
	key := Key(id, "fw")
	if err := waitClusterOK(ctx, cc); err != nil {
		return run, err
	}
	if err := loadScripts(ctx, cc); err != nil {
		return run, err
	}
	top, err := readTopologyAny(ctx, cc)
	if err != nil {
		return run, err
	}
	p, ok := top.Owner(KeySlot(key))
	if !ok {
		return run, fmt.Errorf("slot %d has no primary", KeySlot(key))
	}
	r, ok := top.ReplicaOf(p.ID)
	if !ok {
		return run, fmt.Errorf("primary %s has no live replica", p.Addr)
	}
	run.Primary, run.Replica = p.Addr, r.Addr
	nodes := nodeClients(p.Addr, r.Addr)
	defer closeAll(nodes)
	pc, rc := nodes[p.Addr], nodes[r.Addr]
	if err := waitReplicaUp(ctx, pc, rc); err != nil {
		return run, err
	}
	// How long the healthy replica takes to acknowledge a write, measured
	// on this shard now: a loaded machine can stretch it past 50 ms.
	ack, err := measureAck(ctx, pc, Key(id, "ack"))
	if err != nil {
		return run, err
	}
	run.AckUs = ack.Microseconds()
	for _, c := range []*redis.Client{pc, rc} {
		set := []string{"repl-timeout", strconv.Itoa(cfg.ReplTimeout)}
		if mitigation == MitigationMinReplicas {
			set = append(set, "min-replicas-to-write", "1", "min-replicas-max-lag", strconv.Itoa(cfg.MaxLag))
		}
		for i := 0; i < len(set); i += 2 {
			if err := c.ConfigSet(ctx, set[i], set[i+1]).Err(); err != nil {
				return run, err
			}
		}
	}
	defer rc.ConfigSet(context.WithoutCancel(ctx), "repl-timeout", "60")
	defer rc.ConfigSet(context.WithoutCancel(ctx), "min-replicas-to-write", "0")

	var scripter, healthy redis.Scripter = cc, cc
	if mitigation == MitigationWait {
		if scripter, err = WaitForReplicas(ctx, cc, 1, cfg.WaitTimeout); err != nil {
			return run, err
		}
		healthy = AssumeNoEviction(waitScripter{cc, 1, HealthyWait(ack)}) // checked just above
		if err := run.timeWait(ctx, cc, healthy, cfg, id+"-latency"); err != nil {
			return run, err
		}
	}
	at := time.UnixMilli(1_700_000_000_000)
	fw, err := NewFixedWindow(scripter, WindowConfig{Window: time.Hour, Limit: cfg.Limit})
	if err != nil {
		return run, err
	}
	decide := func() (bool, error) {
		d, err := fw.AllowNAt(ctx, id, at, 1)
		return d.Allowed, err
	}

	// The requests before the freeze set the stage: admitted and on the
	// replica. They wait for the replica as long as a healthy one may take.
	before, err := NewFixedWindow(healthy, WindowConfig{Window: time.Hour, Limit: cfg.Limit})
	if err != nil {
		return run, err
	}
	if run.Before, err = admitBeforeFreeze(ctx, before, id, at, cfg.Before); err != nil {
		return run, err
	}
	if err := waitReplicated(ctx, pc); err != nil {
		return run, err
	}

	// The replica freezes; requests keep coming.
	if err := ctl.Pause(r.Addr); err != nil {
		return run, err
	}
	frozen := time.Now()
	// The first request one tick later: SIGSTOP has surely landed by then.
	for tick := frozen.Add(cfg.Every); time.Since(frozen) < cfg.Lag; tick = tick.Add(cfg.Every) {
		time.Sleep(time.Until(tick))
		start := time.Now()
		ok, err := decide()
		run.LagSent++
		switch {
		case err != nil:
			run.LagRefused++
			run.RefuseMs += float64(time.Since(start).Microseconds()) / 1000
			if run.FirstRefuse < 0 {
				run.FirstRefuse = time.Since(frozen).Milliseconds()
			}
		case ok:
			run.LagAdmitted++
		}
	}
	if run.LagRefused > 0 {
		run.RefuseMs /= float64(run.LagRefused)
	}
	if run.OldCount, err = pc.HGet(ctx, key, "n").Int64(); err != nil {
		return run, fmt.Errorf("count on the old primary: %w", err)
	}

	// The primary dies; the replica wakes, drains what reached its socket,
	// and takes over.
	if err := ctl.Kill(p.Addr); err != nil {
		return run, err
	}
	killed := time.Now()
	restarted := false
	defer func() {
		if !restarted {
			_ = ctl.Restart(p.Addr)
		}
	}()
	if err := ctl.Resume(r.Addr); err != nil {
		return run, err
	}
	if err := promote(ctx, cc, rc, r.Addr, p.Addr, KeySlot(key)); err != nil {
		return run, err
	}
	run.FailoverMs = time.Since(killed).Milliseconds()
	if run.NewCount, err = rc.HGet(ctx, key, "n").Int64(); err != nil {
		return run, fmt.Errorf("count on the new primary: %w", err)
	}
	run.Forgotten = run.OldCount - run.NewCount

	// The same window on the new primary, until it rejects 20 in a row.
	var firstRefused time.Time
	for rejects := 0; rejects < 20; {
		ok, err := decide()
		switch {
		case err != nil:
			run.AfterRefused++
			// The new primary has no replica: min-replicas-to-write refuses
			// the write, WAIT finds no one to confirm it. Give it one.
			if !restarted {
				if firstRefused = time.Now(); ctl.Restart(p.Addr) != nil {
					return run, err
				}
				restarted = true
			}
			if run.AfterRefused > 100000 {
				return run, fmt.Errorf("the new primary kept refusing: %w", err)
			}
			time.Sleep(cfg.Every)
		case ok:
			run.AfterAdmitted++
			rejects = 0
		default:
			rejects++
		}
		if err == nil && !firstRefused.IsZero() && run.NoReplicaMs == 0 {
			run.NoReplicaMs = time.Since(firstRefused).Milliseconds()
		}
	}
	run.Total = run.Before + run.LagAdmitted + run.AfterAdmitted
	run.OverAdmitted = max(0, run.Total-cfg.Limit)

	// Make the shard whole for whoever runs next.
	if !restarted {
		if err := ctl.Restart(p.Addr); err != nil {
			return run, err
		}
		restarted = true
	}
	old := nodeClients(p.Addr)
	defer closeAll(old)
	if err := waitReplicaUp(ctx, rc, old[p.Addr]); err != nil {
		return run, err
	}
	return run, waitClusterOK(ctx, cc)
}

// waitClusterOK waits until every node cc was given answers with
// cluster_state:ok and sees no node failing: a node back from a freeze or a
// restart refuses with CLUSTERDOWN for a moment.
func waitClusterOK(ctx context.Context, cc *redis.ClusterClient) error {
	nodes := nodeClients(cc.Options().Addrs...)
	defer closeAll(nodes)
	return poll(ctx, 30*time.Second, "cluster_state:ok on every node", func() (bool, error) {
		for _, n := range nodes {
			info, err := n.ClusterInfo(ctx).Result()
			if err != nil {
				return false, nil
			}
			if v, _ := infoField(info, "cluster_state"); v != "ok" {
				return false, nil
			}
			t, err := ReadTopology(ctx, n.Options().Addr)
			if err != nil {
				return false, nil
			}
			for _, x := range t {
				if x.Failed {
					return false, nil
				}
			}
		}
		return true, nil
	})
}

// timeWait times Samples decisions on a healthy shard without and with WAIT,
// both sent the same way (a pipeline on the key's primary), so that the
// difference is WAIT's alone.
func (run *E23Run) timeWait(ctx context.Context, cc *redis.ClusterClient, wait redis.Scripter, cfg E23Config, id string) error {
	plain := AssumeNoEviction(waitScripter{cc, 0, 0}) // checked by WaitForReplicas
	// wait allows HealthyWait: on a healthy shard WAIT returns as soon as
	// the replica acknowledges, so the latency measured is the same, and a
	// slow ack on a loaded machine is timed instead of failing the run.
	var ls [2]*FixedWindow
	for i, s := range []redis.Scripter{plain, wait} {
		var err error
		if ls[i], err = NewFixedWindow(s, WindowConfig{Window: time.Hour, Limit: cfg.Samples + 50}); err != nil {
			return err
		}
	}
	// The replica's acknowledgements the WAIT key's primary receives while
	// the two are timed: one round trip to the replica per WAIT.
	primary, err := cc.MasterForKey(ctx, Key(id+"-wait", "fw"))
	if err != nil {
		return err
	}
	acks := func() (int64, error) {
		info, err := primary.Info(ctx, "commandstats").Result()
		return statCount(info, "cmdstat_replconf", "calls"), err
	}
	acksBefore, err := acks()
	if err != nil {
		return err
	}
	us := [2][]int64{make([]int64, cfg.Samples), make([]int64, cfg.Samples)}
	// Alternate the two, so that whatever else the machine does slows both;
	// the first 50 of each warm the pool and the script cache.
	for i := -50; i < cfg.Samples; i++ {
		for k, l := range ls {
			start := time.Now()
			if _, err := l.AllowN(ctx, id+[]string{"-plain", "-wait"}[k], 1); err != nil {
				return err
			}
			if i >= 0 {
				us[k][i] = time.Since(start).Microseconds()
			}
		}
	}
	acksAfter, err := acks()
	if err != nil {
		return err
	}
	run.WaitAcks = acksAfter - acksBefore
	for k := range us {
		sort.Slice(us[k], func(i, j int) bool { return us[k][i] < us[k][j] })
	}
	p50, p99 := cfg.Samples/2, cfg.Samples*99/100
	run.PlainP50, run.PlainP99 = us[0][p50], us[0][p99]
	run.WaitP50, run.WaitP99 = us[1][p50], us[1][p99]
	return nil
}

// HealthyWait is the WAIT timeout for a shard whose replica is healthy and
// acknowledged a write in ack at the slowest: twenty times that, and never
// under a second. Shorter, a loaded machine (CI, the race detector) refuses
// decisions a healthy replica was about to confirm.
func HealthyWait(ack time.Duration) time.Duration { return max(time.Second, 20*ack) }

// ackRounds is how many writes measureAck times.
const ackRounds = 10

// measureAck times ackRounds writes of key on the primary pc, each followed
// by WAIT 1 on the same connection, and returns the slowest: how far behind
// a healthy replica is on this machine now.
func measureAck(ctx context.Context, pc *redis.Client, key string) (time.Duration, error) {
	var slowest time.Duration
	for i := 0; i < ackRounds; i++ {
		start := time.Now()
		pipe := pc.Pipeline()
		pipe.Set(ctx, key, i, time.Minute)
		acks := redis.NewIntCmd(ctx, "wait", 1, 10000)
		_ = pipe.Process(ctx, acks)
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, fmt.Errorf("timing the replica: %w", err)
		}
		if acks.Val() < 1 {
			return 0, errors.New("timing the replica: it acknowledged nothing within 10s")
		}
		slowest = max(slowest, time.Since(start))
	}
	return slowest, nil
}

// admitBeforeFreeze sends n requests for id that must all be admitted. A
// decision the primary refused to write (NOREPLICAS: min-replicas-to-write
// saw a lagging replica) changed nothing, so it is sent again, for up to
// 10 s; any other error ends the run, since the write may have happened.
func admitBeforeFreeze(ctx context.Context, fw *FixedWindow, id string, at time.Time, n int) (int, error) {
	for i := 0; i < n; i++ {
		deadline := time.Now().Add(10 * time.Second)
		for {
			d, err := fw.AllowNAt(ctx, id, at, 1)
			if err != nil && isNoReplicas(err) && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if err != nil || !d.Allowed {
				return i, fmt.Errorf("request %d before the freeze: admitted %v, %v", i+1, d.Allowed, err)
			}
			break
		}
	}
	return n, nil
}

// isNoReplicas reports whether err is the primary refusing a write for
// lack of a replica in time (min-replicas-to-write): nothing was written.
func isNoReplicas(err error) bool { return strings.HasPrefix(err.Error(), "NOREPLICAS") }

// promote makes the replica at raddr take over its dead primary's slots
// once it has read its replication stream to the end, then waits until
// every live node and cc route slot to it.
func promote(ctx context.Context, cc *redis.ClusterClient, rc *redis.Client, raddr, dead string, slot int) error {
	if err := poll(ctx, 10*time.Second, "the replica to see its primary gone", func() (bool, error) {
		info, err := rc.Info(ctx, "replication").Result()
		v, _ := infoField(info, "master_link_status")
		return v == "down", err
	}); err != nil {
		return err
	}
	if err := rc.Do(ctx, "CLUSTER", "FAILOVER", "TAKEOVER").Err(); err != nil && !strings.Contains(err.Error(), "replica") {
		return fmt.Errorf("CLUSTER FAILOVER TAKEOVER: %w", err)
	}
	if err := poll(ctx, 20*time.Second, "every node to route the slot to the new primary", func() (bool, error) {
		for _, a := range cc.Options().Addrs {
			if a == dead {
				continue
			}
			t, err := ReadTopology(ctx, a)
			if err != nil {
				return false, nil // a node not answering yet
			}
			if o, ok := t.Owner(slot); !ok || o.Addr != raddr {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return err
	}
	return poll(ctx, 10*time.Second, "the client to route the slot to the new primary", func() (bool, error) {
		cc.ReloadState(ctx)
		n, err := cc.MasterForKey(ctx, slotKey(slot))
		return err == nil && n.Options().Addr == raddr, nil
	})
}

// slotKey returns a key of slot (a tag searched for once per call).
func slotKey(slot int) string {
	for i := 0; ; i++ {
		if k := "{" + strconv.Itoa(i) + "}"; KeySlot(k) == slot {
			return k
		}
	}
}

// waitReplicated waits until the primary's replica has acknowledged every
// write the primary has made so far.
func waitReplicated(ctx context.Context, pc *redis.Client) error {
	info, err := pc.Info(ctx, "replication").Result()
	if err != nil {
		return err
	}
	want, _ := infoField(info, "master_repl_offset")
	target, _ := strconv.ParseInt(want, 10, 64)
	return poll(ctx, 10*time.Second, "the replica to catch up", func() (bool, error) {
		info, err := pc.Info(ctx, "replication").Result()
		return replicaOffset(info) >= target, err
	})
}

// replicaOffset is the offset the first replica acknowledged ("slave0:
// ip=…,port=…,state=online,offset=N,lag=0"), or -1.
func replicaOffset(info string) int64 {
	v, ok := infoField(info, "slave0")
	if !ok || !strings.Contains(v, "state=online") {
		return -1
	}
	for _, kv := range strings.Split(v, ",") {
		if n, ok := strings.CutPrefix(kv, "offset="); ok {
			x, _ := strconv.ParseInt(n, 10, 64)
			return x
		}
	}
	return -1
}

// waitReplicaUp waits until the replica rc is in sync with the primary pc.
func waitReplicaUp(ctx context.Context, pc, rc *redis.Client) error {
	return poll(ctx, 30*time.Second, "the replica to be in sync", func() (bool, error) {
		info, err := rc.Info(ctx, "replication").Result()
		if err != nil {
			return false, nil
		}
		link, _ := infoField(info, "master_link_status")
		syncing, _ := infoField(info, "master_sync_in_progress")
		pinfo, err := pc.Info(ctx, "replication").Result()
		return link == "up" && syncing == "0" && err == nil && replicaOffset(pinfo) >= 0, nil
	})
}

// poll checks cond every 20 ms until it holds, fails, or limit passes.
func poll(ctx context.Context, limit time.Duration, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	for {
		ok, err := cond()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v for %s", limit, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
