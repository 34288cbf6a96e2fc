//go:build !exercise10

package service

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redistest"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// partialCallers and partialRounds shape the load: each phase (before the
// master is stopped, after) is partialCallers callers sending
// partialRounds requests each, and asks every one of partialKeys keys
// exactly once.
const partialCallers, partialRounds = 64, 60

const partialKeys = partialCallers * partialRounds

// partialLimit is far above what a key is sent: every answer the store
// makes is OK, and a key's count is the number of its OK answers.
const partialLimit = 1000

// TestPartialClusterFailure stops one of a Redis Cluster's three masters
// under load with a fail-closed domain, killed (its connections refused)
// and frozen (SIGSTOP: its connections open, nothing answered). The
// answers are counted by cause and by the node that holds their key (read
// from a client's own slot table), so that what is asserted is an
// invariant, not a rate: the failure mode answers only for keys on the
// stopped master (about a third of the keys), and never for a key on the
// masters that answer, whose counts stay exact.
func TestPartialClusterFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	for _, stop := range []string{"kill", "pause"} {
		t.Run(stop, func(t *testing.T) { partialFailure(t, stop) })
	}
}

func partialFailure(t *testing.T, stop string) {
	cl := redistest.NewCluster(t)
	if !cl.Owned() {
		t.Skip("the cluster is someone else's (REDIS_CLUSTER_ADDRS): no master of it is stopped")
	}
	// By default a cluster refuses every key (CLUSTERDOWN) from the moment
	// it marks a master failed until a replica takes over: the masters that
	// answer stop answering too, whatever the service does. An operator
	// who wants them to keep counting sets this, and so does the test.
	for _, addr := range cl.Addrs {
		admin := redis.NewClient(&redis.Options{Addr: addr})
		err := admin.ConfigSet(context.Background(), "cluster-require-full-coverage", "no").Err()
		_ = admin.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	d, unit := uniqueDomain(t), windowUnit(t, time.Now()) // no window ends while the test runs
	rules := fmt.Sprintf("domain: %s\nfailure_mode: closed\ndescriptors:\n  - key: k\n    rate_limit: {unit: %s, requests_per_unit: %d}\n", d, unit, partialLimit)
	var log syncBuffer
	s := start(t, Options{Config: writeRules(t, rules), RedisCluster: cl.Addrs, Log: &log})
	nodeOf := keyNodes(t, s, cl, d)
	victim := nodeOf[0]
	onVictim := 0
	for _, n := range nodeOf {
		if n == victim {
			onVictim++
		}
	}
	c := client(t, s)
	ok := make([]atomic.Int64, partialKeys) // OK answers, by key
	before := partialLoad(t, c, d, ok, 0, nodeOf, victim)
	if before.failed != 0 || before.other != 0 {
		t.Fatalf("before the stop: %+v, want every answer OK", before)
	}
	masters := map[string]bool{}
	for _, n := range nodeOf {
		masters[n] = true
	}
	for n := range masters {
		wantMetric(t, s, fmt.Sprintf("ratelimit_store_up{node=%q}", n), "1")
	}
	stopVictim := cl.Kill
	if stop == "pause" {
		stopVictim = cl.Pause
		t.Cleanup(func() { _ = cl.Resume(victim) })
	}
	if err := stopVictim(victim); err != nil {
		t.Fatal(err)
	}
	// A replica takes over no sooner than the cluster's node timeout (2 s):
	// until then the stopped master is in the slot table, and down.
	if down := s.checkStore(context.Background()); !slices.Equal(down, []string{victim}) {
		t.Errorf("right after the stop: nodes down %v, want [%s]", down, victim)
	}
	wantMetric(t, s, fmt.Sprintf("ratelimit_store_up{node=%q}", victim), "0")
	after := partialLoad(t, c, d, ok, partialRounds, nodeOf, victim)
	share := float64(onVictim) / partialKeys
	failedShare := float64(after.failed) / float64(after.answers)
	t.Logf("%d of %d keys on the stopped master %s (%.3f); after the stop: %d answers, %d by the failure mode (%.3f), "+
		"%d of them for a key on a master that answers; %d OK for keys on the stopped master (after its replica took over)",
		onVictim, partialKeys, victim, share, after.answers, after.failed, failedShare, after.failedHealthy, after.okVictim)
	if after.failedHealthy != 0 || after.other != 0 {
		t.Logf("the service's log:\n%s", log.String())
		t.Errorf("after the stop: %d failure-mode answers for keys on the masters that answer, %d other errors; want 0 and 0",
			after.failedHealthy, after.other)
	}
	// The failure mode answers keys of the stopped master only, and every
	// key was asked once: at most the stopped master's share of the keys.
	// A master serves a third of the slots, so that share is a third give
	// or take the spread of 3,840 keys over three (a standard deviation of
	// 0.008): 0.40 is eight of them away.
	if failedShare > share || share > 0.40 {
		t.Errorf("%.3f of the answers by the failure mode, want at most the stopped master's share of the keys, %.3f, itself at most 0.40",
			failedShare, share)
	}
	for i, n := range nodeOf {
		if n == victim {
			continue
		}
		resp, err := c.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: d,
			Descriptors: []*rlcommon.RateLimitDescriptor{withHits(desc("k", fmt.Sprint(i)), 0)}})
		if want := uint32(partialLimit - ok[i].Load()); err != nil || resp.Statuses[0].GetLimitRemaining() != want {
			t.Fatalf("key %d on %s: %v %v, want %d remaining (%d counted)", i, n, summary(resp), err, want, ok[i].Load())
		}
	}
}

