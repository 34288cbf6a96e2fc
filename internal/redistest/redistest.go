// Package redistest gives tests and benchmarks a real Redis, chosen once per
// test binary, in this order:
//
//  1. REDIS_ADDR (host:port) if set: a Redis you run yourself.
//  2. testcontainers-go's redis module, when a Docker engine answers, with the
//     image in REDIS_IMAGE (default redis:7). The server runs with
//     `--bind 0.0.0.0 --protected-mode no --save "" --appendonly no` and is
//     awaited on its log line and its mapped port, never through a shell, so an
//     image built FROM scratch with only redis-server works (see .ci/redis-image).
//  3. a redis-server found on PATH, started on a free loopback port with
//     persistence off and stopped when the tests end.
//
// With none of them the caller is skipped with one line saying how to get a
// Redis; REQUIRE_REDIS=1 turns that skip into a failure.
//
// A package that uses it declares
//
//	func TestMain(m *testing.M) { redistest.Main(m) }
//
// so that the container or process started for it is stopped after its tests.
// The server is shared by every test of the binary and never flushed: tests
// keep apart by using their own keys (see ID). A container is labelled with
// the binary that started it; if that binary dies before Main can stop it (a
// panic, a -timeout), the next run on the machine removes it.
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/redis/go-redis/v9"
	"github.com/testcontainers/testcontainers-go"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
	"github.com/testcontainers/testcontainers-go/wait"
)

// DefaultImage is the image used by the container path when REDIS_IMAGE is
// unset: a public Redis 7, pulled by Docker on a laptop with a registry.
const DefaultImage = "redis:7"

// How tells the skipped test what would have given it a Redis.
const How = "no Redis for this test: set REDIS_ADDR=host:port, start a Docker engine, " +
	"or install redis-server (apt-get install redis-server); REQUIRE_REDIS=1 makes this a failure"

// serverArgs are the container's command: in memory only, and reachable from
// outside the container, where the client comes in through the mapped port.
var serverArgs = []string{"--bind", "0.0.0.0", "--protected-mode", "no", "--save", "", "--appendonly", "no"}

type server struct {
	addr string
	how  string // which path gave it, for logs
	stop func() error
}

var (
	once    sync.Once
	current *server
	failure error // why no Redis was found (nil when current is set)
	missing bool  // true when nothing was available at all (skip, not fail)
	seq     atomic.Int64
)

// Main runs the tests of a package and then stops the Redis started for them.
func Main(m *testing.M) {
	code := m.Run()
	if err := Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "redistest: stop:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Stop stops the server this binary started, if any. Main calls it; call it
// yourself only from a TestMain that does not use Main.
func Stop() error {
	if current == nil || current.stop == nil {
		return nil
	}
	err := current.stop()
	current.stop = nil
	return err
}

// Addr returns the address of the shared Redis, starting it on first use. It
// skips the caller when no Redis can be had (fails it with REQUIRE_REDIS=1),
// and fails it when REDIS_ADDR or REDIS_IMAGE names one that does not work.
func Addr(t testing.TB) string {
	t.Helper()
	once.Do(start)
	if current != nil {
		return current.addr
	}
	switch {
	case !missing:
		t.Fatalf("redistest: %v", failure)
	case os.Getenv("REQUIRE_REDIS") == "1":
		t.Fatalf("redistest: REQUIRE_REDIS=1 but %s (%v)", How, failure)
	default:
		t.Skip(How)
	}
	return ""
}

// Source says which path provided the shared Redis ("REDIS_ADDR",
// "testcontainers <image>", "redis-server <path>"), or "" before Addr.
func Source() string {
	if current == nil {
		return ""
	}
	return current.how
}

// Client returns a new client of the shared Redis, closed when the test ends.
func Client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: Addr(t)})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// ID returns an identifier no other caller in this binary gets, built from the
// test's name, so that tests sharing one server never touch each other's keys.
func ID(t testing.TB) string {
	name := strings.NewReplacer("/", ".", "{", "(", "}", ")", " ", "_").Replace(t.Name())
	return fmt.Sprintf("%s.%d.%d", name, os.Getpid(), seq.Add(1))
}

func start() {
	ctx := context.Background()
	if addr := os.Getenv("REDIS_ADDR"); addr != "" {
		if err := ping(ctx, addr, 3*time.Second); err != nil {
			failure = fmt.Errorf("REDIS_ADDR=%s does not answer PING: %w", addr, err)
			return
		}
		current = &server{addr: addr, how: "REDIS_ADDR"}
		return
	}

	image := os.Getenv("REDIS_IMAGE")
	explicit := image != ""
	if !explicit {
		image = DefaultImage
	}
	var reasons []string
	if err := dockerAnswers(ctx); err != nil {
		reasons = append(reasons, "no Docker engine: "+firstLine(err))
	} else {
		sweep(ctx)
		s, err := startContainer(ctx, image)
		if err == nil {
			current = s
			return
		}
		if explicit {
			// The image was chosen on purpose (CI builds one): a failure here
			// is a real failure, not a reason to quietly use another path.
			failure = fmt.Errorf("container from REDIS_IMAGE=%s: %w%s", image, err, hostHint())
			return
		}
		reasons = append(reasons, fmt.Sprintf("container %s: %s", image, firstLine(err)))
	}

	path, err := exec.LookPath("redis-server")
	if err != nil {
		reasons = append(reasons, "redis-server not on PATH")
		failure = errors.New(strings.Join(reasons, "; "))
		missing = true
		return
	}
	s, err := startProcess(ctx, path)
	if err != nil {
		failure = fmt.Errorf("%s: %w", path, err)
		return
	}
	current = s
}

