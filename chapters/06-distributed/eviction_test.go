//go:build !exercise06

package distributed

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// info reads one numeric field of an INFO section.
func info(t *testing.T, rdb *redis.Client, section, field string) int64 {
	t.Helper()
	text := ok(rdb.Info(context.Background(), section).Result())
	for _, line := range strings.Split(text, "\r\n") {
		if v, found := strings.CutPrefix(line, field+":"); found {
			return ok(strconv.ParseInt(v, 10, 64))
		}
	}
	t.Fatalf("no %s in INFO %s", field, section)
	return 0
}

// commandCalls reads INFO commandstats: each command's calls run and
// calls rejected before they ran.
func commandCalls(t *testing.T, rdb *redis.Client) map[string][2]int64 {
	t.Helper()
	info := ok(rdb.Info(context.Background(), "commandstats").Result())
	out := map[string][2]int64{}
	for _, line := range strings.Split(info, "\r\n") {
		if stat, isCmd := strings.CutPrefix(line, "cmdstat_"); isCmd {
			name, _, _ := strings.Cut(stat, ":")
			l := "cmdstat_" + name
			out[name] = [2]int64{redisproc.StatCount(info, l, "calls"), redisproc.StatCount(info, l, "rejected_calls")}
		}
	}
	return out
}

// fullRedis starts a Redis of the test's own holding 10,000 keys of 100
// bytes without an expiry (a cache without TTLs, sessions: someone else's
// data). Its client keeps one connection (no pipelines, which have a pool
// of their own), so that in a quick run of commands the server's memory
// moves only with the keys: an idle connection's buffers are freed after a
// second or two and allocated again by its next command, some 25 KB.
func fullRedis(t *testing.T) *redis.Client {
	t.Helper()
	own := redistest.StartDedicated(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr(), PoolSize: 1})
	t.Cleanup(func() { _ = rdb.Close() })
	ctx := context.Background()
	// The slowlog keeps a copy of every command slower than 10 ms, and it
	// counts in used_memory: on a loaded machine an entry would move the
	// line TestE20_EvictionOverAdmits draws.
	require.NoError(t, rdb.ConfigSet(ctx, "slowlog-log-slower-than", "-1").Err())
	value := strings.Repeat("x", 100)
	for start := 0; start < 10_000; start += 100 {
		var kv []any
		for i := start; i < start+100; i++ {
			kv = append(kv, fmt.Sprintf("other:%d", i), value)
		}
		require.NoError(t, rdb.MSet(ctx, kv...).Err())
	}
	return rdb
}

// TestE20_EvictionOverAdmits: limiter keys carry a TTL and the other data
// does not, so under volatile-lru the limiter's keys are the only ones Redis
// may evict. With maxmemory just above the other data, each decision's new
// key puts the server over, and the next command evicts it: every request
// finds a fresh log and is admitted. Measured here: the numbers are printed.
// The same server under noeviction refuses the script instead (OOM), which
// the caller sees as an error, and by default the limiter refuses to run on
// a server that may evict at all.
func TestE20_EvictionOverAdmits(t *testing.T) {
	ctx := context.Background()
	rdb := fullRedis(t)
	const L, requests = 50, 300
	// The opt-out, to show what the check prevents.
	unchecked := everyScript(AssumeNoEviction(rdb), time.Minute, L, 1)["sliding-log"]
	others := ok(rdb.DBSize(ctx).Result())

	// run sets maxmemory to the memory used without a limiter key plus
	// delta and sends the requests at once: a pause would let the server
	// free connection buffers and move the line.
	run := func(policy string, delta int64) (admitted, failed int, evicted int64) {
		// A limit far away first: setting one allocates about 25 KB once.
		require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", "1gb").Err())
		require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", policy).Err())
		var used int64
		for range 5 { // load the script and settle the buffers
			ok(unchecked.AllowN(ctx, "warm-up", 1))
			require.NoError(t, rdb.Del(ctx, Key("warm-up", "log")).Err())
			used = info(t, rdb, "memory", "used_memory")
		}
		require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used+delta, 10)).Err())
		id := redistest.ID(t)
		before := info(t, rdb, "stats", "evicted_keys")
		for range requests {
			d, err := unchecked.AllowN(ctx, id, 1)
			switch {
			case err != nil:
				require.ErrorContains(t, err, "OOM")
				failed++
			case d.Allowed:
				admitted++
			}
		}
		evicted = info(t, rdb, "stats", "evicted_keys") - before
		t.Logf("E20 %-12s maxmemory = other data + %4d B: %3d of %d admitted against L = %d, %3d refused (OOM), %3d keys evicted",
			policy, delta, admitted, requests, L, failed, evicted)
		rdb.Del(ctx, Key(id, "log"))
		return admitted, failed, evicted
	}

	// The line: memory in use, plus a little more than the command being
	// checked (Redis counts its arguments, about 200 bytes), plus less than
	// what the key adds. Where that is depends on the allocator, so try a
	// few margins until one makes Redis evict without refusing.
	var delta int64
	var admitted, failed int
	var evicted int64
	for _, delta = range []int64{250, 200, 300, 400, 600, 800, 1200} {
		if admitted, failed, evicted = run("volatile-lru", delta); failed == 0 && evicted > 0 {
			break
		}
	}
	require.Zero(t, failed)
	require.Greater(t, admitted, 4*L, "the log's key was evicted before the calls")
	require.Greater(t, evicted, int64(0))
	require.Equal(t, others, ok(rdb.DBSize(ctx).Result()), "only limiter keys were evicted")

	admitted, failed, evicted = run("noeviction", delta)
	require.LessOrEqual(t, admitted, L, "noeviction never over-admits")
	require.Greater(t, failed, 0, "a full Redis refuses the script: an outage, not an admit")
	require.Zero(t, evicted)

	// The rule in code: a limiter checks the policy on first use and
	// refuses a server that may evict its keys.
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "volatile-lru").Err())
	checked := everyScript(rdb, time.Minute, L, 1)["sliding-log"]
	d, err := checked.AllowN(ctx, redistest.ID(t), 1)
	require.ErrorIs(t, err, ErrMayEvict)
	require.ErrorContains(t, err, `"volatile-lru"`)
	require.Equal(t, core.Decision{}, d)
	t.Logf("refused: %v", err)

	// For comparison (last: it evicts other data too): allkeys-lru picks
	// its victims among all keys by approximate LRU.
	run("allkeys-lru", delta)
}

