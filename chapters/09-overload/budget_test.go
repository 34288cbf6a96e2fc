package overload

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// perMinute is E28's budget: 10,000 tokens, refilled at 10,000 per minute.
var perMinute = buckets.Config{Capacity: 10_000, Rate: 10_000.0 / 60}

// TestE28_ReserveThenRefund (CONTRACT.md E28): five concurrent requests each
// reserve 500 input + 2,000 maximum output = 2,500 tokens from a full
// 10,000-token bucket: four are admitted, the fifth gets a 429 (Retry-After
// 15 s, the time 2,500 tokens take to refill at 10,000/min). Each uses 300
// output tokens, so it settles 800 and refunds 1,700: 6,800 come back, and
// the fifth, retried then, is admitted at once.
func TestE28_ReserveThenRefund(t *testing.T) {
	b, err := NewBudget(perMinute)
	if err != nil {
		t.Fatal(err)
	}
	now := core.Epoch.Add(time.Hour)
	const input, maxOutput, output = 500, 2000, 300
	var (
		mu       sync.Mutex
		held     []*Reservation
		rejected []core.Decision
		wg       sync.WaitGroup
	)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, d := b.Reserve(now, input+maxOutput)
			mu.Lock()
			defer mu.Unlock()
			if d.Allowed {
				held = append(held, r)
			} else {
				rejected = append(rejected, d)
			}
		}()
	}
	wg.Wait()
	if len(held) != 4 || len(rejected) != 1 {
		t.Fatalf("%d admitted, %d rejected; want 4 and 1", len(held), len(rejected))
	}
	if d := rejected[0]; d.RetryAfter != 15*time.Second || d.Remaining != 0 {
		t.Errorf("the fifth: %+v, want Remaining 0 and RetryAfter 15s", d)
	}
	for _, r := range held {
		if err := b.Settle(now, r, input+output); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Tokens(now); got != 6800 {
		t.Errorf("after four refunds of 1,700 the bucket holds %v, want 6,800", got)
	}
	if _, d := b.Reserve(now, input+maxOutput); !d.Allowed || d.Remaining != 4300 {
		t.Errorf("the fifth retried after the refunds: %+v, want admitted with 4,300 left", d)
	}
}

// TestBudgetConservesTokens: at one instant (no refill), on random reserves
// and settlements, tokens held + reserved and not yet settled + used by the
// settled ones = the capacity, and the bucket stays within [0, C].
func TestBudgetConservesTokens(t *testing.T) {
	rnd := rand.New(rand.NewPCG(28, 28))
	now := core.Epoch.Add(time.Hour)
	for range 200 {
		c := buckets.Config{Capacity: 1 + rnd.IntN(5000), Rate: 1}
		b, _ := NewBudget(c)
		type open struct {
			r    *Reservation
			cost int
		}
		var outstanding []open
		reserved, used := 0, 0
		for range 100 {
			if len(outstanding) > 0 && rnd.IntN(2) == 0 {
				i := rnd.IntN(len(outstanding))
				o := outstanding[i]
				u := rnd.IntN(o.cost + 1)
				if err := b.Settle(now, o.r, u); err != nil {
					t.Fatal(err)
				}
				outstanding = append(outstanding[:i], outstanding[i+1:]...)
				reserved -= o.cost
				used += u
				continue
			}
			cost := 1 + rnd.IntN(c.Capacity)
			if r, d := b.Reserve(now, cost); d.Allowed {
				outstanding = append(outstanding, open{r, cost})
				reserved += cost
			}
			tok := b.Tokens(now)
			if tok < 0 || tok > float64(c.Capacity) || int(tok)+reserved+used != c.Capacity {
				t.Fatalf("capacity %d: tokens %v + reserved %d + used %d != capacity", c.Capacity, tok, reserved, used)
			}
		}
	}
}

func TestBudgetSettleErrorsAndRefill(t *testing.T) {
	b, _ := NewBudget(perMinute)
	now := core.Epoch.Add(time.Hour)
	r, _ := b.Reserve(now, 2500)
	if err := b.Settle(now, r, 2501); !isParam(err, "used") {
		t.Errorf("used 2,501 of 2,500: %v, want a ParamError naming used", err)
	}
	if err := b.Settle(now, r, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.Settle(now, r, 0); err == nil {
		t.Error("settling twice must be an error")
	}
	if got := b.Tokens(now); got != 10_000 {
		t.Errorf("a refund never fills past the capacity: %v, want 10,000", got)
	}
	b.Reserve(now, 10_000)
	if got := b.Tokens(now.Add(6 * time.Second)); got < 1000-1e-6 || got > 1000+1e-6 {
		t.Errorf("6 s after emptying: %v tokens, want 1,000 (10,000 per minute)", got)
	}
	if _, d := b.Reserve(now, 10_001); d.Allowed || d.RetryAfter != 0 {
		t.Errorf("a cost above the capacity: %+v, want rejected with RetryAfter 0", d)
	}
	if _, err := NewBudget(buckets.Config{Capacity: 0, Rate: 1}); !isParam(err, "capacity") {
		t.Errorf("capacity 0: %v", err)
	}
}
