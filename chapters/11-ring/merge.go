//go:build !exercise11

package ring

import (
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// merge applies at now hits that another peer has already admitted from its
// copy: the owner's bucket spends what it holds, up to hits, and the hits it
// could not cover are returned: they were over-admitted. A merge never
// refuses (the requests were served) and never takes the bucket below zero;
// its error is only the exercise stub's "write me".
func merge(b *buckets.TokenBucket, now time.Time, hits int) (int, error) {
	spend := min(hits, int(b.Tokens(now)+1e-9))
	if spend > 0 {
		b.AllowN(now, spend)
	}
	return hits - spend, nil
}
