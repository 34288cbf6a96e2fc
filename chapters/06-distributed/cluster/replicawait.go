package cluster

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

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
	if err := distributed.CheckNoEviction(ctx, cc); err != nil {
		return nil, err
	}
	return distributed.AssumeNoEviction(waitScripter{cc, replicas, timeout}), nil
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

// timeWait times Samples decisions on a healthy shard without and with WAIT,
// both sent the same way (a pipeline on the key's primary), so that the
// difference is WAIT's alone.
func (run *FailoverRun) timeWait(ctx context.Context, cc *redis.ClusterClient, wait redis.Scripter, cfg FailoverConfig, id string) error {
	plain := distributed.AssumeNoEviction(waitScripter{cc, 0, 0}) // checked by WaitForReplicas
	// wait allows HealthyWait: on a healthy shard WAIT returns as soon as
	// the replica acknowledges, so the latency measured is the same, and a
	// slow ack on a loaded machine is timed instead of failing the run.
	var ls [2]*distributed.FixedWindow
	for i, s := range []redis.Scripter{plain, wait} {
		var err error
		if ls[i], err = fixedWindow(s, time.Hour, cfg.Samples+50); err != nil {
			return err
		}
	}
	// The replica's acknowledgements the WAIT key's primary receives while
	// the two are timed: one round trip to the replica per WAIT.
	primary, err := cc.MasterForKey(ctx, distributed.Key(id+"-wait", "fw"))
	if err != nil {
		return err
	}
	acks := func() (int64, error) {
		info, err := primary.Info(ctx, "commandstats").Result()
		return redisproc.StatCount(info, "cmdstat_replconf", "calls"), err
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