// keyNodes is, for each key of the test, the master that serves its slot,
// as a cluster client of the test's own reads the slot table.
func keyNodes(t *testing.T, s *Service, cl redistest.Cluster, domain string) []string {
	t.Helper()
	a := s.cur.Load()
	var ider interface{ ID(key string) string }
	for _, c := range a.counters {
		ider = c.(interface{ ID(key string) string })
	}
	cc := cl.Client(t)
	cc.ReloadState(context.Background())
	nodes := make([]string, partialKeys)
	for i := range nodes {
		id := ider.ID(counterKey(domain, []rules.Entry{{Key: "k", Value: fmt.Sprint(i)}}))
		m, err := cc.MasterForKey(context.Background(), distributed.Key(id, ""))
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = m.Options().Addr
	}
	return nodes
}

// partialCount is a load's answers by cause and by where their key lives.
type partialCount struct {
	answers, failed, failedHealthy, okVictim, other int64
}

// partialLoad sends partialCallers × partialRounds requests, one hit each,
// and counts the answers: OK (counted in ok, by key), UNAVAILABLE (the
// failure mode), anything else.
func partialLoad(t *testing.T, c rls.RateLimitServiceClient, domain string, ok []atomic.Int64, from int, nodeOf []string, victim string) partialCount {
	var n partialCount
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range partialCallers {
		wg.Go(func() {
			var mine partialCount
			for r := from; r < from+partialRounds; r++ {
				k := g*partialRounds + r - from
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				resp, err := c.ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: domain,
					Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", fmt.Sprint(k))}})
				cancel()
				mine.answers++
				switch {
				case err == nil && resp.OverallCode == rls.RateLimitResponse_OK:
					ok[k].Add(1)
					if nodeOf[k] == victim {
						mine.okVictim++
					}
				case status.Code(err) == codes.Unavailable:
					mine.failed++
					if nodeOf[k] != victim {
						mine.failedHealthy++
					}
				default:
					mine.other++
				}
			}
			mu.Lock()
			n.answers += mine.answers
			n.failed += mine.failed
			n.failedHealthy += mine.failedHealthy
			n.okVictim += mine.okVictim
			n.other += mine.other
			mu.Unlock()
		})
	}
	wg.Wait()
	return n
}
