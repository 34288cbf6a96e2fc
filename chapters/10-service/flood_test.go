package service

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// floodConn is a connection that did its handshake and then sends
// nothing; closed is closed once the server closes it.
type floodConn struct {
	net.Conn
	closed chan struct{}
}

// flood opens n idle connections to addr from 127.0.0.1, as the issue's
// clients did: over gRPC, the HTTP/2 preface and SETTINGS and nothing
// more; over HTTP, one GET /healthcheck kept alive. A connection the
// service refuses is closed at once, which the client may see as an error
// while it writes: flood ignores those.
func flood(t *testing.T, transport, addr string, n int) []floodConn {
	t.Helper()
	var cs []floodConn
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if transport == "grpc" {
			if _, err := io.WriteString(c, http2.ClientPreface); err == nil {
				_ = http2.NewFramer(c, c).WriteSettings()
			}
		} else {
			_, _ = io.WriteString(c, "GET /healthcheck HTTP/1.1\r\nHost: x\r\n\r\n")
		}
		fc := floodConn{c, make(chan struct{})}
		go func() { _, _ = io.Copy(io.Discard, c); close(fc.closed) }() // the answers, then EOF
		cs = append(cs, fc)
	}
	return cs
}

// fromAddr dials from the loopback address ip (Linux routes all of
// 127.0.0.0/8 to lo), a client other than the flood's 127.0.0.1.
func fromAddr(ip string) func(context.Context, string, string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return d.DialContext
}

// served asks the service over transport, on a fresh connection from ip:
// GET path over HTTP at addr, or ShouldRateLimit over gRPC. It returns
// how long the answer took, or an error if there was none within 30 s.
func served(transport, addr, ip, path string) (time.Duration, error) {
	begin := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if transport == "grpc" {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithContextDialer(func(ctx context.Context, a string) (net.Conn, error) { return fromAddr(ip)(ctx, "tcp", a) }))
		if err != nil {
			return 0, err
		}
		defer cc.Close()
		r, err := rls.NewRateLimitServiceClient(cc).ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: "d",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "x")}})
		if err == nil && r.OverallCode != rls.RateLimitResponse_OK {
			err = fmt.Errorf("ShouldRateLimit: %s, want OK", summary(r))
		}
		return time.Since(begin), err
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: fromAddr(ip)}}
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+path, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return 0, fmt.Errorf("GET %s: %s %q", path, resp.Status, body)
	}
	return time.Since(begin), nil
}

