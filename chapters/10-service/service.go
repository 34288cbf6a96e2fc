package service

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// Options configures a Service. The zero value is a service on the example
// rules and the in-memory store, with no listener.
type Options struct {
	Config       string      // rules file or directory; "" = the chapter's example rules (embedded)
	RedisAddr    string      // "" and no RedisCluster: in-memory store
	RedisCluster []string    // seed nodes of a Redis Cluster
	HTTPAddr     string      // e.g. "127.0.0.1:0"; "" = no HTTP listener
	GRPCAddr     string      // e.g. "127.0.0.1:0"; "" = no gRPC listener
	DebugAddr    string      // pprof at /debug/pprof/, on a loopback address only (debug.go); "" = none
	FailureMode  FailureMode // the default for domains that set none ("" = FailOpen)

	// StoreTimeout is one store call's deadline, enforced by chapter 06's
	// Guard (0: DefaultStoreTimeout).
	StoreTimeout time.Duration
	// StorePatience is how long the store may answer nothing at all before
	// a decision waiting on it past StoreTimeout takes its domain's failure
	// mode (0: DefaultStorePatience). A decision that waits while the store
	// answers others is waiting in the service's own queue, not on a dead
	// store (chapter 06's Guard, Patience).
	StorePatience time.Duration
	// MaxKeys bounds the keys the in-memory store holds (0: DefaultMaxKeys).
	// A new key past it is answered by its domain's failure mode (open: OK,
	// counted nowhere; closed: OVER_LIMIT), and both are counted in
	// ratelimit_store_full_total; a live counter is never dropped for it.
	MaxKeys int
	// MaxStoreCalls is how many store calls may be in flight at once
	// (0: DefaultMaxStoreCalls). A decision past it waits for a place, on
	// its caller's deadline and not the store's: the queue in front of the
	// store is bounded, and its wait is never taken for a slow store.
	MaxStoreCalls int
	// DenyCache is how many over-limit keys the deny cache remembers
	// (0: DefaultDenyCache; negative: no deny cache).
	DenyCache int
	// NoBatch sends each script call on its own round trip instead of
	// sharing pipelines (for E35's comparison).
	NoBatch bool
	// ReloadEvery is how often the rules are checked for a change
	// (0: DefaultReloadEvery; negative: never).
	ReloadEvery time.Duration
	// Now is the clock for the in-memory store and the deny cache (nil: time.Now).
	Now func() time.Time
	// Log receives the service's one-line notes: the store, reloads (nil: discarded).
	Log io.Writer
	// Outage, if set, is a switch that takes the store down (outage.go).
	Outage *Outage
	// ResponseHeaders adds RateLimit-Limit, -Remaining and -Reset to every
	// response with a limit, as the reference's LIMIT_RESPONSE_HEADERS_ENABLED (headers.go).
	ResponseHeaders bool
	// RedisEvictionPolicy states Redis's maxmemory-policy, for a server that
	// disables CONFIG; "" = read it (eviction.go).
	RedisEvictionPolicy string

	limits serverLimits // the transports' timeouts and caps (listen.go); zero: the constants
}

// Defaults of Options.
const (
	DefaultStoreTimeout = 50 * time.Millisecond
	DefaultDenyCache    = 100_000
	DefaultReloadEvery  = 100 * time.Millisecond
	// DefaultStorePatience is ten deadlines: a store silent that long is
	// down, and a service short of CPU does not see a healthy store fall
	// silent for that long.
	DefaultStorePatience = 500 * time.Millisecond
	// DefaultMaxKeys holds a million keys: about 400 MB of resident memory
	// (TestMaxKeysBoundsMemory holds a key to 400 bytes; `tui serve` fed a
	// million and more grew by 379 MB).
	DefaultMaxKeys = 1_000_000
	// DefaultMaxStoreCalls keeps a pipeline short (the Batcher sends up to
	// four at once), so that the store answers some call every few hundred
	// microseconds even under load.
	DefaultMaxStoreCalls = 64
)

