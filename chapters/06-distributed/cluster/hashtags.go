package cluster

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// HashTagIDs is how many identities RunHashTags spreads over the primaries
// in CLUSTER.md's run.
const HashTagIDs = 10000

// HashTagResult is what RunHashTags measured (E21): where one identity's
// keys land, what a script over two slots gets, and how identities spread
// over the primaries.
type HashTagResult struct {
	ID        string         `json:"id"`
	Slot      int            `json:"slot"`       // CLUSTER KEYSLOT of every key of ID
	KeySlots  map[string]int `json:"key_slots"`  // key → CLUSTER KEYSLOT
	CrossSlot string         `json:"cross_slot"` // the error of a script over two untagged keys
	SharedTag string         `json:"shared_tag"` // the same script over two keys of one tag: its reply
	IDs       int            `json:"ids"`
	Split     []PrimaryShare `json:"split"` // identities per primary
}

// PrimaryShare is one primary's part of something counted per primary.
type PrimaryShare struct {
	Addr  string  `json:"addr"`
	Slots int     `json:"slots"` // slots the primary serves
	Count int64   `json:"count"`
	Share float64 `json:"share"` // Count / total
}

// keyKinds are the key kinds of one identity in chapter 06.
var keyKinds = []string{"fw", "fwt", "log", "sc", "tb", "gcra", "prefetch"}

// twoKeys reads two keys in one script: the smallest call that needs both
// keys on one node, in one slot.
var twoKeys = redis.NewScript(`return {redis.call('EXISTS', KEYS[1]), redis.call('EXISTS', KEYS[2])}`)

// RunHashTags checks hash tags on a cluster (E21): every key of one
// identity has the slot of its tag (asked of the server with CLUSTER
// KEYSLOT, and equal to KeySlot); a two-key script over keys of two slots
// fails with CROSSSLOT, over two keys sharing a tag it runs; and ids
// identities "prefix-0" … are counted per primary that serves their slot.
func RunHashTags(ctx context.Context, cc *redis.ClusterClient, prefix string, ids int) (HashTagResult, error) {
	res := HashTagResult{ID: prefix + "-user-42", KeySlots: map[string]int{}, IDs: ids}
	top, err := redisproc.ReadTopology(ctx, seedAddr(cc))
	if err != nil {
		return res, err
	}
	seed := redis.NewClient(&redis.Options{Addr: seedAddr(cc), MaxRetries: -1})
	defer seed.Close()
	res.Slot = -1
	for _, kind := range keyKinds {
		k := distributed.Key(res.ID, kind)
		s, err := seed.ClusterKeySlot(ctx, k).Result()
		if err != nil {
			return res, err
		}
		res.KeySlots[k] = int(s)
		if int(s) != KeySlot(k) {
			return res, fmt.Errorf("CLUSTER KEYSLOT %s = %d, KeySlot says %d", k, s, KeySlot(k))
		}
		if res.Slot == -1 {
			res.Slot = int(s)
		} else if int(s) != res.Slot {
			return res, fmt.Errorf("keys of %s in slots %d and %d", res.ID, res.Slot, s)
		}
	}
	// Two keys of one identity written without the braces: different slots.
	a, b := "rl:"+res.ID+":fw", "rl:"+res.ID+":tb"
	if KeySlot(a) == KeySlot(b) {
		return res, fmt.Errorf("%s and %s share slot %d: pick another id", a, b, KeySlot(a))
	}
	if err := twoKeys.Run(ctx, cc, []string{a, b}).Err(); err != nil {
		res.CrossSlot = err.Error()
	}
	v, err := twoKeys.Run(ctx, cc, []string{distributed.Key(res.ID, "fw"), distributed.Key(res.ID, "tb")}).Int64Slice()
	if err != nil {
		return res, fmt.Errorf("two keys under one tag: %w", err)
	}
	res.SharedTag = fmt.Sprint(v)

	counts := map[string]int64{}
	pipe := seed.Pipeline()
	cmds := make([]*redis.IntCmd, ids)
	for i := range cmds {
		cmds[i] = pipe.ClusterKeySlot(ctx, distributed.Key(fmt.Sprintf("%s-%d", prefix, i), "fw"))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return res, err
	}
	for _, c := range cmds {
		owner, ok := top.Owner(int(c.Val()))
		if !ok {
			return res, fmt.Errorf("slot %d has no primary", c.Val())
		}
		counts[owner.Addr]++
	}
	res.Split = shares(top, counts)
	return res, nil
}

// shares lists every primary of top with its count and share of the total.
func shares(top redisproc.Topology, counts map[string]int64) []PrimaryShare {
	var total int64
	for _, n := range counts {
		total += n
	}
	var out []PrimaryShare
	for _, p := range top.Primaries() {
		s := PrimaryShare{Addr: p.Addr, Slots: p.SlotCount(), Count: counts[p.Addr]}
		if total > 0 {
			s.Share = float64(s.Count) / float64(total)
		}
		out = append(out, s)
	}
	return out
}
