package service

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// Service is the rate limit service: Envoy's RateLimitService over gRPC and
// the same request as JSON over HTTP, answered from the rules and a store.
type Service struct {
	o      Options
	st     store.Store
	guard  *nodeGuards   // a Guard per store node; nil for the in-memory store
	slots  chan struct{} // a place per store call in flight (MaxStoreCalls)
	deny   *denyCache[denyKey]
	m      *metrics
	cur    atomic.Pointer[active]
	health *storeHealth // logs a domain's store failing and recovering
	check  *storeCheck  // each node of the store up or down (storecheck.go)

	reloadMu     sync.Mutex
	lastFiles    string    // fingerprint of the rules files last loaded or refused
	pending      string    // a new fingerprint seen, loaded once it has held still
	pendingSince time.Time // when pending was first seen

	srv *server.Server // the listeners and their drain (package server)

	stop         chan struct{}
	wg           sync.WaitGroup
	closeOnce    sync.Once
	closeErr     error
	stopRedisLog func() // go-redis's lines back off the service's log (log.go)
}

// active is one loaded rule set and each rule's counter, swapped whole on a
// reload: a request sees one rule set from start to end.
type active struct {
	rules    *rules.RuleSet
	counters map[*rules.Rule]store.Counter
}

// Start loads the rules, opens the store and the listeners (package
// server), and starts the reload watcher. Close stops them all. A store
// given in Options.Store is the service's from here: closed by Close, or by
// Start when it fails.
func Start(ctx context.Context, o Options) (*Service, error) {
	return startTuned(ctx, o, tuning{})
}

// tuning is what tests set and an operator never does.
type tuning struct {
	noBatch bool          // each script call on its own round trip, not in shared pipelines (E35's comparison)
	limits  server.Limits // short timeouts and caps for the listeners; zero: server's constants
}

// startTuned is Start with the tests' tuning.
func startTuned(ctx context.Context, o Options, tn tuning) (*Service, error) {
	s, err := startService(ctx, o, tn)
	if err != nil && s == nil && o.Store != nil {
		_ = o.Store.Close()
	}
	return s, err
}

// startService is Start, which closes o.Store once more when it fails (Close
// twice does nothing).
func startService(ctx context.Context, o Options, tn tuning) (*Service, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Service{o: o, m: newMetrics(),
		deny: newDenyCache[denyKey](o.DenyCache), stop: make(chan struct{}), slots: make(chan struct{}, o.MaxStoreCalls)}
	s.health = newStoreHealth(s.o.logger, time.Now)
	s.check = newStoreCheck()
	set, err := rules.LoadRules(o.Config)
	if err != nil {
		return nil, err
	}
	if err := s.openStore(ctx, tn.noBatch); err != nil {
		return nil, err
	}
	s.m.reg.MustRegister(s.st.Collectors()...)
	a, err := s.compile(set)
	if err != nil {
		_ = s.st.Close()
		return nil, err
	}
	s.cur.Store(a)
	s.lastFiles, _ = fingerprint(o.Config)
	s.o.logger.Info("store opened", "store", strings.TrimPrefix(s.st.Describe(), "store: "))
	s.srv, err = server.Listen(s, server.Config{GRPCAddr: o.GRPCAddr, HTTPAddr: o.HTTPAddr, AdminAddr: o.AdminAddr,
		DebugAddr: o.DebugAddr, Limits: o.limits(tn.limits), Registry: s.m.reg})
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	s.startStoreCheck()
	if o.ReloadEvery > 0 && o.Config != "" {
		s.wg.Add(1)
		go s.watch()
	}
	return s, nil
}

// openStore picks the store: Redis Cluster, Redis, or memory; a remote store
// goes behind chapter 06's Guard with one class per failure mode.
func (s *Service) openStore(ctx context.Context, noBatch bool) error {
	if s.o.Store != nil {
		s.st = s.o.Store
		return s.guardOutage()
	}
	if s.o.redis == nil {
		st, err := store.NewMemory(store.MemoryOptions{MaxKeys: s.o.MaxKeys, Log: s.o.Log})
		s.st = st
		return err
	}
	s.stopRedisLog = routeRedisLog(s.o.logger) // log.go
	rs, err := store.NewRedis(ctx, store.RedisConfig{Conn: s.o.redis, Patience: s.o.StorePatience, Batch: !noBatch,
		EvictionPolicy: s.o.RedisEvictionPolicy, WatchEvery: s.o.RedisEvictionCheckEvery, Log: s.o.logger})
	if err != nil {
		return err
	}
	s.st = rs // before the Guards, whose breakers run on its clock
	g, err := s.newGuard(s.o.StoreTimeout)
	if err != nil {
		_ = rs.Close()
		return err
	}
	s.guard = g
	return nil
}

// compile builds (or, for a rule whose identity is unchanged, finds) each
// rule's counter, and lets the store forget the rules that are gone.
func (s *Service) compile(set *rules.RuleSet) (*active, error) {
	a := &active{rules: set, counters: map[*rules.Rule]store.Counter{}}
	keep := map[rules.ID]bool{}
	for _, r := range set.Rules() {
		if r.Unlimited || r.RequestsPerUnit == 0 {
			continue
		}
		c, err := s.st.Counter(r)
		if err != nil {
			return nil, &rules.RuleError{File: r.File, Line: r.Line, Field: "rate_limit", Msg: err.Error()}
		}
		a.counters[r] = c
		keep[r.ID()] = true
	}
	s.st.Retain(keep)
	return a, nil
}

// GRPCAddr is the gRPC listener's address ("" without one).
func (s *Service) GRPCAddr() string { return s.srv.GRPCAddr() }

// HTTPAddr is the HTTP listener's address ("" without one).
func (s *Service) HTTPAddr() string { return s.srv.HTTPAddr() }

// DebugAddr is the debug listener's address ("" without one).
func (s *Service) DebugAddr() string { return s.srv.DebugAddr() }

// AdminAddr is the admin listener's address ("" without one).
func (s *Service) AdminAddr() string { return s.srv.AdminAddr() }

// Rules is the rule set in force.
func (s *Service) Rules() *rules.RuleSet { return s.cur.Load().rules }

// Close stops the listeners, lets the calls in flight finish (up to
// server.DrainTimeout, then cuts them and reports it), and stops the watcher and
// the store. It is idempotent.
func (s *Service) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		if s.srv != nil {
			s.closeErr = s.srv.Stop()
		}
		s.wg.Wait()
		if err := s.st.Close(); err != nil && s.closeErr == nil {
			s.closeErr = err
		}
		if s.stopRedisLog != nil {
			s.stopRedisLog()
		}
	})
	return s.closeErr
}
