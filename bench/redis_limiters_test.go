package bench

import (
	"context"
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	ulredis "github.com/ulule/limiter/v3/drivers/store/redis"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// A redisDecide is one decision for id; it reports whether it was allowed.
type redisDecide func(ctx context.Context, id string) (bool, error)

type redisLimiter struct {
	name   string
	peer   string // the peer doing the same algorithm, if any
	decide redisDecide
	// alone is, for a limiter sent through the Batcher, the name of the
	// same limiter sending each call on its own; empty for the latter.
	alone string
}

// batchedClient is the go-redis client with its script calls sent through
// chapter 06's Batcher: redis_rate and ulule take it as their client, so the
// peers share round trips exactly as the course's scripts do.
type batchedClient struct {
	*redis.Client
	bt *distributed.Batcher
}

func (c batchedClient) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return c.bt.Eval(ctx, script, keys, args...)
}

func (c batchedClient) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return c.bt.EvalSha(ctx, sha1, keys, args...)
}

// redisLimiters builds every limiter on one budget, 100 per second per
// identity (a window of 1 s and a limit of 100, or a capacity of 100 and a
// rate of 100/s), on the one client, and then the raw INCR, the peers and
// the course's scripts again through bt, chapter 06's Batcher on that client.
func redisLimiters(tb testing.TB, rdb *redis.Client, bt *distributed.Batcher) []redisLimiter {
	// The floor of a script: one declared key, one reply value, no call.
	floor := redis.NewScript("return 1")
	floorTime := redis.NewScript("redis.call('TIME') return 1") // what one redis.call adds
	if err := rdb.FunctionLoadReplace(context.Background(), floorLib).Err(); err != nil {
		tb.Fatal(err)
	}

	alone := []redisLimiter{
		{name: "incr", decide: func(ctx context.Context, id string) (bool, error) {
			return true, rdb.Incr(ctx, "raw:"+id).Err()
		}},
		{name: "evalsha floor", decide: func(ctx context.Context, id string) (bool, error) {
			return true, floor.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{name: "evalsha floor + TIME", decide: func(ctx context.Context, id string) (bool, error) {
			return true, floorTime.Run(ctx, rdb, []string{"floor:" + id}).Err()
		}},
		{name: "fcall floor", decide: func(ctx context.Context, id string) (bool, error) {
			return true, rdb.FCall(ctx, "floor", []string{"floor:" + id}).Err()
		}},
	}
	alone = append(alone, limitersOn(tb, rdb, rdb, "")...)
	batched := []redisLimiter{{name: "incr, pipelined", alone: "incr", decide: func(ctx context.Context, id string) (bool, error) {
		return true, bt.Do(ctx, "incr", "raw:"+id).Err()
	}}}
	batched = append(batched, limitersOn(tb, batchedClient{rdb, bt}, bt, ", pipelined")...)
	return append(alone, batched...)
}

// peerClient is what redis_rate and ulule take as their client.
type peerClient interface {
	ulredis.Client
	redis.Scripter
}

// limitersOn builds the two peers on client and the course's six scripts on
// sc, their names ending in suffix.
func limitersOn(tb testing.TB, client peerClient, sc redis.Scripter, suffix string) []redisLimiter {
	w := fixedwindow.Config{Window: time.Second, Limit: 100}
	sw := sliding.Config{Window: time.Second, Limit: 100}
	bk := buckets.Config{Capacity: 100, Rate: 100}
	s := distributed.AssumeNoEviction(sc) // a fresh redis-server runs noeviction
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	course := func(l interface {
		Allow(context.Context, string) (core.Decision, error)
	}, err error) redisDecide {
		must(err)
		return func(ctx context.Context, id string) (bool, error) {
			d, err := l.Allow(ctx, id)
			return d.Allowed, err
		}
	}
	rr := redis_rate.NewLimiter(client)
	rrLimit := redis_rate.Limit{Rate: 100, Burst: 100, Period: time.Second}
	store, err := ulredis.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: "ulule"})
	must(err)
	ul := limiter.New(store, limiter.Rate{Period: time.Second, Limit: 100})

	fw, err := distributed.NewFixedWindow(s, w)
	fwDecide := course(fw, err)
	fwt, err := distributed.NewFixedWindowTTL(s, w)
	fwtDecide := course(fwt, err)
	sl, err := distributed.NewSlidingLog(s, sw)
	slDecide := course(sl, err)
	sc2, err := distributed.NewSlidingCounter(s, sw)
	scDecide := course(sc2, err)
	tb2, err := distributed.NewTokenBucket(s, bk)
	tbDecide := course(tb2, err)
	g, err := distributed.NewGCRA(s, bk)
	gDecide := course(g, err)

	ls := []redisLimiter{
		{name: "redis_rate (GCRA)", decide: func(ctx context.Context, id string) (bool, error) {
			r, err := rr.Allow(ctx, id, rrLimit)
			if err != nil {
				return false, err
			}
			return r.Allowed > 0, nil
		}},
		{name: "ulule (fixed window)", decide: func(ctx context.Context, id string) (bool, error) {
			c, err := ul.Get(ctx, id)
			return !c.Reached, err
		}},
		{name: "fixed-window", peer: "ulule (fixed window)", decide: fwDecide},
		{name: "fixed-window-ttl", peer: "ulule (fixed window)", decide: fwtDecide},
		{name: "sliding-log", decide: slDecide},
		{name: "sliding-counter", decide: scDecide},
		{name: "token-bucket", peer: "redis_rate (GCRA)", decide: tbDecide},
		{name: "gcra", peer: "redis_rate (GCRA)", decide: gDecide},
	}
	for i := range ls {
		if suffix != "" {
			ls[i].alone = ls[i].name
			ls[i].name += suffix
			if ls[i].peer != "" {
				ls[i].peer += suffix
			}
		}
	}
	return ls
}

// floorLib is the Redis 7 function that does what the EVALSHA floor does.
const floorLib = "#!lua name=benchfloor\nredis.register_function('floor', function(keys, args) return 1 end)"
