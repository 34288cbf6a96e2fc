package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// The mitigations E23 compares.
const (
	MitigationNone        = "none"                  // asynchronous replication as shipped
	MitigationMinReplicas = "min-replicas-to-write" // the primary refuses writes while its replica lags
	MitigationWait        = "wait"                  // WAIT 1 <ms> after each decision
)

// FailoverConfig is one failover run: Before requests admitted and replicated,
// then the replica frozen while one request every Every arrives for Lag,
// then the primary killed and the replica promoted, then requests until the
// window rejects. One identity, one fixed window of Limit (an hour wide,
// stamped explicitly: the run stays inside it).
type FailoverConfig struct {
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

// DefaultFailover is the README's run: limit 1,000, 200 admitted before the
// freeze, 4 s of one request per 10 ms while the replica is frozen, the
// primary dropping a silent replica after 2 s, min-replicas-max-lag 1 s,
// WAIT 1 50, 500 decisions timed each way.
func DefaultFailover(prefix string) FailoverConfig {
	return FailoverConfig{Prefix: prefix, Limit: 1000, Before: 200, Lag: 4 * time.Second, Every: 10 * time.Millisecond,
		ReplTimeout: 2, MaxLag: 1, WaitTimeout: 50 * time.Millisecond, Samples: 500}
}

// FailoverRun is what one failover run measured. Counts are requests; a refused
// request is one the limiter could not decide (an error), which the
// endpoint's failure policy turns into a refusal (fail-closed, E15).
type FailoverRun struct {
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

// RunFailover measures one failover (E23) on the shard of the identity
// Prefix-mitigation: it needs ctl to freeze the replica and kill the
// primary, and leaves the shard whole again (the old primary restarted as
// the new one's replica, the configuration changes undone).
func RunFailover(ctx context.Context, cc *redis.ClusterClient, ctl NodeControl, cfg FailoverConfig, mitigation string) (FailoverRun, error) {
	run := FailoverRun{Mitigation: mitigation, FirstRefuse: -1}
	switch mitigation {
	case MitigationNone, MitigationMinReplicas, MitigationWait:
	default:
		return run, core.BadParam("mitigation", strconv.Quote(mitigation), "none, min-replicas-to-write or wait")
	}
	id := cfg.Prefix + "-" + mitigation
	if err := checkPrefix(id); err != nil {
		return run, err
	}
	key := distributed.Key(id, "fw")
	if err := waitClusterOK(ctx, cc); err != nil {
		return run, err
	}
	top, err := topology(ctx, cc)
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
	nodes := redisproc.NodeClients(p.Addr, r.Addr)
	defer redisproc.CloseAll(nodes)
	pc, rc := nodes[p.Addr], nodes[r.Addr]
	if err := redisproc.WaitReplicaUp(ctx, pc, rc); err != nil {
		return run, err
	}
	// How long the healthy replica takes to acknowledge a write, measured
	// on this shard now: a loaded machine can stretch it past 50 ms.
	ack, err := redisproc.AckTime(ctx, pc, distributed.Key(id, "ack"), ackRounds)
	if err != nil {
		return run, err
	}
	run.AckUs = ack.Microseconds()
	for _, c := range []*redis.Client{pc, rc} {
		set := []string{"repl-timeout", strconv.Itoa(cfg.ReplTimeout)}
		if mitigation == MitigationMinReplicas {
			set = append(set, "min-replicas-to-write", "1", "min-replicas-max-lag", strconv.Itoa(cfg.MaxLag))
		}
		if err := redisproc.ConfigSet(ctx, c, set...); err != nil {
			return run, err
		}
	}
	defer redisproc.ConfigSet(context.WithoutCancel(ctx), rc, "repl-timeout", "60", "min-replicas-to-write", "0")

	// A limiter checks maxmemory-policy on its first decision, and that
	// check reloads the client's slot map from any node: during the freeze
	// it may ask the frozen replica and hang for seconds. So check once
	// here, while every node answers.
	if err := distributed.CheckNoEviction(ctx, cc); err != nil {
		return run, err
	}
	var scripter, healthy redis.Scripter = distributed.AssumeNoEviction(cc), distributed.AssumeNoEviction(cc)
	if mitigation == MitigationWait {
		if scripter, err = WaitForReplicas(ctx, cc, 1, cfg.WaitTimeout); err != nil {
			return run, err
		}
		healthy = distributed.AssumeNoEviction(waitScripter{cc, 1, HealthyWait(ack)}) // checked just above
		if err := run.timeWait(ctx, cc, healthy, cfg, id+"-latency"); err != nil {
			return run, err
		}
	}
	at := time.UnixMilli(1_700_000_000_000)
	fw, err := distributed.NewFixedWindow(scripter, fixedwindow.Config{Window: time.Hour, Limit: cfg.Limit})
	if err != nil {
		return run, err
	}
	decide := func() (bool, error) {
		d, err := fw.AllowNAt(ctx, id, at, 1)
		return d.Allowed, err
	}

	// The requests before the freeze set the stage: admitted and on the
	// replica. They wait for the replica as long as a healthy one may take.
	before, err := distributed.NewFixedWindow(healthy, fixedwindow.Config{Window: time.Hour, Limit: cfg.Limit})
	if err != nil {
		return run, err
	}
	if run.Before, err = admitBeforeFreeze(ctx, before, id, at, cfg.Before); err != nil {
		return run, err
	}
	if err := redisproc.WaitReplicated(ctx, pc); err != nil {
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
	if run.OldCount, err = windowCount(ctx, pc, key); err != nil {
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
	if err := redisproc.Takeover(ctx, cc, rc, p.Addr, key); err != nil {
		return run, err
	}
	run.FailoverMs = time.Since(killed).Milliseconds()
	if run.NewCount, err = windowCount(ctx, rc, key); err != nil {
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
	old := redisproc.NodeClients(p.Addr)
	defer redisproc.CloseAll(old)
	if err := redisproc.WaitReplicaUp(ctx, rc, old[p.Addr]); err != nil {
		return run, err
	}
	return run, waitClusterOK(ctx, cc)
}

// waitClusterOK waits until every node cc was given is healthy again.
func waitClusterOK(ctx context.Context, cc *redis.ClusterClient) error {
	return redisproc.WaitClusterOK(ctx, cc.Options().Addrs, 30*time.Second)
}

// ackRounds is how many writes RunFailover times to learn the replica's lag.
const ackRounds = 10

// HealthyWait is the WAIT timeout for a shard whose replica is healthy and
// acknowledged a write in ack at the slowest: twenty times that, and never
// under a second. Shorter, a loaded machine (CI, the race detector) refuses
// decisions a healthy replica was about to confirm.
func HealthyWait(ack time.Duration) time.Duration { return max(time.Second, 20*ack) }

// admitBeforeFreeze sends n requests for id that must all be admitted. A
// decision the primary refused to write (NOREPLICAS: min-replicas-to-write
// saw a lagging replica) changed nothing, so it is sent again, for up to
// 10 s; any other error ends the run, since the write may have happened.
func admitBeforeFreeze(ctx context.Context, fw *distributed.FixedWindow, id string, at time.Time, n int) (int, error) {
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
