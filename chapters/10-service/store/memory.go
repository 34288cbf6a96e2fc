package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// keyed is what every core.Keyed offers, whatever its algorithm.
type keyed interface {
	AllowN(key string, now time.Time, cost int) (core.Decision, error)
	Peek(key string, now time.Time) (core.Decision, error)
	Holds(key string) bool
	Sweep(now time.Time) int
	Len() int
}

// DefaultMaxKeys holds a million keys: about 400 MB of resident memory
// (TestMaxKeysBoundsMemory holds a key to 400 bytes; `tui serve` fed a
// million and more grew by 379 MB).
const DefaultMaxKeys = 1_000_000

// ErrFull is the memory store's answer for a new key when it already
// holds MaxKeys: the service answers it by the domain's failure mode. A
// live counter is never dropped to make room.
var ErrFull = errors.New("in-memory store full (--max-keys)")

// memoryStore keeps every count in this process: chapters 02–04 through
// core.Keyed, one per rule. Nothing is shared with another process, so two
// replicas of the service would each allow the whole limit (E8).
type memoryStore struct {
	now     func() time.Time
	maxKeys int
	log     io.Writer

	full    atomic.Bool  // refusing new keys since the line that said so
	refused atomic.Int64 // new keys refused while full

	mu       sync.Mutex
	counters map[rules.ID]*memCounter
	all      atomic.Pointer[[]*memCounter]
	stop     chan struct{}
	wg       sync.WaitGroup
}

// memCounter is one rule's counts. While prev is set (a reload changed the
// rule's limit, within a unit of it), a key's first decision carries its
// count over from the counter it had before.
type memCounter struct {
	k     keyed
	store *memoryStore
	rule  *rules.Rule

	carryMu sync.Mutex                 // one key's count is carried once
	prev    atomic.Pointer[memCounter] // nil once no count is left to carry
	until   time.Time                  // when prev's counts have all run out
}

func (c *memCounter) AllowN(_ context.Context, key string, cost int) (core.Decision, error) {
	now := c.store.now()
	if err := c.room(key, now); err != nil {
		return core.Decision{}, err
	}
	return c.k.AllowN(key, now, cost)
}

func (c *memCounter) Peek(_ context.Context, key string) (core.Decision, error) {
	now := c.store.now()
	if err := c.room(key, now); err != nil {
		return core.Decision{}, err
	}
	return c.k.Peek(key, now)
}

// room makes sure key may hold state: a key already held may, and a new
// one only while the store holds fewer than maxKeys (give or take the
// decisions in flight at that moment). A new key whose rule's limit changed
// in a reload starts from the count it had. Below the bound and with no
// count to carry, as nearly always, it takes no lock.
func (c *memCounter) room(key string, now time.Time) error {
	full := c.store.maxKeys > 0 && c.store.keys() >= c.store.maxKeys
	if !full && c.prev.Load() == nil || c.k.Holds(key) {
		return nil
	}
	if full {
		c.store.refuse()
		return ErrFull
	}
	c.carry(key, now)
	return nil
}

// carry counts against key what it had used under its rule's old limit,
// at most the new limit: a key over its limit stays over when a reload
// lowers the limit, as on Redis, whose key does not move.
func (c *memCounter) carry(key string, now time.Time) {
	c.carryMu.Lock()
	defer c.carryMu.Unlock()
	prev := c.prev.Load()
	if prev == nil || c.k.Holds(key) {
		return
	}
	if !now.Before(c.until) {
		c.prev.Store(nil)
		return
	}
	if !prev.k.Holds(key) {
		return
	}
	old, err := prev.k.Peek(key, now)
	if used := int(prev.rule.RequestsPerUnit) - old.Remaining; err == nil && used > 0 {
		_, _ = c.k.AllowN(key, now, min(used, int(c.rule.RequestsPerUnit)))
	}
}

// refuse notes a new key refused for want of room; the first of a spell
// is logged.
func (m *memoryStore) refuse() {
	m.refused.Add(1)
	if m.full.CompareAndSwap(false, true) {
		fmt.Fprintf(m.log, "in-memory store full: it holds %d keys (--max-keys %d); each new key is answered by its domain's failure_mode "+
			"(open: OK, uncounted; closed: UNAVAILABLE, 503) until idle keys expire\n", m.keys(), m.maxKeys)
	}
}

// roomAgain is the share of maxKeys below which a full store is said to
// have room again: a store held at its bound by steady traffic, freeing a
// few keys and refusing a few every sweep, logs one line, not two a sweep.
const roomAgain = 0.9