// Service is the rate limit service: Envoy's RateLimitService over gRPC and
// the same request as JSON over HTTP, answered from the rules and a store.
type Service struct {
	o      Options
	st     store
	guard  *distributed.Guard // nil for the in-memory store
	slots  chan struct{}      // a place per store call in flight (MaxStoreCalls)
	deny   *denyCache[denyKey]
	m      *metrics
	now    func() time.Time
	cur    atomic.Pointer[active]
	log    io.Writer
	health *storeHealth // logs a domain's store failing and recovering

	reloadMu     sync.Mutex
	lastFiles    string    // fingerprint of the rules files last loaded or refused
	pending      string    // a new fingerprint seen, loaded once it has held still
	pendingSince time.Time // when pending was first seen

	srv *server // the listeners, health and drain (server.go)

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// active is one loaded rule set and each rule's counter, swapped whole on a
// reload: a request sees one rule set from start to end.
type active struct {
	rules       *RuleSet
	counters    map[*Rule]counter
	domainNames []string
}

// Start loads the rules, opens the store and the listeners, and starts the
// reload watcher. Close stops them all.
func Start(ctx context.Context, o Options) (*Service, error) {
	if o.FailureMode == "" {
		o.FailureMode = FailOpen
	}
	if _, err := ParseFailureMode(string(o.FailureMode)); err != nil {
		return nil, err
	}
	if o.DebugAddr != "" {
		if err := checkDebugAddr(o.DebugAddr); err != nil {
			return nil, err
		}
	}
	if o.RedisAddr != "" && len(o.RedisCluster) > 0 {
		return nil, core.BadParam("redis", o.RedisAddr, "either --redis or --redis-cluster, not both")
	}
	if o.StoreTimeout == 0 {
		o.StoreTimeout = DefaultStoreTimeout
	}
	if o.StoreTimeout < 0 {
		return nil, core.BadParam("store timeout", o.StoreTimeout, "a duration > 0")
	}
	if o.StorePatience == 0 {
		o.StorePatience = DefaultStorePatience
	}
	if o.StorePatience < 0 {
		return nil, core.BadParam("store patience", o.StorePatience, "a duration > 0")
	}
	if o.MaxKeys == 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.MaxKeys < 0 || o.MaxKeys > 1_000_000_000 {
		return nil, core.BadParam("max keys", o.MaxKeys, "1 to 1,000,000,000 keys")
	}
	if o.MaxStoreCalls == 0 {
		o.MaxStoreCalls = DefaultMaxStoreCalls
	}
	if o.MaxStoreCalls < 0 || o.MaxStoreCalls > 100_000 {
		return nil, core.BadParam("max store calls", o.MaxStoreCalls, "1 to 100,000 calls in flight")
	}
	if o.DenyCache == 0 {
		o.DenyCache = DefaultDenyCache
	}
	if o.ReloadEvery == 0 {
		o.ReloadEvery = DefaultReloadEvery
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	s := &Service{o: o, m: newMetrics(), now: o.Now, log: o.Log,
		deny: newDenyCache[denyKey](o.DenyCache), stop: make(chan struct{}), slots: make(chan struct{}, o.MaxStoreCalls)}
	s.health = newStoreHealth(s.log, time.Now)
	rules, err := LoadRules(o.Config)
	if err != nil {
		return nil, err
	}
	if err := s.openStore(ctx); err != nil {
		return nil, err
	}
	s.m.reg.MustRegister(s.st.collectors()...)
	a, err := s.compile(rules)
	if err != nil {
		_ = s.st.close()
		return nil, err
	}
	s.cur.Store(a)
	s.lastFiles, _, _ = fingerprint(o.Config)
	fmt.Fprintln(s.log, s.st.describe())
	s.srv = &server{s: s, limits: o.limits.withDefaults()}
	if err := s.srv.listen(); err != nil {
		_ = s.Close()
		return nil, err
	}
	if o.ReloadEvery > 0 && o.Config != "" {
		s.wg.Add(1)
		go s.watch()
	}
	return s, nil
}

// openStore picks the store: Redis Cluster, Redis, or memory; a remote store
// goes behind chapter 06's Guard with one class per failure mode.
func (s *Service) openStore(ctx context.Context) error {
	if s.o.RedisAddr == "" && len(s.o.RedisCluster) == 0 {
		s.st = newMemoryStore(s.now, time.Second, s.o.MaxKeys)
		return s.guardOutage()
	}
	rs, err := newRedisStore(ctx, redisConfig{addr: s.o.RedisAddr, cluster: s.o.RedisCluster,
		patience: s.o.StorePatience, batch: !s.o.NoBatch, evictionPolicy: s.o.RedisEvictionPolicy})
	if err != nil {
		return err
	}
	g, err := s.newGuard(s.o.StoreTimeout)
	if err != nil {
		_ = rs.close()
		return err
	}
	s.st, s.guard = rs, g
	return nil
}

// compile builds (or, for a rule whose identity is unchanged, finds) each
// rule's counter, and lets the store forget the rules that are gone.
func (s *Service) compile(rules *RuleSet) (*active, error) {
	a := &active{rules: rules, counters: map[*Rule]counter{}}
	keep := map[ruleID]bool{}
	for _, r := range rules.rules {
		if r.Unlimited || r.RequestsPerUnit == 0 {
			continue
		}
		c, err := s.st.counter(r)
		if err != nil {
			return nil, &RuleError{File: r.File, Line: r.Line, Field: "rate_limit", Msg: err.Error()}
		}
		a.counters[r] = c
		keep[r.id()] = true
	}
	for name := range rules.domains {
		a.domainNames = append(a.domainNames, name)
	}
	sort.Strings(a.domainNames)
	s.st.retain(keep)
	return a, nil
}

// GRPCAddr is the gRPC listener's address ("" without one).
func (s *Service) GRPCAddr() string { return s.srv.addr(s.srv.grpcLn) }

// HTTPAddr is the HTTP listener's address ("" without one).
func (s *Service) HTTPAddr() string { return s.srv.addr(s.srv.httpLn) }

// DebugAddr is the debug listener's address ("" without one).
func (s *Service) DebugAddr() string { return s.srv.addr(s.srv.debugLn) }

// Rules is the rule set in force.
func (s *Service) Rules() *RuleSet { return s.cur.Load().rules }

// Close stops the listeners, lets the calls in flight finish (up to
// DrainTimeout, then cuts them and reports it), and stops the watcher and
// the store. It is idempotent.
func (s *Service) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		if s.srv != nil {
			s.closeErr = s.srv.stop()
		}
		s.wg.Wait()
		if err := s.st.close(); err != nil && s.closeErr == nil {
			s.closeErr = err
		}
	})
	return s.closeErr
}