// TestE20_NoScriptWritesPastMaxmemory: under noeviction, a Redis filled
// past maxmemory refuses every write. The scripts declare themselves
// writers (the prelude's shebang), so Redis refuses each one before it
// starts: an error, never a decision, no key written and no command of
// any script run (INFO commandstats: every EVALSHA rejected, no HSET, ZADD
// or INCRBY called). Without the shebang Redis refused only a script's
// first write, and the sliding log, whose first write is a trim, went on
// to add its entries: it admitted every request and grew the server past
// its limit.
func TestE20_NoScriptWritesPastMaxmemory(t *testing.T) {
	ctx := context.Background()
	rdb := fullRedis(t)
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err())
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", "1gb").Err()) // allocates about 25 KB once
	// Loaded before the server is full, as in production; a first EVAL of
	// a body would grow the connection's buffers by more than a key.
	for _, s := range []*redis.Script{fixedWindowScript, fixedWindowTTLScript, slidingLogScript,
		slidingCounterScript, tokenBucketScript, gcraScript} {
		require.NoError(t, s.Load(ctx, rdb).Err())
	}
	// Counted from here: resetting frees the per-command latency
	// histograms, so it comes before the line is drawn.
	require.NoError(t, rdb.ConfigResetStat(ctx).Err())
	used := info(t, rdb, "memory", "used_memory")
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used-4096, 10)).Err())
	err := rdb.Set(ctx, "one-more", "x", 0).Err()
	require.ErrorContains(t, err, "OOM", "the server is full")

	limiters := everyScript(rdb, time.Minute, 50, 1)
	for _, l := range limiters { // the first refusals allocate some 25 KB once
		_, err := l.AllowN(ctx, "warm-up", 1)
		require.ErrorContains(t, err, "OOM")
	}
	keys := ok(rdb.DBSize(ctx).Result())
	before := info(t, rdb, "memory", "used_memory")
	for name, l := range limiters {
		for i := range 50 {
			d, err := l.AllowN(ctx, fmt.Sprintf("%s-%d", name, i%5), 1)
			require.ErrorContains(t, err, "OOM", name)
			require.Equal(t, core.Decision{}, d, name)
		}
	}
	require.Equal(t, keys, ok(rdb.DBSize(ctx).Result()), "no script created a key")
	grew := info(t, rdb, "memory", "used_memory") - before
	// What ran since the reset: every EVALSHA (6 warm-ups, then 300) and
	// the SET refused before they started; besides, only the limiters'
	// policy checks (CONFIG GET) and this test's own commands.
	for name, c := range commandCalls(t, rdb) {
		switch name {
		case "evalsha":
			require.Equal(t, [2]int64{0, 306}, c, "EVALSHA calls run and rejected")
		case "set":
			require.Equal(t, [2]int64{0, 1}, c, "SET calls run and rejected")
		case "config|get", "config|set", "config|resetstat", "info", "dbsize":
		default:
			require.Zero(t, c[0], "%s was called on a full Redis", name)
		}
	}
	// used_memory also holds each connection's reply buffer, which Redis 7
	// resizes in its cron (to the largest reply since, doubled when a reply
	// fills it): between two INFOs it moves in 1 KB steps with nothing
	// written (CI saw +1,024 twice), and the slowlog copies every command
	// slower than 10 ms. So the memory is shown, not asserted; the calls
	// above are the exact test.
	t.Logf("300 decisions on a full Redis: 300 OOM errors, 300 EVALSHAs rejected, no key written, used memory %+d bytes", grew)
}

