package service

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// number is a series' value in /metrics, failing the test if it is absent.
func number(t *testing.T, s *Service, series string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(metric(t, s, series), 64)
	if err != nil {
		t.Fatalf("%s: %v", series, err)
	}
	return v
}

// TestGoAndProcessMetrics: /metrics carries the Go runtime's and the
// process's series, and they follow the process: 500 goroutines parked
// show in go_goroutines and go away when released, 40 files held open
// show in process_open_fds, which matches /proc/self/fd.
func TestGoAndProcessMetrics(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process collector reads /proc")
	}
	s := start(t, Options{Config: writeRules(t, drainRules)})
	if got, want := metric(t, s, fmt.Sprintf(`go_info{version=%q}`, runtime.Version())), "1"; got != want {
		t.Errorf("go_info for %s: %q, want %q", runtime.Version(), got, want)
	}
	if rss := number(t, s, "process_resident_memory_bytes"); rss < 4<<20 || rss > 4<<30 {
		t.Errorf("process_resident_memory_bytes %.0f, want between 4 MiB and 4 GiB", rss)
	}
	if st := number(t, s, "process_start_time_seconds"); st > float64(time.Now().Unix())+1 || st < float64(time.Now().Add(-24*time.Hour).Unix()) {
		t.Errorf("process_start_time_seconds %.0f: not in the last day", st)
	}
	if number(t, s, "go_memstats_heap_alloc_bytes") <= 0 || number(t, s, "process_cpu_seconds_total") <= 0 {
		t.Error("go_memstats_heap_alloc_bytes or process_cpu_seconds_total is 0")
	}

	// Goroutines: a leak of 500 shows, and so does its end. Other tests of
	// the package may run goroutines meanwhile; the margins take 100.
	before := number(t, s, "go_goroutines")
	release := make(chan struct{})
	for range 500 {
		go func() { <-release }()
	}
	if held := number(t, s, "go_goroutines"); held < before+400 {
		t.Errorf("go_goroutines %.0f with 500 more parked, was %.0f", held, before)
	}
	close(release)
	poll(t, 20*time.Second, func() bool { return number(t, s, "go_goroutines") < before+100 })

	// Descriptors: process_open_fds counts /proc/self/fd.
	fds := func() int {
		es, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	base := number(t, s, "process_open_fds")
	for range 40 {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
	}
	got, proc := number(t, s, "process_open_fds"), fds()
	if got < base+30 || got > float64(proc)+10 || got < float64(proc)-10 {
		t.Errorf("process_open_fds %.0f with 40 more files open (was %.0f), /proc/self/fd has %d", got, base, proc)
	}
	if limit := number(t, s, "process_max_fds"); limit < got {
		t.Errorf("process_max_fds %.0f below the %.0f open", limit, got)
	}
}

// TestDebugPprof: with a loopback --debug address the profiler answers
// there, with this process's goroutines; the service's HTTP address does
// not serve it, and without --debug there is no debug listener.
func TestDebugPprof(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules), DebugAddr: "127.0.0.1:0"})
	if !strings.HasPrefix(s.DebugAddr(), "127.0.0.1:") || s.DebugAddr() == s.HTTPAddr() {
		t.Fatalf("debug address %q (HTTP %q), want a 127.0.0.1 port of its own", s.DebugAddr(), s.HTTPAddr())
	}
	code, body := getAddr(t, s.DebugAddr(), "/debug/pprof/")
	if code != 200 || !strings.Contains(body, "goroutine") || !strings.Contains(body, "heap") {
		t.Errorf("/debug/pprof/: %d, %.200q; want 200 and the profiles' index", code, body)
	}
	// The goroutine dump shows the service's own: its gRPC server.
	code, body = getAddr(t, s.DebugAddr(), "/debug/pprof/goroutine?debug=1")
	var n int
	if _, err := fmt.Sscanf(body, "goroutine profile: total %d", &n); code != 200 || err != nil || n < 3 ||
		!strings.Contains(body, "google.golang.org/grpc.(*Server).Serve") {
		t.Errorf("goroutine profile: %d, total %d (%v), want 200, at least 3 and grpc's Serve; %.300q", code, n, err, body)
	}
	code, body = getAddr(t, s.DebugAddr(), "/debug/pprof/heap?debug=1")
	if code != 200 || !strings.HasPrefix(body, "heap profile: ") {
		t.Errorf("heap profile: %d, %.100q", code, body)
	}
	if code, _ := get(t, s, "/debug/pprof/"); code != 404 {
		t.Errorf("the service's HTTP address answers /debug/pprof/ with %d, want 404", code)
	}
	if d := start(t, Options{Config: writeRules(t, drainRules)}).DebugAddr(); d != "" {
		t.Errorf("no --debug, yet a debug listener on %q", d)
	}
}

// TestDebugRefusesNonLoopback: an address other hosts could reach is
// refused, by Start and by `serve` (exit 2, one line), before anything
// listens; loopback addresses in each spelling are taken.
func TestDebugRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:6060", ":6060", "[::]:6060", "192.0.2.1:6060", "example.com:6060", "6060"} {
		s, err := Start(context.Background(), Options{Config: writeRules(t, drainRules), DebugAddr: addr})
		want := "invalid debug " + addr + ": accepted a loopback host:port such as 127.0.0.1:6060 or [::1]:6060 (pprof must not be reachable from other hosts)"
		if err == nil || err.Error() != want {
			t.Errorf("--debug %s: %v, want %q", addr, err, want)
		}
		if s != nil {
			_ = s.Close()
		}
	}
	var out, errOut syncBuffer
	code := run(context.Background(), []string{"--debug", "0.0.0.0:0", "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0"}, &out, &errOut, nil)
	if code != 2 || errOut.String() != "serve: invalid debug 0.0.0.0:0: accepted a loopback host:port such as 127.0.0.1:6060 or [::1]:6060 (pprof must not be reachable from other hosts)\n" || strings.Contains(out.String(), "serving") {
		t.Errorf("serve --debug 0.0.0.0:0: exit %d, stdout %q, stderr %q; want 2 and the one line", code, out.String(), errOut.String())
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		s, err := Start(context.Background(), Options{Config: writeRules(t, drainRules), DebugAddr: addr})
		if err != nil {
			if addr == "[::1]:0" && strings.Contains(err.Error(), "address") {
				t.Logf("no IPv6 loopback here: %v", err)
				continue
			}
			t.Errorf("--debug %s: %v", addr, err)
			continue
		}
		if code, _ := getAddr(t, s.DebugAddr(), "/debug/pprof/cmdline"); code != 200 {
			t.Errorf("--debug %s: cmdline %d", addr, code)
		}
		_ = s.Close()
	}
}
