package redistest_test

import (
	"context"
	"testing"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestClientAnswers(t *testing.T) {
	c := redistest.Client(t)
	got, err := c.Ping(context.Background()).Result()
	if err != nil || got != "PONG" {
		t.Fatalf("PING = %q, %v; want PONG", got, err)
	}
	t.Logf("Redis from %s at %s", redistest.Source(), redistest.Addr(t))
}

func TestIDsDiffer(t *testing.T) {
	a, b := redistest.ID(t), redistest.ID(t)
	if a == b {
		t.Fatalf("two IDs are equal: %q", a)
	}
	for _, r := range a {
		if r == '{' || r == '}' {
			t.Fatalf("ID %q holds a brace, which would break a key's hash tag", a)
		}
	}
}