// Sweep drops every rule's idle keys, and logs when a full store has room
// again.
func (m *memoryStore) Sweep() {
	for _, c := range *m.all.Load() {
		c.k.Sweep(m.now())
	}
	if !m.full.Load() {
		return
	}
	if n := m.keys(); float64(n) <= roomAgain*float64(m.maxKeys) && m.full.CompareAndSwap(true, false) {
		fmt.Fprintf(m.log, "in-memory store has room again: it holds %d keys of %d (--max-keys); %d new key(s) were refused while it was full\n",
			n, m.maxKeys, m.refused.Swap(0))
	}
}

// newMemoryStore starts a sweeper that drops idle keys every sweep, so that
// the state per key stays bounded by what is live in its window; maxKeys
// bounds the keys held (0: no bound). log hears when the store fills up and
// when it has room again.
func newMemoryStore(now func() time.Time, sweep time.Duration, maxKeys int, log io.Writer) *memoryStore {
	m := &memoryStore{now: now, maxKeys: maxKeys, log: log, counters: map[rules.ID]*memCounter{}, stop: make(chan struct{})}
	m.all.Store(&[]*memCounter{})
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
				m.Sweep()
			}
		}
	}()
	return m
}

// MemoryOptions configures NewMemory.
type MemoryOptions struct {
	Now     func() time.Time // the store's clock (nil: time.Now)
	MaxKeys int              // the keys it holds at most (0: DefaultMaxKeys)
	Log     io.Writer        // hears when it fills up and has room again (nil: nothing)
}

// NewMemory is the store a Service without Redis opens, for
// Options.Store: behind an Outage switch, say, or on a clock of its own.
func NewMemory(o MemoryOptions) (Store, error) {
	if o.MaxKeys == 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.MaxKeys < 0 || o.MaxKeys > 1_000_000_000 {
		return nil, core.BadParam("max keys", o.MaxKeys, "1 to 1,000,000,000 keys")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return newMemoryStore(o.Now, time.Second, o.MaxKeys, o.Log), nil
}

// Counter is the rule's limiter in this process (one core.Keyed), its
// counts carried over from the rule's last counter when a reload changed
// its limit.
func (m *memoryStore) Counter(r *rules.Rule) (Counter, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := r.ID()
	if c, ok := m.counters[id]; ok {
		return c, nil
	}
	k, err := NewLimiter[keyed](r, memoryLimiters{})
	if err != nil {
		return nil, err
	}
	c := &memCounter{k: k, store: m, rule: r}
	for _, old := range m.counters { // the same rule before its limit changed
		if old.sameCount(r) {
			c.prev.Store(old)
			c.until = m.now().Add(r.Unit.Window())
		}
	}
	m.counters[id] = c
	m.publish()
	return c, nil
}

// sameCount reports whether c counted what r counts: the same path, unit
// and algorithm, whatever the limit.
func (c *memCounter) sameCount(r *rules.Rule) bool {
	return c.rule.Path == r.Path && c.rule.Unit == r.Unit && c.rule.Algorithm == r.Algorithm
}

// publish makes the counters' list, read without the lock by keys and the
// sweeper.
func (m *memoryStore) publish() {
	all := make([]*memCounter, 0, len(m.counters))
	for _, c := range m.counters {
		all = append(all, c)
	}
	m.all.Store(&all)
}

// keys is how many keys the store holds now.
func (m *memoryStore) keys() int {
	n := 0
	for _, c := range *m.all.Load() {
		n += c.k.Len()
	}
	return n
}

// memoryLimiters are chapters 02-04's limiters, one per rule.
type memoryLimiters struct{}

func (memoryLimiters) FixedWindow(c fixedwindow.Config) (keyed, error) {
	return fixedwindow.NewLimiter(c)
}

func (memoryLimiters) SlidingCounter(c sliding.Config) (keyed, error) {
	return sliding.NewCounterLimiter(c)
}

func (memoryLimiters) TokenBucket(c buckets.Config) (keyed, error) {
	return buckets.NewTokenBucketLimiter(c)
}

func (memoryLimiters) GCRA(c buckets.Config) (keyed, error) { return buckets.NewGCRALimiter(c) }

func (m *memoryStore) Remote() bool { return false }

func (m *memoryStore) Collectors() []prometheus.Collector { return nil }

func (m *memoryStore) Retain(keep map[rules.ID]bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id := range m.counters {
		if !keep[id] {
			delete(m.counters, id)
		}
	}
	m.publish()
}

// Now is MemoryOptions.Now, the clock of every count here.
func (m *memoryStore) Now() time.Time { return m.now() }

func (m *memoryStore) Describe() string {
	return "store: in memory (one process, chapters 02-04; counts are not shared and do not survive a restart)"
}

func (m *memoryStore) Close() error {
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	m.wg.Wait()
	return nil
}