// TestFloodLeavesRoomForOthers is the flood scaled down: 200 idle
// connections from 127.0.0.1 against a listener capped at 64, whose idle
// timeouts (a minute here) would free nothing during the test. The admin
// listener answers /healthcheck regardless, even when one client may fill
// the port; with the cap per client address, the flood holds its 16 places
// and no more, the rest of it is closed at once, another address is
// answered, and a further connection from the flood's address is refused.
//
// The answers must come well before the idle timeout: 10 s is the bound,
// for a busy machine, and each time taken is logged. Without the cap per
// address the other client waited for the minute (gRPC and HTTP alike),
// and without the admin listener there was nowhere else to ask.
func TestFloodLeavesRoomForOthers(t *testing.T) {
	if ln, err := net.Listen("tcp", "127.0.0.2:0"); err != nil {
		t.Skipf("127.0.0.2 is not an address of this host (Linux routes all of 127.0.0.0/8 to lo): %v", err)
	} else {
		ln.Close()
	}
	const capConns, flooders = 64, 200
	for _, tc := range []struct {
		transport string
		perClient int
	}{
		{"grpc", 16}, {"http", 16},
		{"http", capConns}, // one address may fill the port: only the admin listener is left
	} {
		t.Run(fmt.Sprintf("%s/per-client-%d", tc.transport, tc.perClient), func(t *testing.T) {
			l := server.Limits{MaxConns: capConns, PerClient: tc.perClient, ReadHeader: time.Minute,
				Read: time.Minute, Idle: time.Minute, GRPCIdle: time.Minute}
			s := startWith(t, Options{Config: writeRules(t, drainRules), AdminAddr: "127.0.0.1:0"}, tuning{limits: l})
			addr := map[string]string{"http": s.HTTPAddr(), "grpc": s.GRPCAddr()}[tc.transport]
			open := func() float64 { return transportValue(t, s, "ratelimit_open_connections", tc.transport) }
			refused := func() float64 { return transportValue(t, s, "ratelimit_refused_connections_total", tc.transport) }
			flood(t, tc.transport, addr, flooders)
			wantRefused := float64(flooders - tc.perClient)
			if tc.perClient == capConns {
				wantRefused = 0 // the rest wait in the kernel's queue
			}
			poll(t, 20*time.Second, func() bool {
				return open() == float64(tc.perClient) && refused() == wantRefused
			})

			took, err := served("http", s.AdminAddr(), "127.0.0.1", "/healthcheck")
			if err != nil || took > 10*time.Second {
				t.Fatalf("admin /healthcheck under the flood: %v after %v", err, took)
			}
			t.Logf("admin /healthcheck answered in %v", took)
			if tc.perClient == capConns {
				return
			}
			took, err = served(tc.transport, addr, "127.0.0.2", "/healthcheck")
			if err != nil || took > 10*time.Second {
				t.Fatalf("a client at 127.0.0.2 under the flood: %v after %v", err, took)
			}
			t.Logf("%s from 127.0.0.2 answered in %v", tc.transport, took)
			again := flood(t, tc.transport, addr, 1)[0]
			await(t, again.closed, 20*time.Second, "a further connection from the flood's address was not closed")
			if got := refused(); got != wantRefused+1 {
				t.Errorf("refused %v connections, want %v", got, wantRefused+1)
			}
		})
	}
}

// TestIdleGRPCConnectionsLetGo: 64 idle HTTP/2 connections hold every slot
// of the gRPC port; with GRPCMaxConnectionIdle at 300 ms here, the service
// sends each GOAWAY and closes it (grpc-go waits up to 5 s for the ping it
// sends with the GOAWAY), the slots are free again, and a new client is
// answered. The bound of the poll is generous; the time is logged.
func TestIdleGRPCConnectionsLetGo(t *testing.T) {
	const capConns = 64
	s := startWith(t, Options{Config: writeRules(t, drainRules)},
		tuning{limits: server.Limits{MaxConns: capConns, PerClient: capConns, GRPCIdle: 300 * time.Millisecond}})
	open := func() float64 { return transportValue(t, s, "ratelimit_open_connections", "grpc") }
	conns := flood(t, "grpc", s.GRPCAddr(), capConns)
	begin := time.Now()
	for i, c := range conns {
		select {
		case <-c.closed:
		case <-time.After(30*time.Second - time.Since(begin)):
			t.Fatalf("idle connection %d still open after 30 s (%v open)", i, open())
		}
	}
	t.Logf("all %d idle connections closed within %v", capConns, time.Since(begin))
	poll(t, 20*time.Second, func() bool { return open() == 0 })
	if _, err := served("grpc", s.GRPCAddr(), "127.0.0.1", ""); err != nil {
		t.Fatalf("after the idle connections closed: %v", err)
	}
}

// TestGRPCConnectionAge: a connection kept busy for ever, here by a health
// Watch that never ends on its own, is not idle, so only
// GRPCMaxConnectionAge frees its slot: GOAWAY at the age (300 ms here) and
// the connection closed after the grace (300 ms), which ends the watch
// with UNAVAILABLE. Without an age the watch held its slot for as long as
// its client liked.
func TestGRPCConnectionAge(t *testing.T) {
	s := startWith(t, Options{Config: writeRules(t, drainRules)},
		tuning{limits: server.Limits{GRPCAge: 300 * time.Millisecond, GRPCGrace: 300 * time.Millisecond}})
	w := watchHealth(t, s.GRPCAddr(), "")
	begin := time.Now()
	err := await(t, w.end, 30*time.Second, "the watch still held its connection after 30 s")
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("watch ended with %v, want UNAVAILABLE (the connection closed)", err)
	}
	t.Logf("watch cut after %v: %v", time.Since(begin), err)
}
