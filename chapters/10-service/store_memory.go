package service

import (
	"context"
	"sync"
	"time"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// keyed is what every core.Keyed offers, whatever its algorithm.
type keyed interface {
	AllowN(key string, now time.Time, cost int) (core.Decision, error)
	Sweep(now time.Time) int
	Len() int
}

// memoryStore keeps every count in this process: chapters 02–04 through
// core.Keyed, one per rule. Nothing is shared with another process, so two
// replicas of the service would each allow the whole limit (E8).
type memoryStore struct {
	now func() time.Time

	mu       sync.Mutex
	counters map[string]*memCounter // by rule signature
	stop     chan struct{}
	wg       sync.WaitGroup
}

type memCounter struct {
	k   keyed
	now func() time.Time
}

func (c *memCounter) AllowN(_ context.Context, key string, cost int) (core.Decision, error) {
	return c.k.AllowN(key, c.now(), cost)
}

// newMemoryStore starts a sweeper that drops idle keys every sweep, so that
// the state per key stays bounded by what is live in its window.
func newMemoryStore(now func() time.Time, sweep time.Duration) *memoryStore {
	m := &memoryStore{now: now, counters: map[string]*memCounter{}, stop: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		t := time.NewTicker(sweep)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				m.mu.Lock()
				cs := make([]*memCounter, 0, len(m.counters))
				for _, c := range m.counters {
					cs = append(cs, c)
				}
				m.mu.Unlock()
				for _, c := range cs {
					c.k.Sweep(m.now())
				}
			}
		}
	}()
	return m
}

func (m *memoryStore) counter(r *Rule) (counter, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sig := r.signature()
	if c, ok := m.counters[sig]; ok {
		return c, nil
	}
	k, err := newKeyed(r)
	if err != nil {
		return nil, err
	}
	c := &memCounter{k: k, now: m.now}
	m.counters[sig] = c
	return c, nil
}

// newKeyed builds the chapter's limiter for a rule: L = requests_per_unit
// per unit for the windows; C = requests_per_unit refilled over one unit for
// the buckets.
func newKeyed(r *Rule) (keyed, error) {
	w, l := window(r), int(r.RequestsPerUnit)
	switch r.Algorithm {
	case AlgoSlidingCounter:
		return sliding.NewCounterLimiter(sliding.Config{Window: w, Limit: l})
	case AlgoTokenBucket:
		return buckets.NewTokenBucketLimiter(buckets.Config{Capacity: l, Rate: float64(l) / w.Seconds()})
	case AlgoGCRA:
		return buckets.NewGCRALimiter(buckets.Config{Capacity: l, Rate: float64(l) / w.Seconds()})
	}
	return fixedwindow.NewLimiter(fixedwindow.Config{Window: w, Limit: l})
}

func (m *memoryStore) remote() bool { return false }

func (m *memoryStore) retain(keep map[string]bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for sig := range m.counters {
		if !keep[sig] {
			delete(m.counters, sig)
		}
	}
}

func (m *memoryStore) describe() string {
	return "store: in memory (one process, chapters 02-04; counts are not shared and do not survive a restart)"
}

func (m *memoryStore) close() error {
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	m.wg.Wait()
	return nil
}
