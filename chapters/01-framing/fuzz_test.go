//go:build !exercise

package framing_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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

// FuzzChainNeverExceedsThePlan sends random API keys (issued, mutated,
// invented, repeated), X-Forwarded-For chains, X-User-ID claims, routes and
// peers through three chains: per API key, per (API key, route) and per
// client network behind a trusted balancer. However the headers are
// spelled, no client gets more than its plan (a token bucket of C = limit,
// R = limit/60 per second admits at most C + R·t in t seconds), only issued
// keys reach a handler, unknown keys leave no state, and five minutes after
// the traffic stops two requests leave at most their own key.
func FuzzChainNeverExceedsThePlan(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte(strings.Repeat("\x00\x01\x08\x02\x00\x05", 90)))
	f.Add([]byte(strings.Repeat("\x05\x03\x00\x03\x07\x01", 120)))
	f.Add([]byte("\x06\x03\x09\x04\x02\x00\x0ffree_a|route:/x\x09/x%7C/y\x00"))
	f.Add([]byte(strings.Repeat("\x00\x00\x02\x00\x01\x00", 300)))                         // one free key, 300 reads at once
	f.Add([]byte(strings.Repeat("\x02\x01\x00\x00\x00\x0a", 300)))                         // paid uploads, 100 ms apart
	f.Add([]byte(strings.Repeat("\x01\x00\x03\x00\x00\x00\x00\x02\x02\x00\x00\x64", 150))) // two clients, one behind the balancer
	f.Fuzz(func(t *testing.T, data []byte) {
		clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		start := clk.now
		store := framing.NewMemoryKeyStore()
		type acct struct {
			key  string
			plan framing.Plan
		}
		accts := []acct{{"f1." + secret("a"), framing.Free}, {"f2." + secret("b"), framing.Free}, {"p1." + secret("c"), framing.Paid}}
		byID := map[string]framing.Plan{}
		for _, a := range accts {
			if err := store.Add(a.key, framing.Account{UserID: "u-" + a.key[:2], Plan: a.plan}); err != nil {
				t.Fatal(err)
			}
			byID[a.key[:2]] = a.plan
		}
		lb, _ := framing.NewTrustedProxies("10.0.0.0/8")
		newChain := func(identify framing.IdentifyFunc, key framing.KeyFunc, who func(*http.Request, framing.Identity) string) *fuzzChain {
			c := &fuzzChain{spent: map[string]int{}, seen: who}
			lims := map[string]framing.Limiter{}
			for _, p := range framing.Plans {
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
		issued := map[string]string{} // key id → the whole key
		for _, a := range accts {
			issued[a.key[:2]] = a.key
		}
		verified := func(r *http.Request, id framing.Identity) string {
			if k := r.Header.Get("X-API-Key"); k != issued[id.KeyID] {
				t.Fatalf("a handler saw key id %q for the key %q, which the store never issued", id.KeyID, k)
			}
			return id.KeyID
		}
		perKey := newChain(framing.IdentifyByAPIKey(store, lb), framing.KeyByAPIKey, verified)
		perRoute := newChain(framing.IdentifyByAPIKey(store, lb), framing.KeyByAPIKeyAndRoute, verified)
		perNet := newChain(framing.IdentifyByAddress(framing.Free, lb), framing.KeyByIP(framing.DefaultIPGrouping),
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

		in := &bytesIn{b: data}
		for n := 0; n < 400 && len(in.b) > 0; n++ {
			who, route, peer, xff, user, wait := in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte()
			clk.Advance(time.Duration(wait) * 10 * time.Millisecond)
			var keys []string
			switch who % 8 {
			case 0, 1, 2:
				keys = []string{accts[who%3].key}
			case 3: // an issued key with one byte changed
				k := []byte(accts[int(who/8)%3].key)
				k[int(in.byte())%len(k)] ^= 1 + in.byte()%0x7f
				keys = []string{string(k)}
			case 4:
				keys = []string{in.str()}
			case 5:
				keys = []string{fmt.Sprintf("enterprise_%d", who)}
			case 6:
				keys = []string{accts[0].key, accts[2].key}
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
			peerAddr := peers[int(peer)%len(peers)]
			var fwd []string
			switch xff % 4 {
			case 1:
				fwd = []string{in.str()}
			case 2:
				fwd = []string{fmt.Sprintf("%d.%d.%d.%d, 198.51.100.%d", in.byte(), in.byte(), in.byte(), in.byte(), xff)}
			case 3:
				fwd = []string{in.str(), fmt.Sprintf("10.1.1.%d", xff)}
			}
			for _, c := range []*fuzzChain{perKey, perRoute, perNet} {
				r := httptest.NewRequest(http.MethodGet, "/", nil)
				r.URL.Path = path
				r.RemoteAddr = peerAddr
				for _, k := range keys {
					r.Header.Add("X-API-Key", k)
				}
				for _, v := range fwd {
					r.Header.Add("X-Forwarded-For", v)
				}
				if user%2 == 1 {
					r.Header.Set("X-User-ID", fmt.Sprint("u-f", user%3))
				}
				w := httptest.NewRecorder()
				c.h.ServeHTTP(w, r)
				if w.Code == http.StatusInternalServerError {
					t.Fatalf("500: %s", w.Body.String())
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
			if want := allow(framing.Free, 1); got > want {
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
		if k := keys(perKey); k > len(accts) {
			t.Fatalf("per-key chain holds %d keys for %d issued API keys", k, len(accts))
		}
		if k := keys(perRoute); k > 3*len(accts) {
			t.Fatalf("per-route chain holds %d keys for %d issued API keys × 3 routes", k, len(accts))
		}
		clk.Advance(5 * time.Minute)
		for _, c := range []*fuzzChain{perKey, perRoute, perNet} {
			// The first request after the gap sweeps at the previous
			// request's time (a lone timestamp is not trusted), the second
			// at its own.
			for range 2 {
				r := httptest.NewRequest(http.MethodGet, "/read", nil)
				r.RemoteAddr = "198.51.100.7:5000"
				r.Header.Set("X-API-Key", accts[0].key)
				c.h.ServeHTTP(httptest.NewRecorder(), r)
			}
			if k := keys(c); k > 1 {
				t.Fatalf("five minutes after the traffic, two requests' sweeps left %d keys, want 1", k)
			}
		}
	})
}
