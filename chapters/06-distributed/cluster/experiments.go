package cluster

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Part names one experiment of part 3.
type Part int

// The experiments, by what they show.
const (
	PartHashTags  Part = iota // E21: an identity's keys share a slot; identities spread evenly
	PartHotKey                // E22: a hot identity stays on one primary; prefetch relieves it
	PartFailover              // E23: a failover forgets what the replica never got, per mitigation
	PartMigration             // a slot moves under traffic with no failed decision
)

// Experiment is one measurement of part 3 with CLUSTER.md's settings.
type Experiment struct {
	Part  Part
	Title string
	Kills bool // it kills and restarts nodes: only on a cluster whose processes the caller controls
}

// Experiments is the one order part 3 runs in: its tests, `tui cluster`
// and the cluster screen all take it from here.
var Experiments = []Experiment{
	{PartHashTags, fmt.Sprintf("E21 hash tags: %d identities", HashTagIDs), false},
	{PartHotKey, "E22 the hot key", false},
	{PartFailover, "E23 failover: freeze the replica, kill the primary, promote", true},
	{PartMigration, "moving a slot under traffic", false},
}

// Mitigations is the order of E23's runs.
var Mitigations = []Mitigation{MitigationNone, MitigationMinReplicas, MitigationWait}

// Stage is reported when an experiment, or one run of E23, begins.
type Stage struct {
	Part Part
	What string
}

// Skipped is reported instead of an experiment that kills nodes when the
// caller has no NodeControl.
type Skipped struct {
	Part Part
	Why  string
}

// Run runs e on the cluster behind cc, its identities under prefix, and
// hands report (nil: none) what it sees as it goes: a Stage as it begins,
// then its results: a HashTagResult; HotKeyProgress reports and a
// HotKeyResult; a Stage and a FailoverRun per mitigation; a
// MigrationResult. ctl is nil for a cluster that is someone else's; an
// experiment that kills nodes then reports Skipped.
func (e Experiment) Run(ctx context.Context, cc *redis.ClusterClient, ctl NodeControl, prefix string, report func(any)) error {
	if report == nil {
		report = func(any) {}
	}
	if e.Kills && ctl == nil {
		report(Skipped{e.Part, "E23 kills a primary: it runs only on a cluster this program started (unset REDIS_CLUSTER_ADDRS)"})
		return nil
	}
	report(Stage{e.Part, e.Title})
	switch e.Part {
	case PartHashTags:
		res, err := RunHashTags(ctx, cc, prefix, HashTagIDs)
		if err != nil {
			return fmt.Errorf("E21: %w", err)
		}
		report(res)
	case PartHotKey:
		res, err := RunHotKey(ctx, cc, DefaultHotKey(prefix), func(p HotKeyProgress) { report(p) })
		if err != nil {
			return fmt.Errorf("E22: %w", err)
		}
		report(res)
	case PartFailover:
		for i, m := range Mitigations {
			report(Stage{e.Part, fmt.Sprintf("E23 failover %d of %d (%s): freeze the replica, kill the primary, promote",
				i+1, len(Mitigations), m)})
			run, err := RunFailover(ctx, cc, ctl, DefaultFailover(prefix), m)
			if err != nil {
				return fmt.Errorf("E23 (%s): %w", m, err)
			}
			report(run)
		}
	case PartMigration:
		res, err := RunMigration(ctx, cc, DefaultMigration(prefix))
		if err != nil {
			return fmt.Errorf("slot migration: %w", err)
		}
		report(res)
	default:
		return fmt.Errorf("no experiment %d", e.Part)
	}
	return nil
}

// RunAll runs every experiment in order; the first error stops it.
func RunAll(ctx context.Context, cc *redis.ClusterClient, ctl NodeControl, prefix string, report func(any)) error {
	for _, e := range Experiments {
		if err := e.Run(ctx, cc, ctl, prefix, report); err != nil {
			return err
		}
	}
	return nil
}

// Find returns the experiment of part p.
func Find(p Part) Experiment {
	for _, e := range Experiments {
		if e.Part == p {
			return e
		}
	}
	return Experiment{Part: p, Title: fmt.Sprintf("part %d", p)}
}

// runPhases runs an experiment's phases in order and stops at the first
// that fails: each experiment's Run function is its list of phases.
func runPhases(phases ...func() error) error {
	for _, phase := range phases {
		if err := phase(); err != nil {
			return err
		}
	}
	return nil
}
