//go:build !exercise

package framing_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// e16Stack is seed 003's three layers (CONTRACT.md E16), each with the algorithm
// that suits its job:
//
//	L1 per IP        fixed window  100 per second   against floods and scans
//	L2 per user      sliding log   1000 per day     the plan's daily quota, exact
//	L3 per endpoint  token bucket  5000 per second  protects the instances
//
// It returns the endpoint bucket too, so a test can look at what it spent.
func e16Stack(t *testing.T) (framing.Stack, framing.Limiter) {
	t.Helper()
	l1, err := fixedwindow.NewLimiter(fixedwindow.Config{Window: time.Second, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := sliding.NewLogLimiter(sliding.Config{Window: 24 * time.Hour, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	l3, err := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: 5000, Rate: 5000})
	if err != nil {
		t.Fatal(err)
	}
	perIP, _ := framing.NewIPGrouping(32, 128) // one address, as the seed counts
	return framing.Stack{
		{Name: "L1 ip fixed-window 100/s", Key: framing.KeyByIP(perIP), Limiter: l1},
		{Name: "L2 user sliding-log 1000/day", Key: framing.KeyByUser, Limiter: l2},
		{Name: "L3 endpoint token-bucket 5000/s", Key: framing.KeyByRoute, Limiter: l3},
	}, l3
}

// verified builds the layers' identities the way the chain does: each user
// holds an API key the store issued, and every request arrives through the
// balancer at 10.0.0.5, which appends the client's address to
// X-Forwarded-For. The user id and the address are the server's findings,
// never the request's claims.
type verified struct {
	t        *testing.T
	store    *framing.MemoryKeyStore
	identify framing.IdentifyFunc
	keys     map[string]string // user → API key
}

// rejections sends n requests for /read at one instant, the i-th as id(i),
// and counts the rejected ones by the layer that refused them.
func rejections(t *testing.T, s framing.Stack, at time.Time, n int, id func(i int) framing.Identity) map[string]int {
	t.Helper()
	byLayer := map[string]int{}
	for i := range n {
		d, err := s.AllowN(id(i), "/read", at)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Allowed {
			byLayer[d.Layer]++
		}
	}
	return byLayer
}

func newVerified(t *testing.T) *verified {
	lb, err := framing.NewTrustedProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	v := &verified{t: t, store: framing.NewMemoryKeyStore(), keys: map[string]string{}}
	v.identify = framing.IdentifyByAPIKey(v.store, lb)
	return v
}

// as returns the identity of user's request from client.
func (v *verified) as(user, client string) framing.Identity {
	v.t.Helper()
	k, ok := v.keys[user]
	if !ok {
		k = "k-" + user + "." + strings.Repeat("s", 20)
		if err := v.store.Add(k, framing.Account{UserID: user, Plan: framing.Free}); err != nil {
			v.t.Fatal(err)
		}
		v.keys[user] = k
	}
	r := httptest.NewRequest("GET", "/read", nil)
	r.RemoteAddr = "10.0.0.5:443"
	r.Header.Set("X-Forwarded-For", "6.6.6.6, "+client) // the first entry is the client's own claim
	r.Header.Set("X-API-Key", k)
	r.Header.Set("X-User-ID", "someone-else") // ignored
	id, err := v.identify(r)
	if err != nil || id.UserID != user || id.IP != client {
		v.t.Fatalf("identify %s from %s: %+v, %v", user, client, id, err)
	}
	return id
}

func TestE16_LayersRejectWhatTheyCount(t *testing.T) {
	day0 := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)

	t.Run("one IP floods: L1", func(t *testing.T) {
		s, l3 := e16Stack(t)
		v := newVerified(t)
		byLayer := rejections(t, s, day0, 150, func(i int) framing.Identity { // 150 users behind one address
			return v.as(fmt.Sprint("u", i), "198.51.100.7")
		})
		if len(byLayer) != 1 || byLayer["L1 ip fixed-window 100/s"] != 50 {
			t.Fatalf("rejections by layer %v, want 50 by L1 only", byLayer)
		}
		// The layers behind L1 never saw the 50: the endpoint bucket spent 100.
		endpoint, _ := framing.KeyByRoute(framing.Identity{}, "/read")
		d, _ := l3.AllowN(endpoint, day0, 1)
		if d.Remaining != 5000-100-1 {
			t.Fatalf("endpoint bucket remaining %d, want 4899", d.Remaining)
		}
		// A day later every layer's state is idle and a sweep forgets it:
		// one address, the 100 users L1 let through, one endpoint.
		if n := s.Sweep(day0.Add(25 * time.Hour)); n != 102 {
			t.Fatalf("Sweep dropped %d keys, want 102", n)
		}
	})

	t.Run("one user from many addresses: L2", func(t *testing.T) {
		s, _ := e16Stack(t)
		v := newVerified(t)
		var last framing.StackDecision
		allowed := 0
		for i := 0; i < 1001; i++ { // one per minute: 1001 minutes < one day
			id := v.as("alice", fmt.Sprintf("203.0.%d.%d", i/250, i%250+1))
			d, err := s.AllowN(id, "/read", day0.Add(time.Duration(i)*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				allowed++
			}
			last = d
		}
		if allowed != 1000 || last.Allowed || last.Layer != "L2 user sliding-log 1000/day" {
			t.Fatalf("allowed %d, last %+v; want 1000 and the 1001st rejected by L2", allowed, last)
		}
		// The log frees a slot when the first request turns one day old.
		if want := 24*time.Hour - 1000*time.Minute; last.RetryAfter != want {
			t.Fatalf("RetryAfter %v, want %v", last.RetryAfter, want)
		}
	})

	t.Run("everyone on one endpoint: L3", func(t *testing.T) {
		s, _ := e16Stack(t)
		v := newVerified(t)
		byLayer := rejections(t, s, day0, 5001, func(i int) framing.Identity { // 5001 users on 5001 addresses
			return v.as(fmt.Sprint("u", i), fmt.Sprintf("100.64.%d.%d", i/256, i%256))
		})
		if len(byLayer) != 1 || byLayer["L3 endpoint token-bucket 5000/s"] != 1 {
			t.Fatalf("rejections by layer %v, want exactly the 5001st by L3", byLayer)
		}
	})
}
