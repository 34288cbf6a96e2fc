//go:build !exercise

package framing_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// bytesIn hands out a fuzz input a byte or a string at a time, zeros once
// it runs out.
type bytesIn struct{ b []byte }

func (in *bytesIn) byte() byte {
	if len(in.b) == 0 {
		return 0
	}
	c := in.b[0]
	in.b = in.b[1:]
	return c
}

func (in *bytesIn) str() string {
	n := min(int(in.byte()), len(in.b))
	s := string(in.b[:n])
	in.b = in.b[n:]
	return s
}

// fuzzChain is one chain under the fuzz, with what its handler saw.
type fuzzChain struct {
	h        http.Handler
	limiters []*core.Keyed[*buckets.TokenBucket]
	spent    map[string]int // admitted cost per counted client
	seen     func(r *http.Request, id framing.Identity) string
}

// sink is a ResponseWriter that keeps the status and forgets the body: a
// recorder per request was a third of the fuzz's time.
type sink struct {
	h    http.Header
	code int
}

func (s *sink) Header() http.Header { return s.h }
func (s *sink) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
}
func (s *sink) Write(b []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	return len(b), nil
}

// maxFuzzRequests caps one input: enough to overrun every fuzz plan many
// times over, few enough that an input takes about a millisecond.
const maxFuzzRequests = 100

// fuzzAcct is an API key the fuzz's store issued.
type fuzzAcct struct {
	key  string
	plan framing.Plan
}

// The fuzz's plans are small, so that a hundred requests can overrun any of
// them: a plan of 1,000 per minute is never exceeded by an input's few
// hundred requests, and every request costs the fuzz time.
var (
	fuzzFree  = framing.Plan{Name: "free", PerMinute: 6}
	fuzzPaid  = framing.Plan{Name: "paid", PerMinute: 15}
	fuzzPlans = []framing.Plan{fuzzFree, fuzzPaid}
)

// The store is read-only under the fuzz, so it is built once: the keys it
// issued, their plans by key id, and the store itself.
var (
	fuzzAccts = []fuzzAcct{{"f1." + secret("a"), fuzzFree}, {"f2." + secret("b"), fuzzFree}, {"p1." + secret("c"), fuzzPaid}}
	fuzzStore = func() *framing.MemoryKeyStore {
		s := framing.NewMemoryKeyStore()
		for _, a := range fuzzAccts {
			if err := s.Add(a.key, framing.Account{UserID: "u-" + a.key[:2], Plan: a.plan}); err != nil {
				panic(err)
			}
		}
		return s
	}()
)

// op encodes one fuzz operation: who sends (an issued key, a mutated, an
// invented, an enterprise-looking or two keys), the route, the peer, the
// X-Forwarded-For shape, an X-User-ID claim, the wait before each send (in
// 10 ms) and how many times the request is sent (1 + rep%32); extra bytes
// (mutations, strings) follow where the shape asks for them.
func op(who, route, peer, xff, user, wait, rep byte, extra ...byte) []byte {
	return append([]byte{who, route, peer, xff, user, wait, rep}, extra...)
}