// TestEvictionPolicyCheck: the limiter runs only on a Redis whose
// maxmemory-policy is noeviction, and says so when it cannot find out;
// AssumeNoEviction is the documented opt-out.
func TestEvictionPolicyCheck(t *testing.T) {
	ctx := context.Background()
	own := redistest.StartDedicated(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	bt := newBatcher(t, rdb)
	for _, policy := range []string{"noeviction", "volatile-lru", "volatile-lfu", "volatile-ttl", "volatile-random",
		"allkeys-lru", "allkeys-lfu", "allkeys-random"} {
		require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", policy).Err())
		err := CheckNoEviction(ctx, rdb)
		tb := ok(NewTokenBucket(rdb, c3r2))
		_, decideErr := tb.AllowN(ctx, redistest.ID(t), 1)
		// Through the Batcher, the check asks the client behind it.
		_, batchedErr := ok(NewTokenBucket(bt, c3r2)).AllowN(ctx, redistest.ID(t), 1)
		if policy == "noeviction" {
			require.NoError(t, err)
			require.NoError(t, decideErr)
			require.NoError(t, batchedErr)
			continue
		}
		require.ErrorIs(t, err, ErrMayEvict, policy)
		require.ErrorContains(t, err, strconv.Quote(policy))
		require.ErrorIs(t, decideErr, ErrMayEvict, policy)
		require.ErrorIs(t, batchedErr, ErrMayEvict, policy)
		_, err = ok(NewTokenBucket(AssumeNoEviction(rdb), c3r2)).AllowN(ctx, redistest.ID(t), 1)
		require.NoError(t, err, "opted out")
	}
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err())

	// CONFIG not allowed (a managed Redis renames it; here an ACL user
	// without +config): an error that names the opt-out, not ErrMayEvict.
	require.NoError(t, rdb.Do(ctx, "ACL", "SETUSER", "limiter", "on", ">secret", "~*", "+@all", "-config").Err())
	limited := redis.NewClient(&redis.Options{Addr: own.Addr(), Username: "limiter", Password: "secret"})
	t.Cleanup(func() { _ = limited.Close() })
	_, err := ok(NewFixedWindow(limited, w3)).AllowN(ctx, redistest.ID(t), 1)
	require.Error(t, err)
	require.False(t, errors.Is(err, ErrMayEvict))
	require.ErrorContains(t, err, "NOPERM")
	require.ErrorContains(t, err, "AssumeNoEviction")
	_, err = ok(NewFixedWindow(AssumeNoEviction(limited), w3)).AllowN(ctx, redistest.ID(t), 1)
	require.NoError(t, err)

	// A Scripter the check cannot see through.
	type wrapped struct{ redis.Scripter }
	err = CheckNoEviction(ctx, wrapped{rdb})
	require.ErrorContains(t, err, "AssumeNoEviction")
	require.NoError(t, CheckNoEviction(ctx, AssumeNoEviction(wrapped{rdb})))
}

