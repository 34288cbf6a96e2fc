package buckets

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// keyedAllow is the one method the test needs from core.Keyed[A].
type keyedAllow interface {
	AllowN(key string, now time.Time, cost int) (core.Decision, error)
	Len() int
}

// TestKeyedConcurrentExactCounts hammers each keyed limiter from many
// goroutines over many keys (run it with -race). All requests of a phase
// carry the same instant, so no refill happens inside a phase and exactly C
// requests per key must pass; the next phase is a full refill later, so
// exactly C more pass. Any lost update or double spend changes a count.
func TestKeyedConcurrentExactCounts(t *testing.T) {
	const (
		capacity   = 5
		keys       = 64
		goroutines = 16
		perKey     = 4 // requests per goroutine per key per phase
	)
	c := Config{Capacity: capacity, Rate: 10}
	refill := time.Duration(capacity) * c.Interval()
	build := map[string]func() (keyedAllow, error){
		"token-bucket": func() (keyedAllow, error) { return NewTokenBucketLimiter(c) },
		"gcra":         func() (keyedAllow, error) { return NewGCRALimiter(c) },
		"leaky-queue":  func() (keyedAllow, error) { return NewLeakyQueueLimiter(c) },
	}
	names := make([]string, keys)
	for i := range names {
		names[i] = fmt.Sprintf("user:%d", i)
	}
	for name, mk := range build {
		t.Run(name, func(t *testing.T) {
			lim, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			for phase := 0; phase < 2; phase++ {
				now := time.UnixMilli(1000).Add(time.Duration(phase) * refill)
				var allowed [keys]atomic.Int64
				var wg sync.WaitGroup
				for g := range goroutines {
					wg.Go(func() {
						for range perKey {
							for k := range keys {
								k := (k + g*7) % keys // goroutines start on different keys
								d, err := lim.AllowN(names[k], now, 1)
								if err != nil {
									t.Error(err)
									return
								}
								if d.Allowed {
									allowed[k].Add(1)
								}
							}
						}
					})
				}
				wg.Wait()
				for k := range allowed {
					if got := allowed[k].Load(); got != capacity {
						t.Errorf("phase %d key %s: %d allowed, want exactly %d", phase, names[k], got, capacity)
					}
				}
			}
			if lim.Len() != keys {
				t.Errorf("%d keys hold state, want %d", lim.Len(), keys)
			}
		})
	}
}
