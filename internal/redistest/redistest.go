// Package redistest gives tests and benchmarks a real Redis, chosen once per
// test binary, in this order:
//
//  1. REDIS_ADDR (host:port) if set: a Redis you run yourself.
//  2. testcontainers-go's redis module with the image in REDIS_IMAGE, when it
//     is set and a Docker engine answers. The server runs with
//     `--bind 0.0.0.0 --protected-mode no --save "" --appendonly no` and is
//     awaited on its log line and its mapped port, never through a shell, so an
//     image built FROM scratch with only redis-server works (see .ci/redis-image).
//  3. a redis-server found on PATH, started on a free loopback port with
//     persistence off and stopped when the tests end.
//  4. with neither REDIS_IMAGE nor a redis-server, the container path with
//     DefaultImage (redis:7), when Docker answers and can pull it.
//
// With none of them the caller is skipped with one line saying how to get a
// Redis; REQUIRE_REDIS=1 turns that skip into a failure, and Main then stops
// the binary before its tests with one line naming what was tried and what
// failed. Under -short (the tier without processes, internal/testenv) every
// helper here skips its caller, REQUIRE_REDIS=1 or not. The processes themselves are internal/redisproc's; this package
// adds the testing.TB helpers and the container path.
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
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/redis/go-redis/v9"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// DefaultImage is the image used by the container path when REDIS_IMAGE is
// unset: a public Redis 7, pulled by Docker on a laptop with a registry.
const DefaultImage = "redis:7"

// How tells the skipped test what would have given it a Redis.
const How = "no Redis for this test: set REDIS_ADDR=host:port, start a Docker engine, " +
	"or install redis-server (" + redisproc.InstallHint + "); REQUIRE_REDIS=1 makes this a failure"

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
// With REQUIRE_REDIS=1 it finds the Redis first, and without one it prints
// one line saying why and exits 1 before any test runs; under -short it
// looks for none (the short tier has no Redis).
func Main(m *testing.M) {
	quiet()
	flag.Parse() // for testing.Short; m.Run would parse them anyway
	if os.Getenv("REQUIRE_REDIS") == "1" && !testing.Short() {
		once.Do(start)
		if current == nil {
			fmt.Fprintf(os.Stderr, "redistest: REQUIRE_REDIS=1 but no Redis: %v\n", failure)
			os.Exit(1)
		}
	}
	code := m.Run()
	if err := Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "redistest: stop:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// quiet keeps testcontainers' banner and progress lines and go-redis's
// "failed to dial" retries off the test output: the error a test gets
// says what failed.
func quiet() {
	tclog.SetDefault(tclog.NewNoopLogger())
	redis.SetLogger(dropDials{})
}

type dropDials struct{}

func (dropDials) Printf(_ context.Context, format string, v ...any) {
	if s := fmt.Sprintf(format, v...); !strings.Contains(s, "failed to dial") {
		fmt.Fprintln(os.Stderr, "redis:", s)
	}
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
// Under -short it skips the caller (testenv.NeedsProcesses).
func Addr(t testing.TB) string {
	t.Helper()
	testenv.NeedsProcesses(t)
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
		if err := redisproc.Ping(ctx, addr, 3*time.Second); err != nil {
			failure = fmt.Errorf("REDIS_ADDR=%s does not answer PING: %w", addr, err)
			return
		}
		current = &server{addr: addr, how: "REDIS_ADDR"}
		return
	}
	tried := []string{"REDIS_ADDR unset"}

	image := os.Getenv("REDIS_IMAGE")
	explicit := image != ""
	if !explicit {
		image = DefaultImage
	}
	// The container path when it is asked for (REDIS_IMAGE), or when there
	// is no redis-server to run: a default image not present locally means a
	// pull from a public registry, which a machine with redis-server on PATH
	// has no need of (StartDedicated chooses the same way).
	path, lookErr := redisproc.LookPath()
	if !explicit && lookErr == nil {
		tried = append(tried, "REDIS_IMAGE unset")
	} else if err := dockerAnswers(ctx); err != nil {
		tried = append(tried, "no Docker engine ("+firstLine(err)+")")
	} else {
		sweep(ctx)
		s, err := startContainer(ctx, image)
		if err == nil {
			current = s
			return
		}
		tried = append(tried, containerFailure(image, explicit, err))
		if explicit {
			// The image was chosen on purpose (CI builds one): a failure here
			// is a real failure, not a reason to quietly use another path.
			if lookErr == nil {
				tried = append(tried, path+" not tried: REDIS_IMAGE asks for a container")
			} else {
				tried = append(tried, lookErr.Error())
			}
			failure = explain(tried)
			return
		}
	}

	if lookErr != nil {
		failure = explain(append(tried, lookErr.Error()))
		missing = true
		return
	}
	s, err := redisproc.Start(ctx, path)
	if err != nil {
		failure = fmt.Errorf("%s: %w", path, err)
		return
	}
	current = &server{addr: s.Addr, how: "redis-server " + path, stop: s.Close}
}

// explain joins what start tried, in order, into one line.
func explain(tried []string) error { return fmt.Errorf("%s", strings.Join(tried, "; ")) }

// containerFailure says in a few words why no container ran from image: not
// there and not pullable (the usual offline case), or started and not
// reachable (where the TESTCONTAINERS_HOST_OVERRIDE hint belongs).
func containerFailure(image string, explicit bool, err error) string {
	name := "image " + image
	if explicit {
		name = "REDIS_IMAGE=" + image
	}
	msg := firstLine(err)
	for _, sign := range []string{"No such image", "pull access denied", "manifest unknown", "not found",
		"registry", "no such host", "failed to resolve reference"} {
		if strings.Contains(msg, sign) {
			return fmt.Sprintf("%s not found locally and no registry to pull it from (%s)", name, lastCause(msg))
		}
	}
	return fmt.Sprintf("container from %s: %s%s", name, msg, hostHint())
}

// lastCause keeps the innermost two causes of a chain "a: b: c: d".
func lastCause(msg string) string {
	parts := strings.Split(msg, ": ")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ": ")
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
func runContainer(ctx context.Context, image string, extra ...testcontainers.ContainerCustomizer) (c *tcredis.RedisContainer, addr string, err error) {
	defer func() {
		if r := recover(); r != nil { // testcontainers panics on some discovery failures
			err = fmt.Errorf("testcontainers: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	opts := append([]testcontainers.ContainerCustomizer{Owned(),
		// Arguments only: a public image's entrypoint prepends redis-server to
		// arguments starting with "-", and the scratch image's entrypoint is it.
		testcontainers.WithCmd(serverArgs...),
		// Replace the module's wait: its port check execs /bin/sh inside the
		// container, which a scratch image does not have.
		testcontainers.WithWaitStrategyAndDeadline(time.Minute,
			wait.ForLog("Ready to accept connections"),
			wait.ForListeningPort("6379/tcp").SkipInternalCheck(),
		),
	}, extra...)
	c, err = tcredis.Run(ctx, image, opts...)
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
	return opt.Addr, redisproc.WaitReady(ctx, opt.Addr, nil)
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
		if !ok || err != nil || h != host || redisproc.Alive(n) {
			continue
		}
		_, _ = dc.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true})
	}
}

func firstLine(err error) string {
	s := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