// TestPrefetchChecksEvictionPolicy: the borrow script writes limiter state
// like every other script, so prefetch keeps the E20 rule too. On a Redis
// running allkeys-lru, 300 requests through a PrefetchNode against a limit
// of 50, and 300 bare Borrow calls, are all refused with ErrMayEvict (after
// the node's breaker opens, with ErrUnavailable alone), as the fixed window
// on the same Redis refuses them. Before, neither Borrow nor the node
// looked at the policy: under memory pressure a 50/h limit admitted 73 of
// 300 with no error.
func TestPrefetchChecksEvictionPolicy(t *testing.T) {
	ctx := context.Background()
	own := redistest.StartDedicated(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err())
	const L, requests = 50, 300
	cfg := BorrowConfig{Key: Key(redistest.ID(t), "prefetch"), Limit: L, Batch: 10, Window: time.Hour}

	fw := everyScript(rdb, time.Hour, L, 1)["fixed-window"]
	node := ok(NewPrefetchNode(rdb, cfg, slowOK))
	var fwAdmitted, admitted, refused, mayEvict, borrowMayEvict int
	for range requests {
		if d, err := fw.AllowN(ctx, redistest.ID(t), 1); err == nil && d.Allowed {
			fwAdmitted++
		}
		allowed, err := node.Allow(ctx)
		switch {
		case allowed:
			admitted++
		case err != nil:
			refused++
			if errors.Is(err, ErrMayEvict) {
				mayEvict++
			}
		}
		if _, err := Borrow(ctx, rdb, cfg, time.Time{}); errors.Is(err, ErrMayEvict) {
			borrowMayEvict++
		}
	}
	t.Logf("allkeys-lru, L = %d: fixed window admitted %d of %d; prefetch node admitted %d, refused %d (%d naming ErrMayEvict); Borrow refused %d with ErrMayEvict",
		L, fwAdmitted, requests, admitted, refused, mayEvict, borrowMayEvict)
	require.Zero(t, fwAdmitted)
	require.Zero(t, admitted, "a prefetch node on an evicting Redis admitted")
	require.Equal(t, requests, refused)
	require.Positive(t, mayEvict, "the node's error names the policy until its breaker opens")
	require.Equal(t, requests, borrowMayEvict)
	require.Zero(t, ok(rdb.Exists(ctx, cfg.Key).Result()), "no borrow wrote the key")

	// Under noeviction the same node and Borrow work, and AssumeNoEviction
	// is the opt-out for both.
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err())
	require.Equal(t, 10, ok(Borrow(ctx, rdb, cfg, time.Time{})).Granted)
	require.True(t, ok(ok(NewPrefetchNode(rdb, cfg, slowOK)).Allow(ctx)))
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err())
	require.Equal(t, 10, ok(Borrow(ctx, AssumeNoEviction(rdb), cfg, time.Time{})).Granted)
}

// TestEvictionPolicyRechecked: the policy can change under a running
// limiter (CONFIG SET, a failover to a replica configured differently, a
// restart from another config file). A limiter and a prefetch node check it
// again at least every PolicyRecheck, and at once after any failed call
// (a reconnect, a failover and an OOM refusal all show as one). Before, the
// policy was checked once: after CONFIG SET maxmemory-policy allkeys-lru
// the limiter went on deciding for good (154 of 301 admitted against 50
// under memory pressure).
func TestEvictionPolicyRechecked(t *testing.T) {
	ctx := context.Background()
	own := redistest.StartDedicated(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	fw := everyScript(rdb, time.Hour, 1000, 1)["fixed-window"]
	node := ok(NewPrefetchNode(rdb, BorrowConfig{Key: Key(redistest.ID(t), "prefetch"), Limit: 1000, Batch: 1,
		Window: time.Hour}, slowOK))
	id := redistest.ID(t)
	_, err := fw.AllowN(ctx, id, 1)
	require.NoError(t, err)
	_, err = node.Allow(ctx)
	require.NoError(t, err)

	// CONFIG SET under a running limiter: refused within PolicyRecheck.
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err())
	changed := time.Now()
	var fwDecided, nodeDecided int
	var fwErr, nodeErr error
	for (fwErr == nil || nodeErr == nil) && time.Since(changed) < PolicyRecheck+2*time.Second {
		if fwErr == nil {
			if _, fwErr = fw.AllowN(ctx, id, 1); fwErr == nil {
				fwDecided++
			}
		}
		if nodeErr == nil {
			if _, nodeErr = node.Allow(ctx); nodeErr == nil {
				nodeDecided++
			}
		}
		time.Sleep(time.Millisecond)
	}
	took := time.Since(changed)
	t.Logf("after CONFIG SET allkeys-lru: fixed window decided %d more, prefetch node %d more, refused within %v (PolicyRecheck %v)",
		fwDecided, nodeDecided, took.Round(time.Millisecond), PolicyRecheck)
	require.ErrorIs(t, fwErr, ErrMayEvict, "the limiter noticed the new policy")
	require.ErrorIs(t, nodeErr, ErrMayEvict, "the prefetch node noticed the new policy")

	// Fixed: the next decision checks again, and goes on.
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err())
	_, err = fw.AllowN(ctx, id, 1)
	require.NoError(t, err)

	// A failover or restart to a server configured differently: the failed
	// call makes the next decision check at once, well before PolicyRecheck.
	require.NoError(t, own.Kill())
	_, err = fw.AllowN(ctx, id, 1)
	require.Error(t, err)
	require.NoError(t, own.Restart())
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "volatile-lru").Err())
	_, err = fw.AllowN(ctx, id, 1)
	require.ErrorIs(t, err, ErrMayEvict, "the first decision after a reconnect checks the policy")
}
