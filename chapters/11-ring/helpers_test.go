package ring

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// clock is a time tests move by hand, shared by a cluster's peers.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// cluster starts n peers on loopback, gives them one ring and closes them
// when the test ends.
func cluster(t testing.TB, n int, now func() time.Time) []*Peer {
	t.Helper()
	peers := make([]*Peer, n)
	names := make([]string, n)
	for i := range peers {
		p, err := Start(now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		peers[i], names[i] = p, p.Addr()
	}
	r, err := NewRing(DefaultVNodes, names...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range peers {
		p.SetRing(r)
	}
	return peers
}

// TestMain stops the Redis that BenchmarkE46 may have started.
func TestMain(m *testing.M) { redistest.Main(m) }

// Client calls a peer's /v1/check, as an application would.
type Client struct{ http *http.Client }

// NewClient returns a client keeping up to conns connections per peer.
func NewClient(conns int) *Client {
	return &Client{&http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: conns}}}
}

// Check sends reqs to the peer at addr.
func (c *Client) Check(addr string, reqs []Request) ([]Response, error) {
	var out []Response
	return out, post(c.http, addr, "/v1/check", reqs, &out)
}

// Close closes the client's idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// shares counts the keys each peer of r owns.
func shares(r *Ring, keys []string) map[string]int {
	s := make(map[string]int, len(r.peers))
	for _, p := range r.peers {
		s[p] = 0
	}
	for _, k := range keys {
		s[r.Owner(k)]++
	}
	return s
}

// keysN returns n sample keys, "key-0" to "key-(n-1)".
func keysN(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	return keys
}
