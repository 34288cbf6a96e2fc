package ring

import (
	"errors"
	"time"
)

// state is an owner's bucket as it broadcasts it to the other peers.
type state struct {
	Request           // the key, limit and duration (Hits unused)
	Tokens  float64   `json:"tokens"`
	Last    time.Time `json:"last"`
}

// decideCopy answers a GLOBAL request from the peer's copy of the owner's
// bucket (a full bucket until the first broadcast) and queues the hits it
// admits for the owner.
func (p *Peer) decideCopy(req Request, owner string) Response {
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	e, err := lookup(p.copies, req)
	if err != nil {
		return Response{Owner: owner, Error: err.Error()}
	}
	d := e.b.AllowN(now, req.Hits)
	if d.Allowed {
		q := p.queued[req.Key]
		if q.Key == "" {
			q = req
			q.Hits = 0
		}
		q.Hits += req.Hits
		p.queued[req.Key] = q
	}
	return Response{Allowed: d.Allowed, Remaining: d.Remaining, Owner: owner}
}

// Sync is one GLOBAL sync interval's work: the hits this peer admitted from
// its copies go to their owners (one message per owner), each owner merges
// them and broadcasts the new state to every peer, and this peer broadcasts
// the state of the keys it owns that changed. When Sync returns, every
// peer's copy of those keys is the owner's state.
func (p *Peer) Sync() error {
	p.mu.Lock()
	byOwner := map[string][]Request{}
	r := p.ring.Load()
	for _, q := range p.queued {
		byOwner[r.Owner(q.Key)] = append(byOwner[r.Owner(q.Key)], q)
	}
	p.queued = map[string]Request{}
	p.mu.Unlock()
	var errs []error
	for owner, hits := range byOwner {
		var ok []bool
		errs = append(errs, post(p.client, owner, "/v1/peer/hits", hits, &ok))
	}
	p.applyHits(nil) // broadcasts this peer's own dirty keys
	p.mu.Lock()
	errs = append(errs, p.mergeErr)
	p.mu.Unlock()
	return errors.Join(errs...)
}

// applyHits is the owner's side of a sync: merge each peer's admitted hits
// into its bucket, then broadcast every changed key's state.
func (p *Peer) applyHits(hits []Request) []bool {
	now := p.now()
	p.mu.Lock()
	for _, h := range hits {
		e, err := lookup(p.owned, h)
		if err != nil {
			continue
		}
		uncovered, err := merge(e.b, now, h.Hits)
		if err != nil {
			p.mergeErr = err // this peer reports it at its own next Sync
		}
		p.OverAdmitted.Add(int64(uncovered))
		p.dirty[h.Key] = struct{}{}
	}
	states := make([]state, 0, len(p.dirty))
	for k := range p.dirty {
		e := p.owned[k]
		s := e.b.State()
		states = append(states, state{Request{Key: k, Limit: e.limit, Duration: e.dur}, s.Tokens, s.Last})
	}
	p.dirty = map[string]struct{}{}
	p.mu.Unlock()
	if len(states) > 0 {
		for _, peer := range p.ring.Load().Peers() {
			if peer != p.addr {
				var ok []bool // a peer that misses it answers from its old copy until the next
				post(p.client, peer, "/v1/peer/state", states, &ok)
			}
		}
	}
	return make([]bool, len(hits))
}

// takeState replaces the peer's copies with an owner's broadcast state.
func (p *Peer) takeState(states []state) []bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range states {
		delete(p.copies, s.Key)
		r := s.Request
		r.Hits = 1 // a valid request for lookup: the copy is rebuilt full, then spent
		e, err := lookup(p.copies, r)
		if err != nil {
			continue
		}
		if spent := e.limit - int(s.Tokens+1e-9); spent > 0 {
			e.b.AllowN(s.Last, spent) // the copy holds the owner's whole tokens as of Last
		}
	}
	return make([]bool, len(states))
}
