package service

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// closedWithin reads c until the server closes it and returns how long
// that took from since, and what came back.
func closedWithin(t *testing.T, c net.Conn, since time.Time) (time.Duration, string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection was still open after 20 s; got %q", b)
	}
	return time.Since(since), string(b)
}

// notBefore checks that took, counted from before the server could start
// its timer, is not shorter than the timeout: a timer never fires early.
// That the timeout and nothing else closed the connection each test shows
// otherwise (the answer it names, or every other timeout set past
// closedWithin's 20 s); how late it came is the scheduler's business, and
// only logged.
func notBefore(t *testing.T, what string, took, timeout time.Duration) {
	t.Helper()
	if took < timeout {
		t.Errorf("%s: closed after %v, before the timeout %v", what, took, timeout)
	}
	t.Logf("%s: closed after %v (timeout %v)", what, took, timeout)
}

// TestSlowBodyIsCut: a client that sends its headers and then one byte of
// its body every 50 ms is answered 408 and cut at ReadTimeout, instead of
// holding its connection for as long as it likes.
func TestSlowBodyIsCut(t *testing.T) {
	const read = 300 * time.Millisecond
	s := startWith(t, Options{Config: writeRules(t, drainRules)}, tuning{limits: server.Limits{Read: read}})
	begin := time.Now() // the server's read deadline starts after this
	c, err := net.Dial("tcp", s.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	go func() { // 200 bytes at one per 50 ms would take 10 s
		for range 199 {
			time.Sleep(50 * time.Millisecond)
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	took, got := closedWithin(t, c, begin)
	notBefore(t, "slow body", took, read)
	if !strings.HasPrefix(got, "HTTP/1.1 408 ") || !strings.Contains(got, "body: not received in full within 300ms") {
		t.Errorf("slow body answered %q, want 408 naming the timeout", got)
	}
}

// TestIdleConnectionIsClosed: a keep-alive connection that carries no
// further request is closed at IdleTimeout. The server's other timeouts
// are a minute, past the test's 20 s wait, so that only IdleTimeout can
// close it in time.
func TestIdleConnectionIsClosed(t *testing.T) {
	const idle = 300 * time.Millisecond
	s := startWith(t, Options{Config: writeRules(t, drainRules)},
		tuning{limits: server.Limits{Idle: idle, Read: time.Minute, ReadHeader: time.Minute, Write: time.Minute}})
	c, err := net.Dial("tcp", s.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	begin := time.Now() // the idle timer starts after the answer, so after this
	if _, err := io.WriteString(c, "GET /healthcheck HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "OK" || resp.Close {
		t.Fatalf("healthcheck: %d %q (close %t), want 200 OK on a kept-alive connection", resp.StatusCode, body, resp.Close)
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if n, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: read %q, %v; want EOF within 20 s", n, err)
	}
	notBefore(t, "idle keep-alive", time.Since(begin), idle)
}

// TestHeaderCap: headers past server.MaxHeaderBytes are refused with 431.
func TestHeaderCap(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules)})
	req, _ := http.NewRequest("GET", "http://"+s.HTTPAddr()+"/healthcheck", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 2*server.MaxHeaderBytes))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("%d KiB of headers: %d, want 431", 2*server.MaxHeaderBytes>>10, resp.StatusCode)
	}
}

// hold opens n connections to addr that send nothing.
func hold(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	var cs []net.Conn
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		cs = append(cs, c)
	}
	return cs
}

// healthy calls /healthcheck, or ShouldRateLimit over gRPC, on a fresh
// connection and reports when it is answered (nil: 200 OK, or OK OK:9).
func healthy(s *Service, transport string) <-chan error {
	done := make(chan error, 1)
	go func() {
		if transport == "http" {
			hc := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
			resp, err := hc.Get("http://" + s.HTTPAddr() + "/healthcheck")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != 200 {
					err = fmt.Errorf("healthcheck: %s", resp.Status)
				}
			}
			done <- err
			return
		}
		cc, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			done <- err
			return
		}
		defer cc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r, err := rls.NewRateLimitServiceClient(cc).ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: "d",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "x")}})
		if err == nil && summary(r) != "OK OK:9" {
			err = fmt.Errorf("ShouldRateLimit: %s, want OK OK:9", summary(r))
		}
		done <- err
	}()
	return done
}

// TestConnectionCap: with the cap at 2, two connections that send nothing
// fill a listener; a third client waits (it is not refused, and the
// service does not fail) and is answered as soon as a slot frees, whether
// a held connection is closed by its client or cut by the service's own
// handshake timeout. The open-connection gauge never passes the cap.
func TestConnectionCap(t *testing.T) {
	for _, transport := range []string{"http", "grpc"} {
		for _, freedBy := range []string{"client", "timeout"} {
			t.Run(transport+"/"+freedBy, func(t *testing.T) {
				l := server.Limits{MaxConns: 2, ReadHeader: 30 * time.Second}
				if freedBy == "timeout" {
					l.ReadHeader = 300 * time.Millisecond
				}
				s := startWith(t, Options{Config: writeRules(t, drainRules)}, tuning{limits: l})
				addr := map[string]string{"http": s.HTTPAddr(), "grpc": s.GRPCAddr()}[transport]
				open := func() float64 { return transportValue(t, s, "ratelimit_open_connections", transport) }
				held := hold(t, addr, 2)
				poll(t, 20*time.Second, func() bool { return open() == 2 })
				begin := time.Now()
				done := healthy(s, transport)
				if freedBy == "client" {
					select {
					case err := <-done:
						t.Fatalf("answered (%v) with every slot held", err)
					case <-time.After(300 * time.Millisecond):
					}
					if n := open(); n != 2 {
						t.Errorf("open connections %v, want the cap 2", n)
					}
					held[0].Close()
				}
				if err := await(t, done, 20*time.Second, "not answered after a slot freed"); err != nil {
					t.Fatalf("once a slot freed: %v", err)
				}
				if n := open(); n > 2 {
					t.Errorf("open connections %v, past the cap 2", n)
				}
				t.Logf("answered %v after it connected", time.Since(begin))
			})
		}
	}
}
