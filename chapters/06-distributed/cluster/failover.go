package cluster

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// Mitigation names one way E23 guards a failover against forgetting what
// the replica never got; its value is the name `tui cluster` prints.
type Mitigation string

// The mitigations E23 compares.
const (
	MitigationNone        Mitigation = "none"                  // asynchronous replication as shipped
	MitigationMinReplicas Mitigation = "min-replicas-to-write" // the primary refuses writes while its replica lags
	MitigationWait        Mitigation = "wait"                  // WAIT 1 <ms> after each decision
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

// DefaultFailover is CLUSTER.md's run: limit 1,000, 200 admitted before the
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
	Mitigation Mitigation `json:"mitigation"`
	Primary    string     `json:"primary"`
	Replica    string     `json:"replica"`
	Before     int        `json:"before"` // admitted and on the replica before the freeze
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
func RunFailover(ctx context.Context, cc *redis.ClusterClient, ctl NodeControl, cfg FailoverConfig, mitigation Mitigation) (FailoverRun, error) {
	f := &failover{ctx: ctx, cc: cc, ctl: ctl, cfg: cfg, run: FailoverRun{Mitigation: mitigation, FirstRefuse: -1}}
	defer f.cleanUp()
	err := runPhases(
		f.identity,       // the identity and key this run decides for
		f.findShard,      // the primary that owns the key and its live replica
		f.configure,      // time the replica's acknowledgement; set the timeouts
		f.limiters,       // the limiter measured (and WAIT's latency, timed healthy)
		f.admitBefore,    // requests admitted and on the replica before the freeze
		f.freeze,         // the replica freezes; requests keep coming
		f.killPrimary,    // the primary dies; the replica takes over
		f.afterPromotion, // the same window on the new primary until it rejects
		f.heal,           // the shard whole again for whoever runs next
	)
	return f.run, err
}

// failover is one RunFailover under way: the shard it works on, the
// limiter it decides with, and what it has measured so far in run.
type failover struct {
	ctx context.Context
	cc  *redis.ClusterClient
	ctl NodeControl
	cfg FailoverConfig
	run FailoverRun

	id, key          string
	at               time.Time // the one instant every decision is stamped with
	primary, replica redisproc.Node
	pc, rc           *redis.Client  // the primary and the replica, directly
	ack              time.Duration  // the healthy replica's slowest acknowledgement
	healthy          redis.Scripter // decisions that wait for a healthy replica at most
	fw               *distributed.FixedWindow
	restarted        bool     // the killed primary runs again
	undo             []func() // run in reverse order when the run ends
}

// cleanUp undoes what the phases set up, the last first.
func (f *failover) cleanUp() {
	for i := len(f.undo) - 1; i >= 0; i-- {
		f.undo[i]()
	}
}

// identity checks the mitigation and names the run's identity and key.
func (f *failover) identity() error {
	if !slices.Contains(Mitigations, f.run.Mitigation) {
		return core.BadParam("mitigation", strconv.Quote(string(f.run.Mitigation)), "none, min-replicas-to-write or wait")
	}
	f.id = f.cfg.Prefix + "-" + string(f.run.Mitigation)
	if err := checkPrefix(f.id); err != nil {
		return err
	}
	f.key = distributed.Key(f.id, "fw")
	f.at = time.UnixMilli(1_700_000_000_000)
	return nil
}

// findShard finds the key's primary and a live replica of it, and opens a
// client to each.
func (f *failover) findShard() error {
	if err := waitClusterOK(f.ctx, f.cc); err != nil {
		return err
	}
	top, err := topology(f.ctx, f.cc)
	if err != nil {
		return err
	}
	var ok bool
	if f.primary, ok = top.Owner(KeySlot(f.key)); !ok {
		return fmt.Errorf("slot %d has no primary", KeySlot(f.key))
	}
	if f.replica, ok = top.ReplicaOf(f.primary.ID); !ok {
		return fmt.Errorf("primary %s has no live replica", f.primary.Addr)
	}
	f.run.Primary, f.run.Replica = f.primary.Addr, f.replica.Addr
	nodes := redisproc.NodeClients(f.primary.Addr, f.replica.Addr)
	f.undo = append(f.undo, func() { redisproc.CloseAll(nodes) })
	f.pc, f.rc = nodes[f.primary.Addr], nodes[f.replica.Addr]
	return redisproc.WaitReplicaUp(f.ctx, f.pc, f.rc)
}

// configure measures how long the healthy replica takes to acknowledge a
// write, on this shard now (a loaded machine can stretch it past 50 ms),
// then sets the replication timeout and, for min-replicas-to-write, the
// mitigation on both nodes; the replica's settings are undone at the end.
func (f *failover) configure() error {
	ack, err := redisproc.AckTime(f.ctx, f.pc, distributed.Key(f.id, "ack"), ackRounds)
	if err != nil {
		return err
	}
	f.ack, f.run.AckUs = ack, ack.Microseconds()
	for _, c := range []*redis.Client{f.pc, f.rc} {
		set := []string{"repl-timeout", strconv.Itoa(f.cfg.ReplTimeout)}
		if f.run.Mitigation == MitigationMinReplicas {
			set = append(set, "min-replicas-to-write", "1", "min-replicas-max-lag", strconv.Itoa(f.cfg.MaxLag))
		}
		if err := redisproc.ConfigSet(f.ctx, c, set...); err != nil {
			return err
		}
	}
	f.undo = append(f.undo, func() {
		_ = redisproc.ConfigSet(context.WithoutCancel(f.ctx), f.rc, "repl-timeout", "60", "min-replicas-to-write", "0")
	})
	return nil
}

// limiters builds the fixed window the run measures and, for WAIT, times
// decisions with and without it while the replica is healthy.
//
// A limiter checks maxmemory-policy on its first decision, and that check
// reloads the client's slot map from any node: during the freeze it may ask
// the frozen replica and hang for seconds. So it is checked once here,
// while every node answers.
func (f *failover) limiters() error {
	if err := distributed.CheckNoEviction(f.ctx, f.cc); err != nil {
		return err
	}
	var scripter redis.Scripter = distributed.AssumeNoEviction(f.cc)
	f.healthy = distributed.AssumeNoEviction(f.cc)
	if f.run.Mitigation == MitigationWait {
		var err error
		if scripter, err = WaitForReplicas(f.ctx, f.cc, 1, f.cfg.WaitTimeout); err != nil {
			return err
		}
		f.healthy = distributed.AssumeNoEviction(waitScripter{f.cc, 1, HealthyWait(f.ack)}) // checked just above
		if err := f.run.timeWait(f.ctx, f.cc, f.healthy, f.cfg, f.id+"-latency"); err != nil {
			return err
		}
	}
	var err error
	f.fw, err = fixedWindow(scripter, time.Hour, f.cfg.Limit)
	return err
}

// decide sends one request to the measured limiter.
func (f *failover) decide() (bool, error) {
	d, err := f.fw.AllowNAt(f.ctx, f.id, f.at, 1)
	return d.Allowed, err
}

// admitBefore sets the stage: requests admitted and on the replica. They
// wait for the replica as long as a healthy one may take.
func (f *failover) admitBefore() error {
	before, err := fixedWindow(f.healthy, time.Hour, f.cfg.Limit)
	if err != nil {
		return err
	}
	if f.run.Before, err = admitBeforeFreeze(f.ctx, before, f.id, f.at, f.cfg.Before); err != nil {
		return err
	}
	return redisproc.WaitReplicated(f.ctx, f.pc)
}

// freeze stops the replica and sends one request every Every for Lag,
// then reads the window's count on the old primary.
func (f *failover) freeze() error {
	if err := f.ctl.Pause(f.replica.Addr); err != nil {
		return err
	}
	frozen := time.Now()
	// The first request one tick later: SIGSTOP has surely landed by then.
	for tick := frozen.Add(f.cfg.Every); time.Since(frozen) < f.cfg.Lag; tick = tick.Add(f.cfg.Every) {
		time.Sleep(time.Until(tick))
		start := time.Now()
		ok, err := f.decide()
		f.run.LagSent++
		switch {
		case err != nil:
			f.run.LagRefused++
			f.run.RefuseMs += float64(time.Since(start).Microseconds()) / 1000
			if f.run.FirstRefuse < 0 {
				f.run.FirstRefuse = time.Since(frozen).Milliseconds()
			}
		case ok:
			f.run.LagAdmitted++
		}
	}
	if f.run.LagRefused > 0 {
		f.run.RefuseMs /= float64(f.run.LagRefused)
	}
	var err error
	if f.run.OldCount, err = windowCount(f.ctx, f.pc, f.key); err != nil {
		return fmt.Errorf("count on the old primary: %w", err)
	}
	return nil
}

// killPrimary kills the primary; the replica wakes, drains what reached
// its socket, and takes over. It measures the takeover and what the new
// primary's count forgot.
func (f *failover) killPrimary() error {
	if err := f.ctl.Kill(f.primary.Addr); err != nil {
		return err
	}
	killed := time.Now()
	f.undo = append(f.undo, func() {
		if !f.restarted {
			_ = f.ctl.Restart(f.primary.Addr)
		}
	})
	if err := f.ctl.Resume(f.replica.Addr); err != nil {
		return err
	}
	if err := redisproc.Takeover(f.ctx, f.cc, f.rc, f.primary.Addr, f.key); err != nil {
		return err
	}
	f.run.FailoverMs = time.Since(killed).Milliseconds()
	var err error
	if f.run.NewCount, err = windowCount(f.ctx, f.rc, f.key); err != nil {
		return fmt.Errorf("count on the new primary: %w", err)
	}
	f.run.Forgotten = f.run.OldCount - f.run.NewCount
	return nil
}

// afterPromotion sends requests in the same window to the new primary
// until it rejects 20 in a row, then adds up the run.
func (f *failover) afterPromotion() error {
	var firstRefused time.Time
	for rejects := 0; rejects < 20; {
		ok, err := f.decide()
		switch {
		case err != nil:
			f.run.AfterRefused++
			// The new primary has no replica: min-replicas-to-write refuses
			// the write, WAIT finds no one to confirm it. Give it one.
			if !f.restarted {
				if firstRefused = time.Now(); f.ctl.Restart(f.primary.Addr) != nil {
					return err
				}
				f.restarted = true
			}
			if f.run.AfterRefused > 100000 {
				return fmt.Errorf("the new primary kept refusing: %w", err)
			}
			time.Sleep(f.cfg.Every)
		case ok:
			f.run.AfterAdmitted++
			rejects = 0
		default:
			rejects++
		}
		if err == nil && !firstRefused.IsZero() && f.run.NoReplicaMs == 0 {
			f.run.NoReplicaMs = time.Since(firstRefused).Milliseconds()
		}
	}
	f.run.Total = f.run.Before + f.run.LagAdmitted + f.run.AfterAdmitted
	f.run.OverAdmitted = max(0, f.run.Total-f.cfg.Limit)
	return nil
}

// heal restarts the old primary if nothing has yet, waits until it
// replicates the new one, and until the cluster is healthy.
func (f *failover) heal() error {
	if !f.restarted {
		if err := f.ctl.Restart(f.primary.Addr); err != nil {
			return err
		}
		f.restarted = true
	}
	old := redisproc.NodeClients(f.primary.Addr)
	f.undo = append(f.undo, func() { redisproc.CloseAll(old) })
	if err := redisproc.WaitReplicaUp(f.ctx, f.rc, old[f.primary.Addr]); err != nil {
		return err
	}
	return waitClusterOK(f.ctx, f.cc)
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
