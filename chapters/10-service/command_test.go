package service

import (
	"context"
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCommand runs `serve` as the CLI does: it says it runs in memory on one
// line, answers /healthcheck, and stops with exit 0 when its context ends
// (SIGINT or SIGTERM in Command); a bad rules file or option value exits 2
// with one line.
func TestCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--admin", "127.0.0.1:0"}, &out, &errOut, nil)
	}()
	var addr string
	poll(t, 20*time.Second, func() bool {
		m := regexp.MustCompile(`http=(127\.0\.0\.1:\d+)`).FindStringSubmatch(out.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	if !strings.Contains(out.String(), `msg="store opened" store="in memory`) {
		t.Errorf("no in-memory line: %q", out.String())
	}
	if code, body := getAddr(t, addr, "/healthcheck"); code != 200 || body != "OK" {
		t.Errorf("healthcheck: %d %q", code, body)
	}
	if m := regexp.MustCompile(`admin="(127\.0\.0\.1:\d+) \(GET /healthcheck, GET /metrics\)"`).FindStringSubmatch(out.String()); m == nil {
		t.Errorf("the serving line does not name the admin listener: %q", out.String())
	} else if code, body := getAddr(t, m[1], "/healthcheck"); code != 200 || body != "OK" {
		t.Errorf("admin healthcheck: %d %q", code, body)
	}
	cancel()
	if code := await(t, done, 20*time.Second, "serve did not stop"); code != 0 {
		t.Errorf("exit %d after the stop, stderr %q", code, errOut.String())
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", writeRules(t, "domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: eon}\n"), "--http", "127.0.0.1:0", "--grpc", ""}, ":4: unit: invalid rate limit unit 'eon'"},
		{[]string{"--failure-mode", "sideways", "--http", "", "--grpc", ""}, "serve: invalid failure-mode sideways: accepted open or closed"},
	} {
		var o, e syncBuffer
		if code := run(context.Background(), tc.args, &o, &e, nil); code != 2 || !strings.Contains(e.String(), tc.want) || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want 2 and one line with %q", tc.args, code, e.String(), tc.want)
		}
	}
}

// TestServeHelp: --help (and -h) prints every flag with its default, as the
// flag package's PrintDefaults does, on stdout, and exits 0; a flag serve
// does not know, a malformed value or a stray argument exits 2 with the
// error and then the same usage on stderr.
func TestServeHelp(t *testing.T) {
	var help string
	for _, arg := range []string{"--help", "-h"} {
		var out, errOut syncBuffer
		if code := run(context.Background(), []string{arg}, &out, &errOut, nil); code != 0 || errOut.String() != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", arg, code, errOut.String())
		}
		help = out.String()
	}
	for _, want := range []string{
		"usage: tui serve [flags]",
		"  -grpc string\n    \tgRPC address: envoy.service.ratelimit.v3.RateLimitService, grpc.health.v1.Health, reflection (default \"127.0.0.1:8081\")\n",
		"  -http string\n    \tHTTP address: POST /json, GET /healthcheck, GET /metrics (default \"127.0.0.1:8080\")\n",
		"  -failure-mode string\n", `(default "open")`,
		"  -max-keys int\n", "(default 1000000)",
		"  -store-timeout duration\n", "(default 50ms)",
		"  -store-patience duration\n", "(default 500ms)",
		"  -config string\n    \trules file or directory (default: the chapter's example rules)\n",
		"  -redis string\n", "  -redis-cluster string\n",
		"  -response-headers\n    \tadd RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset", "to the client (default false)\n",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q:\n%s", want, help)
		}
	}
	// Every flag defined, each with its default unless it is the zero value.
	var o Options
	var cluster, mode string
	n := 0
	serveFlags(&o, &cluster, &mode).VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(help, "\n  -"+f.Name+" ") && !strings.Contains(help, "\n  -"+f.Name+"\n") { // a bool flag has no type after it
			t.Errorf("--help lacks the flag -%s", f.Name)
		}
		if f.DefValue != "" && !strings.Contains(help, fmt.Sprintf("(default %s)", f.DefValue)) &&
			!strings.Contains(help, fmt.Sprintf("(default %q)", f.DefValue)) {
			t.Errorf("--help lacks -%s's default %s", f.Name, f.DefValue)
		}
	})
	if got := strings.Count(help, "\n  -"); got != n || n < 9 {
		t.Errorf("--help lists %d flags, serve defines %d", got, n)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "serve: flag provided but not defined: -bogus\n"},
		{[]string{"--max-keys", "lots"}, `serve: invalid value "lots" for flag -max-keys: parse error` + "\n"},
		{[]string{"--store-timeout"}, "serve: flag needs an argument: -store-timeout\n"},
		{[]string{"stray"}, "serve: unexpected argument \"stray\" (flags only)\n"},
	} {
		var out, errOut syncBuffer
		code := run(context.Background(), tc.args, &out, &errOut, nil)
		if code != 2 || out.String() != "" || errOut.String() != tc.want+help {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, and %q then the usage", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}
}
