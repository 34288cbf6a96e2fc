package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// bytesPerKey is what one key of a key-only rule may cost the service at
// most, in the resident memory of its process: the key's name, its map
// entry and its window (about 90 bytes of live heap on linux/amd64), and
// the room a garbage-collected heap keeps beside what is live. It is the
// bound behind DefaultMaxKeys: a million keys, at most 400 MB.
const bytesPerKey = 400

// TestMaxKeysBoundsMemory runs in a process of its own (this test binary,
// again), so that the memory it measures is the service's and no other
// test's.
func TestMaxKeysBoundsMemory(t *testing.T) {
	if os.Getenv("MAXKEYS_CHILD") == "1" {
		maxKeysChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMaxKeysBoundsMemory$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "MAXKEYS_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the measuring process: %v\n%s", err, out)
	}
	var rss, heap int64
	for _, line := range strings.Split(string(out), "\n") {
		if i := strings.Index(line, "grew: rss "); i >= 0 {
			fmt.Sscanf(line[i:], "grew: rss %d heap %d", &rss, &heap)
		}
	}
	t.Logf("%d keys held: resident memory grew %d bytes (%d a key), live heap %d (%d a key)",
		maxKeysHeld, rss, rss/maxKeysHeld, heap, heap/maxKeysHeld)
	if heap <= 0 || heap > bytesPerKey*maxKeysHeld {
		t.Errorf("live heap grew %d bytes for %d keys; want more than 0 and at most %d a key", heap, maxKeysHeld, bytesPerKey)
	}
	if !raceDetector && rss > bytesPerKey*maxKeysHeld {
		t.Errorf("resident memory grew %d bytes for %d keys, over the bound of %d a key", rss, maxKeysHeld, bytesPerKey)
	}
}

// maxKeysHeld is the store's bound in the test: enough keys that the
// memory they take stands out of the process's own.
const maxKeysHeld = 100_000

// residentBytes is this process's resident memory (VmRSS).
func residentBytes(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: resident memory is not measured here")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

// maxKeysChild: the in-memory store holds at most MaxKeys keys. A new key
// past it is answered by its domain's failure mode, counted in
// ratelimit_store_full_total, and never takes a live counter's place: the
// keys it holds go on counting. It prints what the keys cost.
func maxKeysChild(t *testing.T) {
	const maxKeys, sent = maxKeysHeld, maxKeysHeld * 3 / 2
	dir := t.TempDir()
	writeFile(t, dir, "open.yaml", "domain: open\nfailure_mode: open\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: 5}\n")
	writeFile(t, dir, "closed.yaml", "domain: closed\nfailure_mode: closed\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: 5}\n")
	s := start(t, Options{Config: dir, MaxKeys: maxKeys})
	askKey := func(domain, v string) string {
		resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: domain,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", v)}})
		if err != nil {
			t.Fatalf("%s %s: %v", domain, v, err)
		}
		return summary(resp)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before, rssBefore := heap(), residentBytes(t)
	counted, open := 0, 0
	for i := range sent {
		switch got := askKey("open", fmt.Sprint("key-", i)); got {
		case "OK OK:4":
			counted++
		case "OK OK:-": // failed open: no limit, nothing counted
			open++
		default:
			t.Fatalf("key %d: %s", i, got)
		}
	}
	grew, rssGrew := int64(heap())-int64(before), residentBytes(t)-rssBefore
	// A few keys past the bound are possible while decisions run at once;
	// these ran one at a time.
	if counted != maxKeys || open != sent-maxKeys {
		t.Errorf("%d keys sent to a store of %d: %d counted, %d failed open; want %d and %d",
			sent, maxKeys, counted, open, maxKeys, sent-maxKeys)
	}
	t.Logf("grew: rss %d heap %d", rssGrew, grew)
	if _, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "closed",
		Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "new")}}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("a new key in the fail-closed domain, store full: %v, want ErrUnavailable (its failure mode)", err)
	}
	if got := askKey("open", "key-0"); got != "OK OK:3" {
		t.Errorf("a key held before the store was full: %s, want it counting on (OK, 3 left)", got)
	}
	wantMetric(t, s, `ratelimit_store_full_total{domain="open",mode="open"}`, fmt.Sprint(sent-maxKeys))
	wantMetric(t, s, `ratelimit_store_full_total{domain="closed",mode="closed"}`, "1")
}
