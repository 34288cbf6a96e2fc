package distributed

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/core"
)

// Pipeliner is what a Batcher sends through: a *redis.Client, or a
// *redis.ClusterClient, whose pipeline splits the commands by node and sends
// each node's share as one pipeline.
type Pipeliner interface {
	redis.Scripter
	Do(ctx context.Context, args ...any) *redis.Cmd
	Pipeline() redis.Pipeliner
}

// Batcher sends the script calls that concurrent decisions make as one
// pipeline per round trip: the calls that queue up while a pipeline is out
// go together in the next one. It is a redis.Scripter, so every limiter of
// this chapter runs on it unchanged, and each decision is still one EVALSHA
// of its own key, atomic on the server; what the calls share is the round
// trip and the system calls, never a count. Nothing waits for a batch to
// fill: a call that finds nothing in flight goes at once, on its caller's
// goroutine, so a lone caller pays nothing for the Batcher.
type Batcher struct {
	rdb     Pipeliner
	queue   chan *batchCall
	timeout time.Duration
	max     int

	stop     chan struct{}
	mu       sync.RWMutex // held to read while a call queues, to write by Close
	closed   bool
	wg       sync.WaitGroup
	inflight atomic.Int32 // pipelines and lone calls out now

	pipelines, batched, alone atomic.Int64
}

// BatcherOptions shapes a Batcher. The zero value takes the defaults.
type BatcherOptions struct {
	Workers int // pipelines in flight at most: 1 to 64, default 4
	Max     int // calls in one pipeline at most: 1 to 10,000, default 256
	// Timeout is one pipeline's deadline: 1 ms to 1 min, default 1 s. It is
	// a context deadline on real time, not a core.Clock timer: go-redis
	// sets the socket's read and write deadlines from it, and only a real
	// deadline frees a worker stuck on a server that stopped answering. A
	// Guard in front keeps its own deadline on its own clock.
	Timeout time.Duration
}

// BatcherStats counts what a Batcher sent: Pipelines, the Batched calls
// they carried, and the calls that went Alone because nothing was in flight.
type BatcherStats struct{ Pipelines, Batched, Alone int64 }

// batchCall is one command waiting for its pipeline.
type batchCall struct {
	ctx  context.Context
	args []any
	res  chan *redis.Cmd
}

// NewBatcher starts a Batcher on rdb, or returns a *core.ParamError naming
// the option outside its range. Close stops it.
func NewBatcher(rdb Pipeliner, o BatcherOptions) (*Batcher, error) {
	if o.Workers == 0 {
		o.Workers = 4
	}
	if o.Max == 0 {
		o.Max = 256
	}
	if o.Timeout == 0 {
		o.Timeout = time.Second
	}
	switch {
	case o.Workers < 1 || o.Workers > 64:
		return nil, &core.ParamError{Param: "Workers", Value: fmt.Sprint(o.Workers), Accept: "1 to 64 pipelines in flight"}
	case o.Max < 1 || o.Max > 10_000:
		return nil, &core.ParamError{Param: "Max", Value: fmt.Sprint(o.Max), Accept: "1 to 10,000 calls per pipeline"}
	case o.Timeout < time.Millisecond || o.Timeout > time.Minute:
		return nil, &core.ParamError{Param: "Timeout", Value: o.Timeout.String(), Accept: "1ms to 1m0s"}
	}
	b := &Batcher{rdb: rdb, queue: make(chan *batchCall, 4096), timeout: o.Timeout, max: o.Max, stop: make(chan struct{})}
	for range o.Workers {
		b.wg.Go(b.run)
	}
	return b, nil
}

// run takes the first call waiting and every call queued behind it, up to
// Max, and sends them as one pipeline.
func (b *Batcher) run() {
	batch := make([]*batchCall, 0, b.max)
	for {
		select {
		case <-b.stop:
			return
		case c := <-b.queue:
			batch = append(batch[:0], c)
		}
	fill:
		for len(batch) < b.max {
			select {
			case c := <-b.queue:
				batch = append(batch, c)
			default:
				break fill
			}
		}
		b.send(batch)
	}
}

