//go:build linux && !exercise10

package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// The reference E33 compares against: envoyproxy/ratelimit, built from the Go
// module proxy at the version the proxy called latest when this was written
// (commit 3fb702589d36, 22 January 2026). It stays out of the course's
// go.mod: `go install module@version` builds it in a module of its own.
const (
	peerModule  = "github.com/envoyproxy/ratelimit"
	peerVersion = "v1.4.1-0.20260122083618-3fb702589d36"
	peerCommand = peerModule + "/src/service_cmd"
)

// peerRules is the rules directory both services load in E33 and in the
// benchmark beside the reference.
const peerRules = "peer/rules"

// peerBuild builds the reference once per test binary.
var peerBuild struct {
	once sync.Once
	bin  string
	err  error
}

// peerBinary returns the path of the reference's binary, building it into the
// user's cache directory, keyed by version, on first use: about a minute on a
// clean machine (modules and build cache empty), nothing on later runs.
func peerBinary() (string, error) {
	peerBuild.once.Do(func() { peerBuild.bin, peerBuild.err = buildPeer() })
	return peerBuild.bin, peerBuild.err
}

func buildPeer() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "ratelimit-course", "envoy-ratelimit", peerVersion)
	bin := filepath.Join(dir, "service_cmd")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command on PATH")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Build into a directory of this run's own, then rename: two runs at once
	// never see half a binary.
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "install", peerCommand+"@"+peerVersion)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=")
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %v: %s", peerCommand, peerVersion, err, out.lastLine())
	}
	if err := os.Rename(filepath.Join(tmp, "service_cmd"), bin); err != nil {
		return "", err
	}
	return bin, nil
}

// peerBinaryOrSkip returns the reference's binary or ends the test: skipped
// with one line when it cannot be built here, failed in CI (CI=true or
// REQUIRE_REDIS=1), where the comparison must run.
func peerBinaryOrSkip(tb testing.TB) string {
	tb.Helper()
	testenv.NeedsProcesses(tb) // built from the Go module proxy, about a minute the first time
	bin, err := peerBinary()
	if err == nil {
		return bin
	}
	if os.Getenv("CI") == "true" || os.Getenv("REQUIRE_REDIS") == "1" {
		tb.Fatalf("envoyproxy/ratelimit could not be built: %v", err)
	}
	tb.Skipf("envoyproxy/ratelimit could not be built: %v; needs the Go module proxy", err)
	return ""
}

// peerAddrs are where a running reference listens, all on loopback.
type peerAddrs struct {
	GRPC string // envoy.service.ratelimit.v3.RateLimitService
	HTTP string // POST /json, GET /healthcheck
	PID  int    // the process, for its CPU time
}

// startPeer runs envoyproxy/ratelimit on a redis-server of its own with the
// rules in rulesDir and any settings in env ("NAME=value", added to its
// environment), waits until it answers, and kills it when the test ends.
func startPeer(tb testing.TB, rulesDir string, env ...string) peerAddrs {
	tb.Helper()
	bin := peerBinaryOrSkip(tb)
	redis := redistest.StartDedicated(tb)
	rules, err := filepath.Abs(rulesDir)
	if err != nil {
		tb.Fatal(err)
	}
	// Ports come from the kernel, are released and handed to the peer, which
	// cannot be told to pick its own: another process may take one in
	// between, so a start that fails is tried again on new ports.
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		addrs, err := launchPeer(tb, bin, rules, redis.Addr(), env)
		if err == nil {
			return addrs
		}
		lastErr = err
	}
	tb.Fatalf("envoyproxy/ratelimit did not start: %v", lastErr)
	return peerAddrs{}
}

