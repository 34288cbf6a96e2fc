package distributed

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/core"
)

// The scripts. Each is one atomic step on the server: read, decide, write and
// set the expiry with nothing in between (E9). Each file holds its algorithm
// only: newScript puts scripts/prelude.lua in front of it, which declares the
// script's flags to Redis 7 (so Redis refuses it while out of memory, E20)
// and sets the local now from ARGV[1], then scripts/clock.lua, which reads
// Redis TIME when the caller passed no time. The fixed window opened by the
// first request is timed by Redis expiry and goes without the clock
// (newTimelessScript), one call less per decision. go-redis's Script sends
// EVALSHA and falls back to EVAL the first time a server has not seen it.
// The token bucket's body comes from scripts/token_bucket.lua, or from the
// learner's exercise/token_bucket.lua under the exercise06 tag (reference.go,
// exercise.go).
var (
	//go:embed scripts/prelude.lua
	prelude string
	//go:embed scripts/clock.lua
	clock string
	//go:embed scripts/fixed_window.lua
	fixedWindowLua string
	//go:embed scripts/fixed_window_ttl.lua
	fixedWindowTTLLua string
	//go:embed scripts/sliding_log.lua
	slidingLogLua string
	//go:embed scripts/sliding_counter.lua
	slidingCounterLua string
	//go:embed scripts/gcra.lua
	gcraLua string

	fixedWindowScript    = newScript(fixedWindowLua)
	fixedWindowTTLScript = newTimelessScript(fixedWindowTTLLua)
	slidingLogScript     = newScript(slidingLogLua)
	slidingCounterScript = newScript(slidingCounterLua)
	tokenBucketScript    = newScript(tokenBucketLua)
	gcraScript           = newScript(gcraLua)
)

// newScript is a script body with the prelude and the clock in front.
func newScript(body string) *redis.Script { return redis.NewScript(prelude + clock + body) }

// newTimelessScript is a script body that never reads the time, with the
// prelude only: its now is -1 on the server's clock.
func newTimelessScript(body string) *redis.Script { return redis.NewScript(prelude + body) }

// Key returns the Redis key of one identity's state: "rl:{id}:kind". The
// braces are a hash tag: Redis Cluster places a key by the text between them
// only, so every key of one identity lands in one slot and a script may touch
// several of them.
func Key(id, kind string) string {
	return "rl:{" + id + "}:" + kind
}

// stampAhead is the prefix of the error the prelude returns for a time too
// far ahead of the server's clock; the rest is the server's time in ms.
const stampAhead = "STAMPAHEAD "

// stampError is the prelude's refusal of a far-future time as a
// ParamError naming the time, or nil if err is anything else.
func stampError(err error, nowMs int64) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, stampAhead) {
		return nil
	}
	server, _ := strconv.ParseInt(strings.TrimPrefix(msg, stampAhead), 10, 64)
	return core.BadParam("time", time.UnixMilli(nowMs).UTC().Format(time.RFC3339Nano), fmt.Sprintf(
		"an instant at most %v ahead of the Redis server's clock (%s)", MaxStampAhead,
		time.UnixMilli(server).UTC().Format(time.RFC3339Nano)))
}
