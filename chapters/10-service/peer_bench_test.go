//go:build linux && !exercise10

package service

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// BenchmarkBesideEnvoyRatelimit measures decisions per second and latency of
// this chapter's service and of envoyproxy/ratelimit in one run: same
// machine, same rules (peer/rules, domain bench), each a process of its own
// on a redis-server of its own with the same Redis deadline, each reached
// over one gRPC connection by 8 and then 64 concurrent callers. Every
// decision is one descriptor of 1000 clients under a limit no caller
// reaches, so each one is a counter increment in Redis. Beside decisions/s
// and latency it reports each service's CPU time per decision (user and
// system, from /proc/PID/stat over the run): the cost of a decision on a
// machine whose CPUs the services share with Redis and the callers.
//
//	go test -run '^$' -bench BesideEnvoyRatelimit -benchtime 20000x ./chapters/10-service
func BenchmarkBesideEnvoyRatelimit(b *testing.B) {
	peerAddrs := startPeer(b, peerRules)
	oursAddr, oursPID := startOursProcess(b, peerRules)
	peer, ours := dialRLS(b, peerAddrs.GRPC), dialRLS(b, oursAddr)
	reqs := make([]*rls.RateLimitRequest, 1000)
	for i := range reqs {
		reqs[i] = &rls.RateLimitRequest{Domain: "bench", Descriptors: []*rlcommon.RateLimitDescriptor{{
			Entries: []*rlcommon.RateLimitDescriptor_Entry{{Key: "client", Value: fmt.Sprintf("c%d", i)}},
		}}}
	}
	for _, callers := range []int{8, 64} {
		for _, s := range []struct {
			name string
			c    rls.RateLimitServiceClient
			pid  int
		}{{"service", ours, oursPID}, {"envoy-ratelimit", peer, peerAddrs.PID}} {
			b.Run(fmt.Sprintf("%s/callers=%d", s.name, callers), func(b *testing.B) {
				cpu0 := cpuTime(b, s.pid)
				benchDecisions(b, s.c, reqs, callers)
				cpu := cpuTime(b, s.pid) - cpu0
				b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/decision")
			})
		}
	}
}

// benchDecisions makes b.N calls through c from the given number of
// goroutines and reports decisions/s (answers, not errors), the share of
// calls that ended in an error (a store deadline passed), and the 50th and
// 99th percentile of one call's latency, errors included.
func benchDecisions(b *testing.B, c rls.RateLimitServiceClient, reqs []*rls.RateLimitRequest, callers int) {
	var next atomic.Int64
	lat := make([][]time.Duration, callers)
	var mu sync.Mutex
	var wrong error // the first answer that is not OK
	var errs atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				resp, err := c.ShouldRateLimit(context.Background(), reqs[i%int64(len(reqs))])
				lat[g] = append(lat[g], time.Since(t0))
				switch {
				case err != nil: // a store deadline passed, say: counted, not fatal
					errs.Add(1)
				case resp.GetOverallCode() != rls.RateLimitResponse_OK:
					mu.Lock()
					wrong = cmp.Or(wrong, fmt.Errorf("answer %s, want OK", resp.GetOverallCode()))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if wrong != nil {
		b.Fatal(wrong)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	at := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / float64(time.Microsecond) }
	b.ReportMetric(float64(int64(b.N)-errs.Load())/elapsed.Seconds(), "decisions/s")
	b.ReportMetric(float64(errs.Load())/float64(b.N), "errors/op")
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// cpuTime is the CPU time process pid has used, user and system, all its
// threads: fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a
// second on Linux: a run of several seconds is measured to about 1 %).
func cpuTime(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after it start past the last ')'.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("/proc/%d/stat: utime %q, stime %q", pid, f[11], f[12])
	}
	const ticksPerSecond = 100 // sysconf(_SC_CLK_TCK) on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// startOursProcess runs this chapter's service as a process of its own, as
// the reference is (in the benchmark's process, it would share its
// scheduler with the callers and skip a process switch per call): the test
// binary again, running TestPeerBenchServe. It returns the gRPC address
// and the process id.
func startOursProcess(b *testing.B, rulesDir string) (string, int) {
	b.Helper()
	redis := redistest.StartDedicated(b)
	rules, err := filepath.Abs(rulesDir)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeerBenchServe$", "-test.timeout=0")
	cmd.Env = append(os.Environ(), "PEER_BENCH_SERVE_RULES="+rules, "PEER_BENCH_SERVE_REDIS="+redis.Addr())
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var errOut tail
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "grpc "); ok {
				addr <- a
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	b.Cleanup(func() {
		_ = stdin.Close() // the helper returns when its stdin ends
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case a := <-addr:
		return a, cmd.Process.Pid
	case <-exited:
		b.Fatalf("the service's process exited: %s", errOut.lastLine())
	case <-time.After(60 * time.Second):
		b.Fatal("the service's process did not start in 60s")
	}
	return "", 0
}

// TestPeerBenchServe is the service's process in BenchmarkBesideEnvoyRatelimit,
// and skips when run as a test. It prints its gRPC address and serves until
// its stdin ends.
func TestPeerBenchServe(t *testing.T) {
	redisAddr := os.Getenv("PEER_BENCH_SERVE_REDIS")
	if redisAddr == "" {
		t.Skip("the service's process of BenchmarkBesideEnvoyRatelimit, started by it")
	}
	s, err := Start(context.Background(), Options{
		Config:       os.Getenv("PEER_BENCH_SERVE_RULES"),
		RedisAddr:    redisAddr,
		GRPCAddr:     "127.0.0.1:0",
		FailureMode:  "closed",
		StoreTimeout: peerRedisTimeout,
		DebugAddr:    os.Getenv("PEER_BENCH_SERVE_DEBUG"), // pprof, to profile the run
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fmt.Printf("grpc %s\n", s.GRPCAddr())
	_, _ = io.Copy(io.Discard, os.Stdin)
}
