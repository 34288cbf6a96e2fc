package service

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCommand runs `serve` as the CLI does: it says it runs in memory on one
// line, answers /healthcheck, and stops with exit 0 when its context ends
// (SIGINT or SIGTERM in Command); a bad flag or rules file exits 2 with one line.
func TestCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0"}, &out, &errOut, nil)
	}()
	var addr string
	poll(t, 20*time.Second, func() bool {
		m := regexp.MustCompile(`HTTP (127\.0\.0\.1:\d+)`).FindStringSubmatch(out.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	if !strings.Contains(out.String(), "store: in memory") {
		t.Errorf("no in-memory line: %q", out.String())
	}
	if code, body := getAddr(t, addr, "/healthcheck"); code != 200 || body != "OK" {
		t.Errorf("healthcheck: %d %q", code, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after the stop, stderr %q", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "serve: flag provided but not defined: -bogus\n"},
		{[]string{"--config", writeRules(t, "domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: eon}\n"), "--http", "127.0.0.1:0", "--grpc", ""}, ":4: unit: invalid rate limit unit 'eon'"},
		{[]string{"--failure-mode", "sideways", "--http", "", "--grpc", ""}, "serve: invalid failure-mode sideways: accepted open or closed"},
	} {
		var o, e syncBuffer
		if code := run(context.Background(), tc.args, &o, &e, nil); code != 2 || !strings.Contains(e.String(), tc.want) || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want 2 and one line with %q", tc.args, code, e.String(), tc.want)
		}
	}
}
