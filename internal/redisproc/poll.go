package redisproc

import (
	"context"
	"fmt"
	"time"
)

// PollEvery is how often Poll checks its condition.
const PollEvery = 20 * time.Millisecond

// Poll checks cond every PollEvery until it holds, returns an error, the
// context ends, or limit passes; the error names what was waited for.
func Poll(ctx context.Context, limit time.Duration, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	for {
		ok, err := cond()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v for %s", limit, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(PollEvery):
		}
	}
}
