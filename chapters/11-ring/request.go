package ring

import (
	"fmt"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// Behavior says who decides a request: the key's owner (Batching, the
// default) or the peer that received it, from its copy (Global).
type Behavior int

const (
	// Batching forwards a request to the key's owner, batched with the
	// others going there; the owner's answer is exact.
	Batching Behavior = iota
	// Global answers from the peer's last copy of the owner's state and
	// sends the hits to the owner at the next Sync.
	Global
)

// Request asks for Hits from the bucket of Key: Limit tokens, refilled
// from empty to full in Duration (gubernator's LEAKY_BUCKET with burst =
// limit; chapter 04's TokenBucket with C = Limit, R = Limit/Duration).
type Request struct {
	Key      string        `json:"key"`
	Hits     int           `json:"hits"`
	Limit    int           `json:"limit"`
	Duration time.Duration `json:"duration"`
	Behavior Behavior      `json:"behavior"`
}

// Response is a decision: allowed or not, the whole tokens left, the peer
// that owns the key and the network hops it cost (0 or 1). A request the
// owner cannot decide has Error set instead.
type Response struct {
	Allowed   bool   `json:"allowed"`
	Remaining int    `json:"remaining"`
	Owner     string `json:"owner"`
	Hops      int    `json:"hops"`
	Error     string `json:"error,omitempty"`
}

// config is the bucket a request asks for, or an error naming the field.
func (r Request) config() (buckets.Config, error) {
	if r.Key == "" {
		return buckets.Config{}, core.BadParam("key", `""`, "a non-empty key")
	}
	if r.Hits < 1 {
		return buckets.Config{}, core.BadParam("hits", r.Hits, "1 or more")
	}
	if r.Duration <= 0 {
		return buckets.Config{}, core.BadParam("duration", r.Duration, "a positive duration")
	}
	c := buckets.Config{Capacity: r.Limit, Rate: float64(r.Limit) / r.Duration.Seconds()}
	return c, c.Validate()
}

// entry is one key's bucket and the configuration it was built with.
type entry struct {
	limit int
	dur   time.Duration
	b     *buckets.TokenBucket
}

// maxKeys bounds the buckets a peer holds in each of its maps (owned,
// copies): a new key past it is refused with an error, and the caller's
// failure mode decides, as chapter 10's in-memory store does at --max-keys.
var maxKeys = 1_000_000

// lookup returns the key's entry in m, building a full bucket if there is
// none or if the request asks for another limit (its count starts over, as
// in gubernator when a limit changes).
func lookup(m map[string]*entry, r Request) (*entry, error) {
	c, err := r.config()
	if err != nil {
		return nil, err
	}
	e, ok := m[r.Key]
	if ok && e.limit == r.Limit && e.dur == r.Duration {
		return e, nil
	}
	if !ok && len(m) >= maxKeys {
		return nil, fmt.Errorf("key %q: this peer holds %d keys, its most", r.Key, maxKeys)
	}
	b, err := buckets.NewTokenBucket(c)
	if err != nil {
		return nil, err
	}
	e = &entry{limit: r.Limit, dur: r.Duration, b: b}
	m[r.Key] = e
	return e, nil
}