// dockerAnswers asks the engine testcontainers would use for its info. The
// library panics on some discovery failures, so a panic means "no engine".
func dockerAnswers(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p, err := testcontainers.ProviderDefault.GetProvider()
	if err != nil {
		return err
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return p.Health(ctx)
}

// runContainer starts a Redis container from image and returns it with the
// host address its port is mapped to. On error nothing is left running.
func runContainer(ctx context.Context, image string) (c *tcredis.RedisContainer, addr string, err error) {
	defer func() {
		if r := recover(); r != nil { // testcontainers panics on some discovery failures
			err = fmt.Errorf("testcontainers: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	c, err = tcredis.Run(ctx, image, Owned(),
		// Arguments only: a public image's entrypoint prepends redis-server to
		// arguments starting with "-", and the scratch image's entrypoint is it.
		testcontainers.WithCmd(serverArgs...),
		// Replace the module's wait: its port check execs /bin/sh inside the
		// container, which a scratch image does not have.
		testcontainers.WithWaitStrategyAndDeadline(time.Minute,
			wait.ForLog("Ready to accept connections"),
			wait.ForListeningPort("6379/tcp").SkipInternalCheck(),
		),
	)
	if err == nil {
		addr, err = containerAddr(ctx, c)
	}
	if err != nil {
		_ = terminate(c)
		return nil, "", err
	}
	return c, addr, nil
}

// containerAddr finds the host address of c's Redis port and waits for PING.
func containerAddr(ctx context.Context, c *tcredis.RedisContainer) (string, error) {
	uri, err := c.ConnectionString(ctx)
	if err != nil {
		return "", err
	}
	opt, err := redis.ParseURL(uri)
	if err != nil {
		return "", err
	}
	// Poll: after a restart the port may accept connections before Redis
	// does, and the log line the start waited for is an old one.
	return opt.Addr, waitReady(ctx, opt.Addr, nil)
}

func terminate(c *tcredis.RedisContainer) error {
	if c == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return testcontainers.TerminateContainer(c, testcontainers.StopContext(ctx))
}

func startContainer(ctx context.Context, image string) (*server, error) {
	c, addr, err := runContainer(ctx, image)
	if err != nil {
		return nil, err
	}
	return &server{addr: addr, how: "testcontainers " + image, stop: func() error { return terminate(c) }}, nil
}

// hostHint explains the usual reason a container starts and cannot be
// reached: inside a container testcontainers dials the Docker bridge's
// gateway, which need not answer; .ci/run sets the override.
func hostHint() string {
	if _, err := os.Stat("/.dockerenv"); err == nil && os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" {
		return " (running inside a container: try TESTCONTAINERS_HOST_OVERRIDE=localhost, as .ci/run does)"
	}
	return ""
}

// ownerLabel marks every container this package starts (and the ones
// tests start with Owned) with "host:pid" of the test binary.
const ownerLabel = "org.ratelimit-course.redistest.owner"

func owner() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(os.Getpid())
}

// Owned labels a container with the test binary that started it, so that a
// later run can remove it if that binary died without stopping it.
func Owned() testcontainers.CustomizeRequestOption {
	return testcontainers.WithLabels(map[string]string{ownerLabel: owner()})
}

// sweep removes the containers that test binaries on this machine started
// and could not stop: a panicking test or a -timeout ends the process before
// Main's cleanup runs, and Ryuk, testcontainers' own reaper, is off in CI.
// A container whose owner is still running is left alone.
func sweep(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	dc, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return
	}
	defer dc.Close()
	list, err := dc.ContainerList(ctx, client.ContainerListOptions{All: true,
		Filters: make(client.Filters).Add("label", ownerLabel)})
	if err != nil {
		return
	}
	host, _ := os.Hostname()
	for _, c := range list.Items {
		h, pid, ok := strings.Cut(c.Labels[ownerLabel], ":")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || h != host || alive(n) {
			continue
		}
		_, _ = dc.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true})
	}
}

func startProcess(ctx context.Context, path string) (*server, error) {
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // another process may take the free port first
		port, err := freePort()
		if err != nil {
			lastErr = err
			continue
		}
		p, err := spawn(ctx, path, port, dir)
		if err != nil {
			lastErr = err
			continue
		}
		stop := func() error {
			defer os.RemoveAll(dir)
			_ = p.cmd.Process.Signal(os.Interrupt)
			select {
			case <-p.done:
				return nil
			case <-time.After(10 * time.Second):
				_ = p.cmd.Process.Kill()
				<-p.done
				return errors.New("redis-server ignored SIGINT; killed")
			}
		}
		return &server{addr: p.addr, how: "redis-server " + path, stop: stop}, nil
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// proc is a running redis-server; done is closed when it has exited.
type proc struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{}
}

// spawn starts redis-server on a loopback port with persistence off (and
// any extra settings) and waits until it answers PING. On error the process
// is gone, and the error carries the server's last log line.
func spawn(ctx context.Context, path string, port int, dir string, extra ...string) (*proc, error) {
	// Loopback only: this process serves this machine's tests.
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"}
	cmd := exec.Command(path, append(args, extra...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	setParentDeath(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	if err := waitReady(ctx, p.addr, p.done); err != nil {
		_ = cmd.Process.Kill()
		<-p.done
		return nil, fmt.Errorf("%w: %s", err, lastLine(out.String()))
	}
	return p, nil
}

// waitReady polls PING until the server answers, exits (exited is closed;
// nil for a container), or 10 s pass.
func waitReady(ctx context.Context, addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("redis-server exited")
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if ping(ctx, addr, 200*time.Millisecond) == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer PING within 10s", addr)
}

func ping(ctx context.Context, addr string, timeout time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: timeout, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.Ping(ctx).Err()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func firstLine(err error) string {
	s := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
