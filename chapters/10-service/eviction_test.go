//go:build !exercise10

package service

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// TestEvictionPolicyFlagRefused: a stated policy that may evict, or one
// Redis does not have, exits 2 at the flag, naming it and what it accepts,
// before any store is dialled; Options with the same value refuse to start.
func TestEvictionPolicyFlagRefused(t *testing.T) {
	for _, tc := range []struct{ policy, why string }{
		{"volatile-lru", "that policy may evict"}, // ElastiCache's default: limiter keys all carry a TTL
		{"allkeys-lfu", "that policy may evict"},
		{"volatile-ttl", "that policy may evict"},
		{"no-eviction", "not a Redis maxmemory-policy"},
		{"", "not a Redis maxmemory-policy"},
	} {
		var out, errOut syncBuffer
		code := run(context.Background(), []string{"--redis", "127.0.0.1:1", "--redis-eviction-policy", tc.policy, "--http", "", "--grpc", "", "--admin", ""},
			&out, &errOut, nil)
		first, _, _ := strings.Cut(errOut.String(), "\n")
		if code != 2 || !strings.Contains(first, "flag -redis-eviction-policy: "+tc.why) || !strings.Contains(first, "accepted: noeviction") {
			t.Errorf("--redis-eviction-policy %q: exit %d, stderr %q; want 2, naming the flag, %q and noeviction", tc.policy, code, first, tc.why)
		}
	}
	_, err := Start(context.Background(), Options{RedisAddr: "127.0.0.1:1", RedisEvictionPolicy: "allkeys-lru"})
	if err == nil || !strings.Contains(err.Error(), `--redis-eviction-policy "allkeys-lru": that policy may evict`) {
		t.Errorf("Options.RedisEvictionPolicy allkeys-lru: %v", err)
	}
}

// managedRedis starts a redis-server of the test's own with CONFIG renamed
// away, as managed Redis services ship it.
func managedRedis(t *testing.T) string {
	t.Helper()
	addr := spawnRedis(t, "--rename-command", "CONFIG", "")
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	if err := c.ConfigGet(context.Background(), "maxmemory-policy").Err(); err == nil {
		t.Fatal("CONFIG GET answered: the rename did not take")
	}
	return addr
}

// spawnRedis starts a redis-server of the test's own with extra arguments
// and stops it when the test ends.
func spawnRedis(t *testing.T, args ...string) string {
	t.Helper()
	testenv.NeedsProcesses(t)
	path, err := redisproc.LookPath()
	if err != nil {
		if os.Getenv("REQUIRE_REDIS") == "1" {
			t.Fatal(err)
		}
		t.Skipf("no redis-server: %v", err)
	}
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p, err := redisproc.Spawn(context.Background(), path, port, t.TempDir(), args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p.Addr
}

// TestEvictionPolicyReadAndRefused: on a Redis whose policy may evict,
// serve reads it and refuses to start (exit 2) with one line naming the
// server, its policy and the fix, noeviction.
func TestEvictionPolicyReadAndRefused(t *testing.T) {
	addr := spawnRedis(t, "--maxmemory-policy", "allkeys-lru")
	var out, errOut syncBuffer
	code := run(context.Background(), []string{"--redis", addr, "--http", "", "--grpc", "", "--admin", ""}, &out, &errOut, nil)
	want := addr + ` runs maxmemory-policy "allkeys-lru", which may evict the limiter's keys`
	if code != 2 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), want) ||
		!strings.Contains(errOut.String(), "set it to noeviction") || strings.Contains(errOut.String(), "AssumeNoEviction") {
		t.Errorf("exit %d, stderr %q; want 2 and one line with %q and the fix", code, errOut.String(), want)
	}
}

// TestEvictionManagedRedis: on a Redis without CONFIG, serve refuses to
// start (exit 2) with a line naming --redis-eviction-policy; with
// --redis-eviction-policy noeviction it starts and decides on that Redis.
func TestEvictionManagedRedis(t *testing.T) {
	addr := managedRedis(t)
	base := []string{"--redis", addr, "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--admin", "127.0.0.1:0"}

	var out, errOut syncBuffer
	code := run(context.Background(), base, &out, &errOut, nil)
	if code != 2 || strings.Count(errOut.String(), "\n") != 1 ||
		!strings.Contains(errOut.String(), "cannot read maxmemory-policy with CONFIG GET") ||
		!strings.Contains(errOut.String(), "start with --redis-eviction-policy noeviction") {
		t.Fatalf("without the flag: exit %d, stderr %q; want 2 and one line naming --redis-eviction-policy", code, errOut.String())
	}
	t.Logf("without the flag: %s", strings.TrimSpace(errOut.String()))

	rules := writeRules(t, "domain: managed\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 100}\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out2, errOut2 syncBuffer
	done, started := make(chan int, 1), make(chan *Service, 1)
	go func() {
		done <- run(ctx, append(base, "--config", rules, "--redis-eviction-policy", "noeviction"), &out2, &errOut2,
			func(s *Service) { started <- s })
	}()
	var remaining []uint32
	select {
	case s := <-started:
		c := client(t, s)
		for range 2 {
			remaining = append(remaining, ask(t, c, "managed", desc("user", "ann")).GetStatuses()[0].GetLimitRemaining())
		}
		cancel()
	case code := <-done:
		t.Fatalf("with --redis-eviction-policy noeviction: exit %d, stderr %q", code, errOut2.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	if code := await(t, done, 30*time.Second, "serve did not stop"); code != 0 {
		t.Errorf("after the stop: exit %d, stderr %q", code, errOut2.String())
	}
	if len(remaining) != 2 || remaining[0] != 99 || remaining[1] != 98 {
		t.Errorf("two requests on the managed Redis: remaining %v, want [99 98]", remaining)
	}
}
