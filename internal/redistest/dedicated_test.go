//go:build linux

package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestDedicatedLifecycle: a dedicated server answers, stops answering when
// paused or killed, and answers again after Resume or Restart.
func TestDedicatedLifecycle(t *testing.T) {
	d := redistest.StartDedicated(t)
	t.Logf("dedicated Redis: %s", d.How)
	checkLifecycle(t, d.Addr(), []lifecycleStep{
		{"started", func() error { return nil }, true},
		{"paused", d.Pause, false},
		{"resumed", d.Resume, true},
		{"killed", d.Kill, false},
		{"restarted", d.Restart, true},
	})
}

// lifecycleStep is one step of a server's lifecycle: what it does to the
// server, and whether the server answers PING after it.
type lifecycleStep struct {
	name string
	do   func() error
	want bool
}

// checkLifecycle runs the steps in order and checks after each whether the
// server at addr answers PING.
func checkLifecycle(t *testing.T, addr string, steps []lifecycleStep) {
	t.Helper()
	answers := func() bool {
		c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1,
			DialTimeout: 200 * time.Millisecond, ReadTimeout: 200 * time.Millisecond})
		defer c.Close()
		return c.Ping(context.Background()).Err() == nil
	}
	for _, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		// A node back from SIGSTOP or a restart may take a moment to be
		// scheduled on a loaded machine: "answers" is waited for, up to 5 s.
		got := answers()
		for deadline := time.Now().Add(5 * time.Second); step.want && !got && time.Now().Before(deadline); got = answers() {
			time.Sleep(50 * time.Millisecond)
		}
		if got != step.want {
			t.Fatalf("%s: answers PING = %v, want %v", step.name, got, step.want)
		}
	}
}
