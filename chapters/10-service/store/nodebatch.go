package store

import (
	"context"
	"errors"
	"sync"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// scriptBatcher is what the Redis store sends its script calls through:
// chapter 06's Batcher, or on a cluster one Batcher per master.
type scriptBatcher interface {
	redis.Scripter
	Stats() distributed.BatcherStats
	Close()
}

// newBatcher is chapter 06's Batcher on client; on a Redis Cluster, a
// Batcher per master (nodeBatchers).
func newBatcher(client redis.UniversalClient, pipe distributed.Pipeliner, o distributed.BatcherOptions) (scriptBatcher, error) {
	if cc, ok := client.(*redis.ClusterClient); ok {
		return &nodeBatchers{cc: cc, o: o, byNode: map[string]*distributed.Batcher{}}, nil
	}
	return distributed.NewBatcher(pipe, o)
}

// nodeBatchers sends each script call through the Batcher of the master
// that serves its key's slot, made on the master's first call. One
// Batcher for a whole cluster sends pipelines that span the masters, and
// a pipeline waits for its slowest node: a master that stops answering
// without closing its connections (frozen, or cut off by the network)
// would hold every pipeline, and with them the keys of the masters that
// answer. A Batcher per master holds only its own.
type nodeBatchers struct {
	cc *redis.ClusterClient
	o  distributed.BatcherOptions

	mu     sync.RWMutex
	closed bool
	byNode map[string]*distributed.Batcher
}

// of is the Batcher of the master serving key, as the cluster client's
// slot table says (no round trip).
func (n *nodeBatchers) of(ctx context.Context, key string) (*distributed.Batcher, error) {
	master, err := n.cc.MasterForKey(ctx, key)
	if err != nil {
		return nil, err
	}
	addr := master.Options().Addr
	n.mu.RLock()
	b, closed := n.byNode[addr], n.closed
	n.mu.RUnlock()
	if b != nil && !closed {
		return b, nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, redis.ErrClosed
	}
	if b = n.byNode[addr]; b == nil {
		if b, err = distributed.NewBatcher(master, n.o); err != nil {
			return nil, err
		}
		n.byNode[addr] = b
	}
	return b, nil
}

// errNoKey refuses a script call that names no key: nothing says which
// master it is for.
var errNoKey = errors.New("a script call on a Redis Cluster must name its key")

// call sends one script call through its key's Batcher.
func (n *nodeBatchers) call(ctx context.Context, keys []string, send func(*distributed.Batcher) *redis.Cmd) *redis.Cmd {
	var b *distributed.Batcher
	err := errNoKey // the course's scripts all name their key
	if len(keys) > 0 {
		b, err = n.of(ctx, keys[0])
	}
	if err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	return send(b)
}

func (n *nodeBatchers) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return n.call(ctx, keys, func(b *distributed.Batcher) *redis.Cmd { return b.Eval(ctx, script, keys, args...) })
}

func (n *nodeBatchers) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return n.call(ctx, keys, func(b *distributed.Batcher) *redis.Cmd { return b.EvalSha(ctx, sha1, keys, args...) })
}

func (n *nodeBatchers) EvalRO(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return n.call(ctx, keys, func(b *distributed.Batcher) *redis.Cmd { return b.EvalRO(ctx, script, keys, args...) })
}

func (n *nodeBatchers) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return n.call(ctx, keys, func(b *distributed.Batcher) *redis.Cmd { return b.EvalShaRO(ctx, sha1, keys, args...) })
}

// ScriptExists and ScriptLoad go to the cluster client, which asks every master.
func (n *nodeBatchers) ScriptExists(ctx context.Context, hashes ...string) *redis.BoolSliceCmd {
	return n.cc.ScriptExists(ctx, hashes...)
}

func (n *nodeBatchers) ScriptLoad(ctx context.Context, script string) *redis.StringCmd {
	return n.cc.ScriptLoad(ctx, script)
}

// Stats adds up the Batchers' counts.
func (n *nodeBatchers) Stats() distributed.BatcherStats {
	n.mu.RLock()
	defer n.mu.RUnlock()
	var sum distributed.BatcherStats
	for _, b := range n.byNode {
		st := b.Stats()
		sum.Pipelines += st.Pipelines
		sum.Batched += st.Batched
		sum.Alone += st.Alone
	}
	return sum
}

// Close closes every Batcher; a call after it gets redis.ErrClosed.
func (n *nodeBatchers) Close() {
	n.mu.Lock()
	n.closed = true
	all := n.byNode
	n.byNode = map[string]*distributed.Batcher{}
	n.mu.Unlock()
	for _, b := range all {
		b.Close()
	}
}