func ops(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// FuzzChainNeverExceedsThePlan sends random API keys (issued, mutated,
// invented, repeated), X-Forwarded-For chains, X-User-ID claims, routes and
// peers through three chains: per API key, per (API key, route) and per
// client network behind a trusted balancer. However the headers are
// spelled, no client gets more than its plan (a token bucket of C = limit,
// R = limit/60 per second admits at most C + R·t in t seconds), only issued
// keys reach a handler, unknown keys leave no state, and five minutes after
// the traffic stops two requests leave at most their own key.
//
// It is built to be cheap to explore: the plans are small (6 and 15 per
// minute), so 100 requests per input overrun them; an operation is 7 bytes
// and says how many times it repeats, so inputs stay short (the fuzzer
// minimises every new input it finds, in time that grows with the input's
// length squared); the store is built once; and each request is one reused
// http.Request into a sink.
func FuzzChainNeverExceedsThePlan(f *testing.F) {
	burst := func(o []byte, n int) []byte { return bytes.Repeat(o, n) }
	f.Add(op(0, 0, 0, 0, 0, 0, 0))
	f.Add(burst(op(0, 0, 2, 0, 0, 0, 31), 4))                                               // one free key, 100 reads at once
	f.Add(burst(op(2, 1, 0, 0, 0, 10, 31), 4))                                              // paid uploads, 100 ms apart
	f.Add(ops(op(3, 0, 2, 0, 0, 0, 31, 5, 9), op(5, 1, 2, 0, 1, 0, 31)))                    // a mutated key, an enterprise_… key
	f.Add(op(4, 3, 2, 0, 0, 0, 3, append([]byte{15}, "free_a|route:/x"...)...))             // a key injecting a route into /x%7Croute:/y
	f.Add(ops(op(1, 0, 3, 0, 0, 0, 31), burst(op(0, 0, 0, 2, 0, 50, 31, 192, 0, 2, 7), 3))) // two clients, one behind the balancer
	f.Add(burst(op(0, 0, 2, 1, 1, 0, 31, append([]byte{11}, "192.0.2.1, "...)...), 4))      // a spoofed X-Forwarded-For and X-User-ID
	f.Add(burst(op(6, 200, 4, 3, 0, 1, 31, append([]byte{7}, "upload/"...)...), 3))         // two keys at once, an invented path
	f.Fuzz(func(t *testing.T, data []byte) { chainNeverExceedsThePlan(t, data) })
}

// chainNeverExceedsThePlan is one input of FuzzChainNeverExceedsThePlan.
func chainNeverExceedsThePlan(t testing.TB, data []byte) {
	{
		clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		start := clk.now
		byID := map[string]framing.Plan{}
		issued := map[string]string{} // key id → the whole key
		for _, a := range fuzzAccts {
			byID[a.key[:2]] = a.plan
			issued[a.key[:2]] = a.key
		}
		lb, _ := framing.NewTrustedProxies("10.0.0.0/8")
		newChain := func(identify framing.IdentifyFunc, key framing.KeyFunc, who func(*http.Request, framing.Identity) string) *fuzzChain {
			c := &fuzzChain{spent: map[string]int{}, seen: who}
			lims := map[string]framing.Limiter{}
			for _, p := range fuzzPlans {
				l := bucketFor(t, p)
				c.limiters = append(c.limiters, l)
				lims[p.Name] = l
			}
			h, err := framing.Chain(framing.Config{Identify: identify, Key: key,
				LimitConfig: framing.LimitConfig{Limiters: lims, Now: clk.Now}},
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					id, _ := framing.IdentityFrom(r.Context())
					if who := c.seen(r, id); who != "" {
						c.spent[who] += framing.DefaultCosts.Cost(framing.DefaultCosts.Route(r))
					}
				}))
			if err != nil {
				t.Fatal(err)
			}
			c.h = h
			return c
		}
		verified := func(r *http.Request, id framing.Identity) string {
			if k := r.Header.Get("X-API-Key"); k != issued[id.KeyID] {
				t.Fatalf("a handler saw key id %q for the key %q, which the store never issued", id.KeyID, k)
			}
			return id.KeyID
		}
		perKey := newChain(framing.IdentifyByAPIKey(fuzzStore, lb), framing.KeyByAPIKey, verified)
		perRoute := newChain(framing.IdentifyByAPIKey(fuzzStore, lb), framing.KeyByAPIKeyAndRoute, verified)
		perNet := newChain(framing.IdentifyByAddress(fuzzFree, lb), framing.KeyByIP(framing.DefaultIPGrouping),
			func(r *http.Request, id framing.Identity) string {
				peer, _ := framing.ParseAddr(r.RemoteAddr)
				if lb.Trusts(peer) {
					return "" // the balancer's clients are whoever it says
				}
				if id.IP != peer.String() {
					t.Fatalf("an untrusted peer %s was counted as %s", peer, id.IP)
				}
				p, _ := framing.DefaultIPGrouping.Prefix(peer.String())
				return p.String() // an untrusted client gets its own network's budget, nothing more
			})
		chains := []*fuzzChain{perKey, perRoute, perNet}
		r := &http.Request{Method: http.MethodGet, URL: &url.URL{}, Header: http.Header{}}
		w := &sink{h: http.Header{}}
		send := func(c *fuzzChain) {
			clear(w.h)
			w.code = 0
			c.h.ServeHTTP(w, r)
			if w.code == http.StatusInternalServerError {
				t.Fatalf("500 for %s %v from %s", r.URL.Path, r.Header, r.RemoteAddr)
			}
		}

		in := &bytesIn{b: data}
		for n := 0; n < maxFuzzRequests && len(in.b) > 0; {
			who, route, peer, xff, user, wait, rep := in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte()
			var keys []string
			switch who % 8 {
			case 0, 1, 2:
				keys = []string{fuzzAccts[who%3].key}
			case 3: // an issued key with one byte changed
				k := []byte(fuzzAccts[int(who/8)%3].key)
				k[int(in.byte())%len(k)] ^= 1 + in.byte()%0x7f
				keys = []string{string(k)}
			case 4:
				keys = []string{in.str()}
			case 5:
				keys = []string{fmt.Sprintf("enterprise_%d", who)}
			case 6:
				keys = []string{fuzzAccts[0].key, fuzzAccts[2].key}
			}
			paths := []string{"/read", "/upload", "/other", "/x%7Croute:/y"}
			path := paths[route%4]
			if route >= 128 {
				path = "/" + strings.Map(func(r rune) rune {
					if r <= ' ' || r == '?' || r == '#' || r >= 0x7f {
						return 'x'
					}
					return r
				}, in.str())
			}
			peers := []string{"10.0.0.5:443", "10.200.1.1:80", "198.51.100.7:5000", "203.0.113.9:5000", "[2001:db8::1]:443"}
			var fwd []string
			switch xff % 4 {
			case 1:
				fwd = []string{in.str()}
			case 2:
				fwd = []string{fmt.Sprintf("%d.%d.%d.%d, 198.51.100.%d", in.byte(), in.byte(), in.byte(), in.byte(), xff)}
			case 3:
				fwd = []string{in.str(), fmt.Sprintf("10.1.1.%d", xff)}
			}
			clear(r.Header)
			r.URL.Path = path
			r.RemoteAddr = peers[int(peer)%len(peers)]
			if len(keys) > 0 {
				r.Header["X-Api-Key"] = keys
			}
			if len(fwd) > 0 {
				r.Header["X-Forwarded-For"] = fwd
			}
			if user%2 == 1 {
				r.Header.Set("X-User-ID", fmt.Sprint("u-f", user%3))
			}
			for range 1 + int(rep%32) {
				if n == maxFuzzRequests {
					break
				}
				n++
				clk.Advance(time.Duration(wait) * 10 * time.Millisecond)
				for _, c := range chains {
					send(c)
				}
			}
		}

		elapsed := clk.now.Sub(start).Seconds()
		allow := func(p framing.Plan, budgets int) int {
			return budgets * (p.Capacity() + int(p.RatePerSecond()*elapsed+1e-9))
		}
		for id, got := range perKey.spent {
			if want := allow(byID[id], 1); got > want {
				t.Fatalf("key %s got %d permits in %.1f s; its plan allows %d", id, got, elapsed, want)
			}
		}
		for id, got := range perRoute.spent { // /read, /upload and "*": three budgets
			if want := allow(byID[id], 3); got > want {
				t.Fatalf("key %s got %d permits over its routes in %.1f s; its plan allows %d", id, got, elapsed, want)
			}
		}
		for net, got := range perNet.spent {
			if want := allow(fuzzFree, 1); got > want {
				t.Fatalf("untrusted network %s got %d permits in %.1f s; the free plan allows %d", net, got, elapsed, want)
			}
		}
		keys := func(c *fuzzChain) int {
			n := 0
			for _, l := range c.limiters {
				n += l.Len()
			}
			return n
		}
		if k := keys(perKey); k > len(fuzzAccts) {
			t.Fatalf("per-key chain holds %d keys for %d issued API keys", k, len(fuzzAccts))
		}
		if k := keys(perRoute); k > 3*len(fuzzAccts) {
			t.Fatalf("per-route chain holds %d keys for %d issued API keys × 3 routes", k, len(fuzzAccts))
		}
		clk.Advance(5 * time.Minute)
		clear(r.Header)
		r.URL.Path, r.RemoteAddr = "/read", "198.51.100.7:5000"
		r.Header.Set("X-API-Key", fuzzAccts[0].key)
		for _, c := range chains {
			// The first request after the gap sweeps at the previous
			// request's time (a lone timestamp is not trusted), the second
			// at its own.
			send(c)
			send(c)
			if k := keys(c); k > 1 {
				t.Fatalf("five minutes after the traffic, two requests' sweeps left %d keys, want 1", k)
			}
		}
	}
}
