//go:build !exercise10

package service

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestEvictionWatch: a service started on noeviction reads the policy
// again at each check; a change to allkeys-lru is logged once (not again at
// the next check) and sets ratelimit_redis_eviction_policy_ok to 0, and the
// way back to noeviction is logged and sets it to 1.
func TestEvictionWatch(t *testing.T) {
	addr := spawnRedis(t)
	var log syncBuffer
	s := start(t, Options{Config: writeRules(t, limit5), RedisAddr: addr, RedisEvictionCheckEvery: -1, Log: &log})
	w := s.st.(evictionChecker)
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	ctx := context.Background()
	const gauge = "ratelimit_redis_eviction_policy_ok"
	const changed = `policy=allkeys-lru`

	w.CheckEviction(ctx)
	if got := metric(t, s, gauge); got != "1" || strings.Contains(log.String(), "maxmemory-policy") {
		t.Fatalf("on noeviction: %s %q, log %q; want 1 and nothing logged", gauge, got, log.String())
	}
	if err := admin.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err(); err != nil {
		t.Fatal(err)
	}
	w.CheckEviction(ctx)
	w.CheckEviction(ctx)
	if got, n := metric(t, s, gauge), strings.Count(log.String(), changed); got != "0" || n != 1 {
		t.Errorf("after CONFIG SET allkeys-lru and two checks: %s %q, the change logged %d times; want 0 and once\n%s", gauge, got, n, log.String())
	}
	if err := admin.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	w.CheckEviction(ctx)
	if got := metric(t, s, gauge); got != "1" || !strings.Contains(log.String(), "noeviction again") {
		t.Errorf("back on noeviction: %s %q, log %q; want 1 and the way back logged", gauge, got, log.String())
	}
}

// TestEvictionWatchTicks: with a short period the running service finds
// the change itself, with no check called by the test.
func TestEvictionWatchTicks(t *testing.T) {
	addr := spawnRedis(t)
	var log syncBuffer
	s := start(t, Options{Config: writeRules(t, limit5), RedisAddr: addr, RedisEvictionCheckEvery: 10 * time.Millisecond, Log: &log})
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	if err := admin.ConfigSet(context.Background(), "maxmemory-policy", "volatile-lru").Err(); err != nil {
		t.Fatal(err)
	}
	poll(t, 30*time.Second, func() bool { return metric(t, s, "ratelimit_redis_eviction_policy_ok") == "0" })
	if !strings.Contains(log.String(), `level=WARN msg="redis: a primary's maxmemory-policy may evict`) || !strings.Contains(log.String(), `policy=volatile-lru`) {
		t.Errorf("log %q; want the change", log.String())
	}
}

// TestEvictionWatchStated: on a Redis that refuses CONFIG, with the policy
// stated by flag, a check leaves the flag's word standing (gauge 1, nothing
// logged) and the watch stops reading.
func TestEvictionWatchStated(t *testing.T) {
	addr := managedRedis(t)
	var log syncBuffer
	s := start(t, Options{Config: writeRules(t, limit5), RedisAddr: addr, RedisEvictionPolicy: "noeviction",
		RedisEvictionCheckEvery: -1, Log: &log})
	stopped := s.st.(evictionChecker).CheckEviction(context.Background())
	if got := metric(t, s, "ratelimit_redis_eviction_policy_ok"); got != "1" || !stopped || strings.Contains(log.String(), "maxmemory-policy") {
		t.Errorf("CONFIG refused, policy stated: gauge %q, stopped %v, log %q; want 1, stopped, nothing logged", got, stopped, log.String())
	}
}

// evictionChecker is the Redis store's one check of the eviction policy.
type evictionChecker interface {
	CheckEviction(ctx context.Context) (stopped bool)
}
