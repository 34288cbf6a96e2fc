//go:build !exercise

package interview

import (
	"fmt"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// The drill's numbers that are not worked examples of chapters 01-08,
// recomputed here with the course's code so that a card cannot state a
// figure the code disagrees with.

// commas formats n with thousands separators, as the cards write numbers.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// v6 is the address 2001:db8:aa:XXYY::1, where XX and YY are the two bytes
// between a /48 and a /64.
func v6(xx, yy byte) string {
	b := netip.MustParseAddr("2001:db8:aa::1").As16()
	b[6], b[7] = xx, yy
	return netip.AddrFrom16(b).String()
}

// TestDrillIPv6EscalationNumbers: a /48 holds 65,536 /64s in 256 /56s, a
// /56 holds 256 /64s; 5 requests from each /64 of one /56 (1,280) all pass
// a per-/64 limit of 10, a per-/56 limit of 40 admits 40 of them, and a
// neighbour in another /56 keeps its budget.
func TestDrillIPv6EscalationNumbers(t *testing.T) {
	group := func(bits int) framing.IPGrouping {
		g, err := framing.NewIPGrouping(32, bits)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g64, g56, g48 := group(64), group(56), group(48)
	keys := func(g framing.IPGrouping, addrs []string) int {
		seen := map[string]bool{}
		for _, a := range addrs {
			k, err := g.Key(a)
			if err != nil {
				t.Fatal(err)
			}
			seen[k] = true
		}
		return len(seen)
	}
	var whole48, one56 []string
	for i := range 1 << 16 {
		whole48 = append(whole48, v6(byte(i>>8), byte(i)))
	}
	one56 = whole48[:256]
	n64, n56, n48 := keys(g64, whole48), keys(g56, whole48), keys(g48, whole48)
	if n64 != 65536 || n56 != 256 || n48 != 1 || keys(g64, one56) != 256 || keys(g56, one56) != 1 {
		t.Fatalf("a /48 holds %d /64s in %d /56s (%d /48); want 65,536 in 256 (1), and 256 /64s per /56", n64, n56, n48)
	}

	// Two layers, both applied (a request must pass both), all requests in
	// one window: at most 10 per /64, at most 40 per /56.
	count := map[string]int{}
	allow := func(addr string) (passed64, passed bool) {
		k64, _ := g64.Key(addr)
		k56, _ := g56.Key(addr)
		if count[k64] >= 10 {
			return false, false
		}
		count[k64]++
		if count[k56] >= 40 {
			return true, false
		}
		count[k56]++
		return true, true
	}
	sent, pass64, admitted := 0, 0, 0
	for _, a := range one56 {
		for range 5 {
			sent++
			p64, ok := allow(a)
			if p64 {
				pass64++
			}
			if ok {
				admitted++
			}
		}
	}
	if sent != 1280 || pass64 != 1280 || admitted != 40 {
		t.Fatalf("sent %d, %d passed the /64 layer, %d admitted; want 1,280, 1,280, 40", sent, pass64, admitted)
	}
	if _, ok := allow(v6(1, 0)); !ok {
		t.Fatal("a client in the next /56 must keep its own budget")
	}
	a := card(t, "IPv6 escalation").A
	for _, n := range []int{n56, n64, sent, admitted} {
		if !strings.Contains(a, commas(n)) {
			t.Errorf("the IPv6 card does not state %s", commas(n))
		}
	}
}

// maxMinFair splits capacity by weight, giving each demand at most what it
// asks and handing what small demands leave to the others (water-filling).
func maxMinFair(capacity float64, weights, demand []float64) []float64 {
	got := make([]float64, len(demand))
	open := map[int]bool{}
	for i := range demand {
		open[i] = true
	}
	left := capacity
	for len(open) > 0 && left > 1e-9 {
		w := 0.0
		for i := range open {
			w += weights[i]
		}
		pool, settled := left, false
		for i := range open { // a demand below its share of this round's pool is met in full
			if demand[i]-got[i] <= pool*weights[i]/w {
				left -= demand[i] - got[i]
				got[i] = demand[i]
				delete(open, i)
				settled = true
			}
		}
		if !settled { // everyone wants more than a share: split what is left
			for i := range open {
				got[i] += left * weights[i] / w
			}
			left = 0
		}
	}
	return got
}

// TestDrillSharingNumbers: the tenant-fairness card (100 rps, weights
// 2/1/1, demand 150/10/80) and the many-regions card (1,000 per minute,
// demand 700/200/100).
func TestDrillSharingNumbers(t *testing.T) {
	demand := []float64{150, 10, 80}
	fair := maxMinFair(100, []float64{2, 1, 1}, demand)
	if fmt.Sprintf("A %.0f, B %.0f, C %.0f", fair[0], fair[1], fair[2]) != "A 60, B 10, C 30" {
		t.Fatalf("max-min fair by weight: %v, want 60/10/30", fair)
	}
	var prop []string
	for _, d := range demand {
		prop = append(prop, fmt.Sprintf("%.1f", 100*d/240))
	}
	if got := strings.Join(prop, "/"); got != "62.5/4.2/33.3" || !strings.Contains(card(t, "tenant fairness").A, got) {
		t.Fatalf("split in proportion to demand: %s, want 62.5/4.2/33.3 and the card to say so", got)
	}

	regions := []int{700, 200, 100}
	static := 0
	for _, d := range regions {
		static += min(d, 1000/len(regions))
	}
	leases := maxMinFair(1000, []float64{700, 200, 100}, []float64{700, 200, 100})
	admitted := math.Round(leases[0] + leases[1] + leases[2])
	overshoot := len(regions) * 10 * 2 // regions x 10 per second each x 2 s of lag
	a := card(t, "many regions").A
	if static != 633 || admitted != 1000 || overshoot != 60 ||
		!strings.Contains(a, "= 633") || !strings.Contains(a, "= 60") || !strings.Contains(a, "all 1,000") {
		t.Fatalf("static thirds admit %d, demand-weighted leases %v, lag overshoot %d; want 633, 1,000, 60 as the card says", static, admitted, overshoot)
	}
}

// TestDrillLLMBudgetNumbers: chapter 04's token bucket, 10,000 tokens per
// minute, five requests at once each reserving 500 input + 2,000 maximum
// output: four admitted, the fifth rejected; each refunds the 1,700 output
// tokens it did not use.
func TestDrillLLMBudgetNumbers(t *testing.T) {
	b, err := buckets.NewTokenBucket(buckets.Config{Capacity: 10000, Rate: 10000.0 / 60})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	const reserve, used = 500 + 2000, 500 + 300
	admitted := 0
	for range 5 {
		if b.AllowN(now, reserve).Allowed {
			admitted++
		}
	}
	refund := admitted * (reserve - used)
	if admitted != 4 || refund != 6800 || reserve-used != 1700 {
		t.Fatalf("%d of 5 admitted, %d refunded; want 4 and 6,800 (1,700 each)", admitted, refund)
	}
}
