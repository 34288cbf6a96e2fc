package service

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// storeCheckEvery is how often the service pings every node of its store.
const storeCheckEvery = time.Second

// storeCheckTimeout bounds one round of pings, each of which gives up
// sooner (StorePatience).
const storeCheckTimeout = 10 * time.Second

// storeCheck is what the latest round of pings found: each node up or down.
// It is ratelimit_store_up, a gauge per node, always; with
// --health-checks-store it is also the health the service reports (health.go,
// and gRPC health through server.SetStoreUp).
type storeCheck struct {
	desc *prometheus.Desc

	mu     sync.Mutex
	up     map[string]bool // by node address
	rounds int64           // rounds begun
	shown  int64           // the round up comes from: a later one may end first
}

// begin numbers a round of pings.
func (c *storeCheck) begin() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rounds++
	return c.rounds
}

// found records round's findings and tells show whether every node is up,
// unless a round begun later has already recorded its own.
func (c *storeCheck) found(round int64, up map[string]bool, show func(allUp bool)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if round <= c.shown {
		return
	}
	c.up, c.shown = up, round
	all := true
	for _, ok := range up {
		all = all && ok
	}
	show(all)
}

func newStoreCheck() *storeCheck {
	return &storeCheck{up: map[string]bool{}, desc: prometheus.NewDesc("ratelimit_store_up",
		"1 if the store's node answered the service's latest ping (every second), 0 if not; "+
			"one series per node: each master of a Redis Cluster, the one Redis, or memory.",
		[]string{"node"}, nil)}
}

// Describe sends the gauge's description.
func (c *storeCheck) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect sends each node's gauge.
func (c *storeCheck) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for node, up := range c.up {
		v := 0.0
		if up {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, v, node)
	}
}

// down lists the nodes that did not answer the latest round, sorted.
func (c *storeCheck) down() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for node, up := range c.up {
		if !up {
			out = append(out, node)
		}
	}
	sort.Strings(out)
	return out
}

// checkStore pings every node of the store, each under StorePatience,
// records what it found and, with HealthChecksStore, turns the gRPC health
// with it. It returns the nodes that did not answer. The pings go around
// the Guards: a breaker judges decisions, and needs them to close again
// (its probe is the first decision past its cool-down); the health check
// must see a node come back even while no decision comes to try it.
func (s *Service) checkStore(ctx context.Context) []string {
	round := s.check.begin()
	nodes := store.Nodes(ctx, s.st, s.o.StorePatience)
	up := make(map[string]bool, len(nodes))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, s.o.StorePatience)
			defer cancel()
			ok := n.Ping(pctx) == nil
			mu.Lock()
			up[n.Addr] = ok
			mu.Unlock()
		})
	}
	wg.Wait()
	s.check.found(round, up, func(allUp bool) {
		if s.o.HealthChecksStore && s.srv != nil {
			s.srv.SetStoreUp(allUp)
		}
	})
	return s.check.down()
}

// startStoreCheck registers ratelimit_store_up, pings the store once and
// then every storeCheckEvery until Close.
func (s *Service) startStoreCheck() {
	s.m.reg.MustRegister(s.check)
	round := func() {
		ctx, cancel := context.WithTimeout(context.Background(), storeCheckTimeout)
		defer cancel()
		s.checkStore(ctx)
	}
	round()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(storeCheckEvery)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				round()
			}
		}
	}()
}
