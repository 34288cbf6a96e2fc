package distributed

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestEvalShaFallsBackToEval: a server that has forgotten the scripts (a
// restart, a failover, SCRIPT FLUSH) answers NOSCRIPT to EVALSHA; go-redis's
// Script then sends the body with EVAL, and the next call is EVALSHA again.
func TestEvalShaFallsBackToEval(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	gcra := ok(NewGCRA(rdb, c3r2))
	require.NoError(t, rdb.ScriptFlush(ctx).Err())
	exists := ok(rdb.ScriptExists(ctx, gcraScript.Hash()).Result())
	require.Equal(t, []bool{false}, exists)
	d := ok(gcra.AllowN(ctx, redistest.ID(t), 1))
	require.True(t, d.Allowed)
	exists = ok(rdb.ScriptExists(ctx, gcraScript.Hash()).Result())
	require.Equal(t, []bool{true}, exists, "the EVAL fallback loaded the script")
}

// TestLateTimeRegressions: a request stamped earlier than one the key has
// already seen is decided at the latest time seen, never against older state
// (each case over-admitted or answered too early before the scripts kept the
// key's latest time).
func TestLateTimeRegressions(t *testing.T) {
	rdb := redistest.Client(t)
	type step struct {
		at, cost int64
		want     string // "A", or "R" plus the expected RetryAfter in ms
		retryMs  int64
	}
	for _, tc := range []struct {
		name  string
		l     decider
		steps []step
	}{
		// Window 1 is full; a request stamped 999 belongs to it too, not to a
		// fresh window 0.
		{"fixed-window", ok(NewFixedWindow(rdb, w3)), []step{
			{1000, 1, "A", 0}, {1000, 1, "A", 0}, {1000, 1, "A", 0}, {999, 1, "R", 1001}}},
		// At its own time (sub-window 0) the three requests of sub-window 1
		// were invisible and the estimate was 0.
		// (At 2000 the estimate is still exactly 3: the first permit is at 2001.)
		{"sliding-counter", ok(NewSlidingCounter(rdb, s3)), []step{
			{1000, 1, "A", 0}, {1000, 1, "A", 0}, {1000, 1, "A", 0}, {999, 1, "R", 1002}}},
		// The late request reused the member "600:2" and overwrote an entry:
		// the log then held one request where two were admitted, and let a
		// cost-2 request through with three already in the window.
		{"sliding-log", ok(NewSlidingLog(rdb, s3)), []step{
			{0, 1, "A", 0}, {600, 1, "A", 0}, {1100, 3, "R", 500}, {600, 1, "A", 0}, {1100, 2, "R", 500}}},
		// Empty at 2000; a request stamped 1500 must come back at 3000, when
		// the next token exists: 1500 ms from its own time, not 1000.
		{"token-bucket", ok(NewTokenBucket(rdb, buckets.Config{Capacity: 1, Rate: 1})), []step{
			{1000, 1, "A", 0}, {2000, 1, "A", 0}, {1500, 1, "R", 1500}}},
		{"gcra", ok(NewGCRA(rdb, buckets.Config{Capacity: 1, Rate: 1})), []step{
			{1000, 1, "A", 0}, {2000, 1, "A", 0}, {1500, 1, "R", 1500}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := redistest.ID(t)
			for i, s := range tc.steps {
				d := allowAt(t, tc.l, id, time.UnixMilli(base+s.at), int(s.cost))
				require.Equal(t, s.want == "A", d.Allowed, "request %d at %d", i+1, s.at)
				require.Equal(t, time.Duration(s.retryMs)*time.Millisecond, d.RetryAfter, "request %d at %d", i+1, s.at)
			}
		})
	}
}

// TestScriptsTouchOnlyDeclaredKeys: Redis wants every key a script reads or
// writes passed in KEYS (Redis Cluster routes the call by them, and Redis 7
// checks them against the script's flags). Every command in every script
// names KEYS[1] (or the local copy of it), and nothing else. Under the
// exercise06 tag the learner's token bucket is checked too.
func TestScriptsTouchOnlyDeclaredKeys(t *testing.T) {
	files, err := filepath.Glob("scripts/*.lua")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	if learnerScript {
		files = append(files, tokenBucketFile)
	}
	call := regexp.MustCompile(`redis\.p?call\(\s*['"]([A-Za-z]+)['"]\s*(?:,\s*([^,)]+))?`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		calls := call.FindAllStringSubmatch(string(src), -1)
		require.NotEmpty(t, calls, "%s calls no Redis command", f)
		for _, c := range calls {
			if strings.EqualFold(c[1], "TIME") {
				continue // the one command without a key
			}
			require.Contains(t, []string{"KEYS[1]", "key"}, c[2], "%s: %s on %q", f, c[1], c[2])
		}
		if strings.Contains(string(src), "local key") {
			require.Contains(t, string(src), "local key = KEYS[1]\n", f)
		}
		require.NotContains(t, string(src), "KEYS[1] ..", "%s derives a key from KEYS[1]", f)
	}
}
