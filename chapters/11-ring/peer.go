package ring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Peer is one limiter of the cluster, serving HTTP on a loopback port:
// POST /v1/check for callers, and /v1/peer/forward, /v1/peer/hits and
// /v1/peer/state for the other peers. Its name on the ring is its address.
type Peer struct {
	addr   string
	now    func() time.Time
	srv    *http.Server
	client *http.Client
	ring   atomic.Pointer[Ring]

	mu       sync.Mutex
	owned    map[string]*entry   // the buckets this peer owns
	copies   map[string]*entry   // GLOBAL: its copies of other owners' buckets
	queued   map[string]Request  // GLOBAL: admitted hits not yet sent to their owner
	dirty    map[string]struct{} // GLOBAL: owned keys changed since the last broadcast
	mergeErr error               // the exercise stub's merge error, reported by Sync

	bmu      sync.Mutex
	batchers map[string]*batcher

	// Forwards counts requests sent to an owner, Batches the round trips
	// that carried them, OverAdmitted the GLOBAL hits an owner could not cover.
	Forwards, Batches, OverAdmitted atomic.Int64
}

// Start listens on 127.0.0.1 (a free port) and serves until Close. now is
// the peer's clock (nil: time.Now); tests pass one they control.
func Start(now func() time.Time) (*Peer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	p := &Peer{
		addr: ln.Addr().String(), now: now,
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		owned:  map[string]*entry{}, copies: map[string]*entry{}, queued: map[string]Request{},
		dirty: map[string]struct{}{}, batchers: map[string]*batcher{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/check", serve(p.Check))
	mux.HandleFunc("POST /v1/peer/forward", serve(p.decideOwned))
	mux.HandleFunc("POST /v1/peer/hits", serve(p.applyHits))
	mux.HandleFunc("POST /v1/peer/state", serve(p.takeState))
	p.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

// Addr is the peer's address, its name on the ring.
func (p *Peer) Addr() string { return p.addr }

// SetRing gives the peer the cluster's ring (every peer must get the same one).
func (p *Peer) SetRing(r *Ring) { p.ring.Store(r) }

// Close stops serving and closes every connection; the peer's counts are gone.
func (p *Peer) Close() error {
	err := p.srv.Close()
	p.client.CloseIdleConnections()
	return err
}

// Check decides each request: itself for the keys it owns (and for GLOBAL
// keys, from its copy), otherwise through its owner in one hop. Requests
// for other owners are sent concurrently, so they share batches.
func (p *Peer) Check(reqs []Request) []Response {
	out := make([]Response, len(reqs))
	r := p.ring.Load()
	if r == nil {
		for i := range out {
			out[i].Error = "peer " + p.addr + ": no ring yet (SetRing)"
		}
		return out
	}
	var wg sync.WaitGroup
	for i, req := range reqs {
		owner := r.Owner(req.Key)
		switch {
		case owner == p.addr:
			out[i] = p.decideOwned([]Request{req})[0]
		case req.Behavior == Global:
			out[i] = p.decideCopy(req, owner)
		default:
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i] = p.batcher(owner).do(req)
				out[i].Hops = 1
			}()
		}
	}
	wg.Wait()
	return out
}

// decideOwned is the owner's exact answer, chapter 04's bucket per key.
func (p *Peer) decideOwned(reqs []Request) []Response {
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Response, len(reqs))
	for i, req := range reqs {
		e, err := lookup(p.owned, req)
		if err != nil {
			out[i] = Response{Owner: p.addr, Error: err.Error()}
			continue
		}
		d := e.b.AllowN(now, req.Hits)
		out[i] = Response{Allowed: d.Allowed, Remaining: d.Remaining, Owner: p.addr}
		if req.Behavior == Global && d.Allowed {
			p.dirty[req.Key] = struct{}{}
		}
	}
	return out
}

// batcher returns the batcher of the requests bound for owner.
func (p *Peer) batcher(owner string) *batcher {
	p.bmu.Lock()
	defer p.bmu.Unlock()
	b, ok := p.batchers[owner]
	if !ok {
		b = &batcher{send: func(reqs []Request) ([]Response, error) {
			p.Forwards.Add(int64(len(reqs)))
			p.Batches.Add(1)
			var out []Response
			return out, post(p.client, owner, "/v1/peer/forward", reqs, &out)
		}}
		p.batchers[owner] = b
	}
	return b
}

// post sends in as JSON to a peer and decodes its answer into out.
func post(client *http.Client, addr, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := client.Post("http://"+addr+path, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("peer %s%s: %s", addr, path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// serve turns a function of a JSON list into a handler.
func serve[In, Out any](f func([]In) Out) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in []In
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, "body: accepted a JSON list: "+err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(f(in))
	}
}
