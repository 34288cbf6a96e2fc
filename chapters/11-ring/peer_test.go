package ring

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestE40_OwnerDecidesExactly: 3 peers on loopback, 30 keys of 10 an hour,
// 20 requests per key sent by 8 callers to peers chosen at random. Every key
// admits exactly 10, a request costs 0 hops at its key's owner and 1
// elsewhere, and every forward is counted in a batch.
func TestE40_OwnerDecidesExactly(t *testing.T) {
	clk := newClock()
	peers := cluster(t, 3, clk.now)
	client := NewClient(8)
	defer client.Close()
	type sent struct {
		peer int
		req  Request
	}
	rng := rand.New(rand.NewPCG(40, 0))
	var work []sent
	for k := range 30 {
		for range 20 {
			work = append(work, sent{rng.IntN(3), Request{Key: "user-" + string(rune('A'+k)), Hits: 1, Limit: 10, Duration: time.Hour}})
		}
	}
	admitted := map[string]int{}
	var hops, remote int
	var mu sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan sent)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range ch {
				out, err := client.Check(peers[s.peer].Addr(), []Request{s.req})
				mu.Lock()
				if err != nil || out[0].Error != "" {
					t.Errorf("check %s: %v %s", s.req.Key, err, out[0].Error)
				} else {
					if out[0].Allowed {
						admitted[s.req.Key]++
					}
					hops += out[0].Hops
					if out[0].Owner != peers[s.peer].Addr() {
						remote++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range work {
		ch <- s
	}
	close(ch)
	wg.Wait()
	for k, n := range admitted {
		if n != 10 {
			t.Errorf("key %s: %d admitted, want exactly 10", k, n)
		}
	}
	var forwards, batches int64
	for _, p := range peers {
		forwards += p.Forwards.Load()
		batches += p.Batches.Load()
	}
	if len(admitted) != 30 || hops != remote || forwards != int64(remote) || batches < 1 || batches > forwards {
		t.Errorf("%d keys; %d hops for %d requests not at their owner; %d forwards in %d batches",
			len(admitted), hops, remote, forwards, batches)
	}
}

// TestE40_BatchCarriesWhatArrivedDuringARoundTrip: while one forward is in
// flight, nine more arrive; they go together, as one batch of nine.
func TestE40_BatchCarriesWhatArrivedDuringARoundTrip(t *testing.T) {
	release := make(chan struct{})
	var sizes []int
	var mu sync.Mutex
	b := &batcher{send: func(reqs []Request) ([]Response, error) {
		mu.Lock()
		sizes = append(sizes, len(reqs))
		first := len(sizes) == 1
		mu.Unlock()
		if first {
			<-release
		}
		return make([]Response, len(reqs)), nil
	}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.do(Request{Key: "first"}) }()
	for waiting := false; !waiting; runtime.Gosched() { // the first send is in flight
		mu.Lock()
		waiting = len(sizes) == 1
		mu.Unlock()
	}
	for range 9 {
		wg.Add(1)
		go func() { defer wg.Done(); b.do(Request{Key: "next"}) }()
	}
	for queued := false; !queued; runtime.Gosched() {
		b.mu.Lock()
		queued = len(b.pending) == 9
		b.mu.Unlock()
	}
	close(release)
	wg.Wait()
	if len(sizes) != 2 || sizes[0] != 1 || sizes[1] != 9 {
		t.Errorf("batches %v, want [1 9]", sizes)
	}
}

func TestPeerWithoutARingAnswersAnError(t *testing.T) {
	p, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if out := p.Check([]Request{{Key: "k", Hits: 1, Limit: 1, Duration: time.Second}}); !strings.Contains(out[0].Error, "no ring") {
		t.Errorf("a peer without a ring answered %+v, want an error saying so", out[0])
	}
}

func TestPeerBadInput(t *testing.T) {
	peers := cluster(t, 2, newClock().now)
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Key: "", Hits: 1, Limit: 1, Duration: time.Second}, "key"},
		{Request{Key: "k", Hits: 0, Limit: 1, Duration: time.Second}, "hits"},
		{Request{Key: "k", Hits: 1, Limit: 0, Duration: time.Second}, "capacity"},
		{Request{Key: "k", Hits: 1, Limit: 1, Duration: 0}, "duration"},
	} {
		for _, p := range peers {
			out := p.Check([]Request{c.req})
			if !strings.Contains(out[0].Error, c.want) {
				t.Errorf("%+v at %s: error %q, want one naming %q", c.req, p.Addr(), out[0].Error, c.want)
			}
		}
	}
}

// A peer holds at most maxKeys buckets: a new key past it is answered with
// an error naming the bound, and a key it holds is still decided.
func TestPeerBoundsItsKeys(t *testing.T) {
	defer func(n int) { maxKeys = n }(maxKeys)
	maxKeys = 2
	p := cluster(t, 1, newClock().now)[0]
	req := func(k string) Request { return Request{Key: k, Hits: 1, Limit: 5, Duration: time.Hour} }
	out := p.Check([]Request{req("a"), req("b"), req("c"), req("a")})
	if out[0].Error != "" || out[1].Error != "" || !out[3].Allowed || out[3].Remaining != 3 {
		t.Errorf("the keys within the bound: %+v", out)
	}
	if !strings.Contains(out[2].Error, "holds 2 keys, its most") || out[2].Allowed {
		t.Errorf("a third key past a bound of 2: %+v, want an error naming the bound", out[2])
	}
}