func launchPeer(tb testing.TB, bin, rules, redisAddr string, env []string) (peerAddrs, error) {
	ports, err := freePorts(3)
	if err != nil {
		return peerAddrs{}, err
	}
	addrs := peerAddrs{
		GRPC: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])),
		HTTP: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1])),
	}
	cmd := exec.Command(bin)
	// The settings come from the environment (src/settings/settings.go): a
	// clean one, so nothing of the caller's leaks in. The rules are read from
	// RUNTIME_ROOT/RUNTIME_APPDIRECTORY; stats, tracing and the xDS client
	// stay off, and every listener is on loopback.
	cmd.Env = []string{
		"HOST=127.0.0.1", "PORT=" + strconv.Itoa(ports[1]),
		"GRPC_HOST=127.0.0.1", "GRPC_PORT=" + strconv.Itoa(ports[0]),
		"DEBUG_HOST=127.0.0.1", "DEBUG_PORT=" + strconv.Itoa(ports[2]),
		"REDIS_SOCKET_TYPE=tcp", "REDIS_TYPE=SINGLE", "REDIS_URL=" + redisAddr,
		"CONFIG_TYPE=FILE",
		"RUNTIME_ROOT=" + filepath.Dir(rules), "RUNTIME_SUBDIRECTORY=",
		"RUNTIME_APPDIRECTORY=" + filepath.Base(rules),
		"RUNTIME_WATCH_ROOT=false", "RUNTIME_IGNOREDOTFILES=true",
		"USE_STATSD=false", "DISABLE_STATS=true", "TRACING_ENABLED=false",
		"LOG_LEVEL=warn",
	}
	cmd.Env = append(cmd.Env, env...)
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // dies with the test binary
	if err := cmd.Start(); err != nil {
		return peerAddrs{}, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() { _ = cmd.Process.Kill(); <-exited }
	if err := waitPeer(addrs, exited); err != nil {
		stop()
		return peerAddrs{}, fmt.Errorf("%v: %s", err, out.lastLine())
	}
	tb.Cleanup(stop)
	addrs.PID = cmd.Process.Pid
	return addrs, nil
}

// waitPeer waits until the peer has loaded its rules (a request for a domain
// it does not know is answered 200 only then) and its gRPC port accepts.
func waitPeer(addrs peerAddrs, exited <-chan struct{}) error {
	deadline := time.Now().Add(60 * time.Second)
	client := &http.Client{Timeout: time.Second}
	probe := `{"domain":"peer-probe","descriptors":[{"entries":[{"key":"probe","value":"1"}]}]}`
	for {
		select {
		case <-exited:
			return errors.New("exited")
		default:
		}
		if time.Now().After(deadline) {
			return errors.New("not ready after 60s")
		}
		resp, err := client.Post("http://"+addrs.HTTP+"/json", "application/json", strings.NewReader(probe))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				if c, err := net.DialTimeout("tcp", addrs.GRPC, time.Second); err == nil {
					c.Close()
					return nil
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freePorts returns n distinct loopback ports the kernel just had free.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// tail keeps the last few KiB a process wrote, for the error that explains
// why it failed.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	const keep = 8 << 10
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > keep {
		t.buf = t.buf[len(t.buf)-keep:]
	}
	return len(p), nil
}

// lastLine is the last non-empty line written, or "(no output)".
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return last
	}
	return "(no output)"
}

// peerJSON is the part of a /json answer TestPeerStarts reads (protojson
// field names).
type peerJSON struct {
	OverallCode string `json:"overallCode"`
	Statuses    []struct {
		Code         string `json:"code"`
		CurrentLimit *struct {
			RequestsPerUnit uint32 `json:"requestsPerUnit"`
			Unit            string `json:"unit"`
			Name            string `json:"name"`
		} `json:"currentLimit"`
		LimitRemaining uint32 `json:"limitRemaining"`
	} `json:"statuses"`
}

// TestPeerStarts checks the harness: the reference starts on its own Redis
// with the E33 rules and counts a key-only rule (20 per minute) from 20 down.
func TestPeerStarts(t *testing.T) {
	addrs := startPeer(t, peerRules)
	body := fmt.Sprintf(`{"domain":"edge","descriptors":[{"entries":[{"key":"remote_address","value":"peer-starts-%d"}]}]}`, time.Now().UnixNano())
	for want := uint32(19); want >= 18; want-- {
		resp, err := http.Post("http://"+addrs.HTTP+"/json", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var got peerJSON
		var raw bytes.Buffer
		err = json.NewDecoder(io.TeeReader(resp.Body, &raw)).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /json: %d %v: %s", resp.StatusCode, err, raw.String())
		}
		if len(got.Statuses) != 1 {
			t.Fatalf("statuses: %s", raw.String())
		}
		s := got.Statuses[0]
		if got.OverallCode != "OK" || s.Code != "OK" || s.CurrentLimit == nil ||
			s.CurrentLimit.RequestsPerUnit != 20 || s.CurrentLimit.Unit != "MINUTE" || s.LimitRemaining != want {
			t.Fatalf("answer %s, want OK, 20 per MINUTE, %d remaining", raw.String(), want)
		}
	}
}