// send runs one pipeline and hands each call its own reply, with its own
// error: one command failing fails no other.
func (b *Batcher) send(batch []*batchCall) {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	pipe := b.rdb.Pipeline()
	cmds := make([]*redis.Cmd, len(batch))
	for i, c := range batch {
		cmds[i] = pipe.Do(ctx, c.args...)
	}
	b.inflight.Add(1)
	_, _ = pipe.Exec(ctx)
	b.inflight.Add(-1)
	b.pipelines.Add(1)
	b.batched.Add(int64(len(batch)))
	for i, c := range batch {
		c.res <- cmds[i]
	}
}

// Do sends one command: alone if nothing is in flight, else in the next
// pipeline. It waits for the reply, the caller's deadline or Close.
func (b *Batcher) Do(ctx context.Context, args ...any) *redis.Cmd {
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return failedCmd(ctx, redis.ErrClosed)
	}
	if b.inflight.CompareAndSwap(0, 1) { // nobody to share a round trip with
		b.mu.RUnlock()
		defer b.inflight.Add(-1)
		b.alone.Add(1)
		return b.rdb.Do(ctx, args...)
	}
	c := &batchCall{ctx: ctx, args: args, res: make(chan *redis.Cmd, 1)}
	select {
	case b.queue <- c: // a worker or Close's drain answers it
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return failedCmd(ctx, ctx.Err())
	}
	select {
	case cmd := <-c.res:
		return cmd
	case <-ctx.Done():
		return failedCmd(ctx, ctx.Err())
	}
}

func failedCmd(ctx context.Context, err error) *redis.Cmd {
	cmd := redis.NewCmd(ctx)
	cmd.SetErr(err)
	return cmd
}

// scriptArgs is EVAL's or EVALSHA's command line.
func scriptArgs(name, body string, keys []string, args []any) []any {
	a := make([]any, 0, 3+len(keys)+len(args))
	a = append(a, name, body, len(keys))
	for _, k := range keys {
		a = append(a, k)
	}
	return append(a, args...)
}

// Eval batches an EVAL (go-redis's Script sends one after a NOSCRIPT).
func (b *Batcher) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return b.Do(ctx, scriptArgs("eval", script, keys, args)...)
}

// EvalSha batches an EVALSHA.
func (b *Batcher) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return b.Do(ctx, scriptArgs("evalsha", sha1, keys, args)...)
}

// EvalRO batches an EVAL_RO.
func (b *Batcher) EvalRO(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return b.Do(ctx, scriptArgs("eval_ro", script, keys, args)...)
}

// EvalShaRO batches an EVALSHA_RO.
func (b *Batcher) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return b.Do(ctx, scriptArgs("evalsha_ro", sha1, keys, args)...)
}

// ScriptExists and ScriptLoad go straight to the client: they are rare.
func (b *Batcher) ScriptExists(ctx context.Context, hashes ...string) *redis.BoolSliceCmd {
	return b.rdb.ScriptExists(ctx, hashes...)
}

func (b *Batcher) ScriptLoad(ctx context.Context, script string) *redis.StringCmd {
	return b.rdb.ScriptLoad(ctx, script)
}

// Stats reports what the Batcher has sent so far.
func (b *Batcher) Stats() BatcherStats {
	return BatcherStats{Pipelines: b.pipelines.Load(), Batched: b.batched.Load(), Alone: b.alone.Load()}
}

// Close stops the workers once they finish the pipelines they have out;
// calls still queued, and every call after, get redis.ErrClosed. It does not
// close the client.
func (b *Batcher) Close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true // from here on no call queues
	b.mu.Unlock()
	close(b.stop)
	b.wg.Wait()
	for {
		select {
		case c := <-b.queue:
			c.res <- failedCmd(c.ctx, redis.ErrClosed)
		default:
			return
		}
	}
}
