package ring

import (
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
