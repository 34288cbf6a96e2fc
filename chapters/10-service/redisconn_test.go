//go:build !exercise10

package service

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// TestRedisOptionsRefused: each combination that cannot work is refused
// at start, before anything is dialled, naming the flag and what it
// accepts, and never showing the password.
func TestRedisOptionsRefused(t *testing.T) {
	const pw = "hunter2-secret"
	for _, tc := range []struct {
		name string
		o    Options
		want []string
	}{
		{"not host:port", Options{RedisAddr: "127.0.0.1"}, []string{`invalid redis "127.0.0.1"`, "redis://[user:password@]host:port[/db]"}},
		{"another scheme", Options{RedisAddr: "http://:" + pw + "@127.0.0.1:1"}, []string{"invalid redis", "rediss://"}},
		{"query options", Options{RedisAddr: "redis://:" + pw + "@127.0.0.1:1?dial_timeout=1"}, []string{"invalid redis", "no ?options"}},
		{"bad db", Options{RedisAddr: "redis://127.0.0.1:1/x"}, []string{"invalid redis", "invalid database number"}},
		{"two passwords", Options{RedisAddr: "redis://:" + pw + "@127.0.0.1:1", RedisPassword: "other"}, []string{"the password once", store.RedisPasswordEnv}},
		{"two users", Options{RedisAddr: "redis://ann:" + pw + "@127.0.0.1:1", RedisUsername: "bob"}, []string{"invalid redis-username bob", "the user once"}},
		{"redis and cluster", Options{RedisAddr: "127.0.0.1:1", RedisCluster: []string{"127.0.0.1:2"}}, []string{"one of --redis, --redis-cluster or --redis-sentinel"}},
		{"sentinel without master", Options{RedisSentinelAddrs: []string{"127.0.0.1:1"}}, []string{"invalid redis-sentinel-master", "sentinel monitor NAME"}},
		{"master without sentinel", Options{RedisSentinelMaster: "mymaster"}, []string{"invalid redis-sentinel-master", "given with --redis-sentinel"}},
		{"bad sentinel address", Options{RedisSentinelAddrs: []string{"sentinel"}, RedisSentinelMaster: "m"}, []string{`invalid redis-sentinel "sentinel"`}},
		{"redis:// with TLS", Options{RedisAddr: "redis://127.0.0.1:1", RedisTLS: true}, []string{"rediss://… for TLS"}},
		{"missing CA", Options{RedisAddr: "rediss://:" + pw + "@127.0.0.1:1", RedisTLSCA: "/no/such/ca.pem"}, []string{"invalid redis-tls-ca /no/such/ca.pem", "a readable PEM file"}},
		{"CA not PEM", Options{RedisAddr: "rediss://127.0.0.1:1", RedisTLSCA: writeTemp(t, "ca.pem", "not a certificate")}, []string{"invalid redis-tls-ca", "none found"}},
		{"cert without key", Options{RedisAddr: "rediss://127.0.0.1:1", RedisTLSCert: "c.pem"}, []string{"invalid redis-tls-cert", "both or neither"}},
		{"TLS without Redis", Options{RedisTLSCA: "ca.pem"}, []string{"invalid redis-tls-ca given without a Redis", "only with --redis, --redis-cluster or --redis-sentinel"}},
	} {
		_, err := Start(context.Background(), tc.o)
		if err == nil {
			t.Errorf("%s: started", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want %q in it", tc.name, err, w)
			}
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "PING") {
			t.Errorf("%s: %v shows the password or dialled", tc.name, err)
		}
	}
}

// limit5 is a rule set of one limit, 5 a day per user.
const limit5 = "domain: conn\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 5}\n"

// serveCLI runs `tui serve` with args (and listeners on free ports) until
// the test ends. It returns the running service, or nil, the exit code and
// stderr if serve did not start.
func serveCLI(t *testing.T, args ...string) (*Service, int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done, started := make(chan int, 1), make(chan *Service, 1)
	go func() {
		done <- run(ctx, append(args, "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--admin", "127.0.0.1:0"), &out, &errOut,
			func(s *Service) { started <- s })
	}()
	select {
	case s := <-started:
		t.Cleanup(func() { cancel(); <-done })
		return s, 0, ""
	case code := <-done:
		cancel()
		t.Logf("serve %s: exit %d; stdout %q", strings.Join(args, " "), code, out.String())
		return nil, code, errOut.String()
	}
}

// admitted sends n requests for user and counts the OKs.
func admitted(t *testing.T, s *Service, user string, n int) int {
	t.Helper()
	c, ok := client(t, s), 0
	for range n {
		if ask(t, c, "conn", desc("user", user)).GetOverallCode() == rls.RateLimitResponse_OK {
			ok++
		}
	}
	return ok
}

// refusedWith checks that serve did not start and said, on one line, each
// of want and none of not.
func refusedWith(t *testing.T, what string, s *Service, code int, stderr string, want, not []string) {
	t.Helper()
	if s != nil || code != 2 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("%s: started %v, exit %d, stderr %q; want exit 2 and one line", what, s != nil, code, stderr)
		return
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr %q; want %q in it", what, stderr, w)
		}
	}
	for _, n := range not {
		if strings.Contains(stderr, n) {
			t.Errorf("%s: stderr %q; want no %q in it", what, stderr, n)
		}
	}
	t.Logf("%s: %s", what, strings.TrimSpace(stderr))
}

// TestRedisPassword: on a Redis with requirepass, serve with the password
// in the URL or in REDIS_PASSWORD starts and counts (5 of 8 admitted
// against a limit of 5); without it, or with a wrong one, it refuses to
// start naming NOAUTH or WRONGPASS and where the password goes, and not
// --redis-eviction-policy, also when that flag is given.
func TestRedisPassword(t *testing.T) {
	addr := spawnRedis(t)
	admin := redis.NewClient(&redis.Options{Addr: addr})
	if err := admin.ConfigSet(context.Background(), "requirepass", "s3cret-pw").Err(); err != nil {
		t.Fatal(err)
	}
	_ = admin.Close()
	rules := writeRules(t, limit5)
	for _, tc := range []struct{ name, redis, env string }{
		{"url", "redis://:s3cret-pw@" + addr, ""},
		{"url-user", "redis://default:s3cret-pw@" + addr + "/0", ""},
		{"env", addr, "s3cret-pw"},
	} {
		t.Setenv(store.RedisPasswordEnv, tc.env)
		s, code, stderr := serveCLI(t, "--config", rules, "--redis", tc.redis)
		if s == nil {
			t.Fatalf("%s: exit %d, stderr %q", tc.name, code, stderr)
		}
		if got := admitted(t, s, tc.name, 8); got != 5 {
			t.Errorf("%s: %d of 8 admitted, want 5", tc.name, got)
		}
	}
	t.Setenv(store.RedisPasswordEnv, "")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no password", []string{"--redis", addr}, []string{"NOAUTH", store.RedisPasswordEnv, "redis://:PASSWORD@host:port"}},
		{"no password, policy stated", []string{"--redis", addr, "--redis-eviction-policy", "noeviction"}, []string{"NOAUTH", store.RedisPasswordEnv}},
		{"wrong password", []string{"--redis", "redis://:wrong-pw-77@" + addr}, []string{"WRONGPASS", "check " + store.RedisPasswordEnv}},
	} {
		s, code, stderr := serveCLI(t, append(tc.args, "--config", rules)...)
		refusedWith(t, tc.name, s, code, stderr, tc.want, []string{"--redis-eviction-policy", "CONFIG", "wrong-pw-77"})
	}
}

// TestRedisUnreachable: a closed port is refused at start, naming
// "connection refused", even with the eviction policy stated; go-redis's
// own line goes to the service's log (stdout), not raw to stderr.
func TestRedisUnreachable(t *testing.T) {
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for _, stated := range [][]string{nil, {"--redis-eviction-policy", "noeviction"}} {
		var out, errOut syncBuffer
		code := run(context.Background(), append([]string{"--redis", addr, "--http", "", "--grpc", "", "--admin", ""}, stated...), &out, &errOut, nil)
		refusedWith(t, "closed port "+strings.Join(stated, " "), nil, code, errOut.String(),
			[]string{"Redis " + addr + ": PING failed: connection refused", "check the address and port"},
			[]string{"--redis-eviction-policy", "CONFIG", "pool.go"})
		if want := `msg="connection pool: failed to dial after 1 attempts: dial tcp`; !strings.Contains(out.String(), want) {
			t.Errorf("stdout (the service's log) %q; want go-redis's line %q in it", out.String(), want)
		}
	}
}

// TestRedisSentinel: with one primary and one sentinel on loopback, serve
// finds the primary through the sentinel and counts there (5 of 8
// admitted); a master name the sentinel does not know is refused at start.
func TestRedisSentinel(t *testing.T) {
	primary := spawnRedis(t)
	sentinel := spawnSentinel(t, primary)
	rules := writeRules(t, limit5)
	s, code, stderr := serveCLI(t, "--config", rules, "--redis-sentinel", sentinel, "--redis-sentinel-master", "mymaster")
	if s == nil {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if got := admitted(t, s, "sentinel", 8); got != 5 {
		t.Errorf("%d of 8 admitted, want 5", got)
	}
	pc := redis.NewClient(&redis.Options{Addr: primary})
	defer pc.Close()
	if n, err := pc.DBSize(context.Background()).Result(); err != nil || n == 0 {
		t.Errorf("the primary holds %d keys (%v); want the limiter's", n, err)
	}
	s, code, stderr = serveCLI(t, "--config", rules, "--redis-sentinel", sentinel, "--redis-sentinel-master", "nosuch")
	refusedWith(t, "unknown master", s, code, stderr, []string{`Redis primary "nosuch" via Sentinel`, `know no primary named "nosuch"`, "--redis-sentinel-master"}, nil)
}

// spawnSentinel starts a redis-server in sentinel mode watching primary
// as "mymaster", and stops it when the test ends.
func spawnSentinel(t *testing.T, primary string) string {
	t.Helper()
	path, err := redisproc.LookPath()
	if err != nil {
		t.Skipf("no redis-server: %v", err)
	}
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	host, pport, _ := strings.Cut(primary, ":")
	conf := filepath.Join(dir, "sentinel.conf") // a sentinel rewrites its own config file
	writeFile(t, dir, "sentinel.conf", "port "+strconv.Itoa(port)+"\nbind 127.0.0.1\ndir "+dir+
		"\nsentinel monitor mymaster "+host+" "+pport+" 1\n")
	cmd := exec.Command(path, conf, "--sentinel")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := redisproc.WaitReady(context.Background(), addr, exited); err != nil {
		t.Fatal(err)
	}
	return addr
}

// writeTemp writes text to a file of the test's own and returns its path.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
