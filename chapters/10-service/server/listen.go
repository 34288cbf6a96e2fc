package server

import (
	"net"
	"net/http"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// What a client may hold of the service, and for how long. Without these a
// client that sends its headers and then one byte of body a minute, or
// idles on keep-alive, held a connection and a goroutine for ever, and
// 21,000 such connections used up the process's file descriptors: then
// /healthcheck, gRPC and the rules watcher failed together. With them a
// slow client is cut, an idle one is let go in seconds, one client address
// holds a share of a listener and not all of it, and a flood of
// connections waits in the kernel's accept queue while the service keeps
// answering the ones it holds. The admin listener (admin.go) has limits of
// its own, so that no flood on these ports reaches it.
const (
	// MaxMessage is the largest request, gRPC message or HTTP body.
	MaxMessage = 4 << 20
	// ReadHeaderTimeout is how long an HTTP client has to send a request's
	// headers, and a gRPC client to finish the HTTP/2 handshake.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout is how long an HTTP client has to send a whole request,
	// body included, from its first byte: a body sent a byte at a time is
	// cut then. 4 MiB (MaxMessage) in 10 s is 400 KiB/s.
	ReadTimeout = 10 * time.Second
	// WriteTimeout bounds an HTTP request from the end of its headers to the
	// end of its answer: the decision and a client slow to read it.
	WriteTimeout = 10 * time.Second
	// IdleTimeout closes an HTTP keep-alive connection that carries no
	// request for this long. It was 60 s, and 20,000 idle keep-alive
	// clients kept /healthcheck on the HTTP port from being answered for
	// 80 s; Node.js closes them after 5 s, and a client reconnects in one
	// round trip.
	IdleTimeout = 10 * time.Second
	// MaxHeaderBytes caps an HTTP request's header block (net/http's
	// default is 1 MiB); past it the answer is 431.
	MaxHeaderBytes = 64 << 10
	// MaxConns caps the open connections of each listener, HTTP and gRPC.
	// Past it a new connection is not accepted until one closes: it waits
	// in the kernel's accept queue, costing the process no file descriptor.
	// Two listeners at the cap hold 8,192 descriptors, under the 20,000 of
	// the course's machine (Go raises the soft limit to the hard one).
	MaxConns = 4096
	// MaxConnsPerClient caps the connections one client address holds on
	// each listener (connlimit.go): past it a new one is closed at once,
	// so at least 16 addresses are needed to fill MaxConns. An Envoy holds
	// about one connection per worker thread; clients behind one NAT share
	// an address and need `--max-conns-per-client` raised.
	MaxConnsPerClient = 256
	// MaxStreams caps the calls in flight on one gRPC connection.
	MaxStreams = 1024
	// GRPCMaxConnectionIdle sends GOAWAY to a gRPC connection that has had
	// no call for this long; grpc-go closes it at most 5 s later, and a
	// proxy reconnects when it next needs one. It was 5 minutes, and 4,500
	// idle HTTP/2 connections held every slot of the gRPC port.
	GRPCMaxConnectionIdle = 10 * time.Second
	// GRPCMaxConnectionAge sends GOAWAY to any gRPC connection this old
	// (grpc-go adds ±10 % of jitter), busy or not: a connection kept busy
	// by a stream that never ends gives its slot back too, and clients
	// spread over replicas added since they connected.
	GRPCMaxConnectionAge = 2 * time.Minute
	// GRPCMaxConnectionAgeGrace is how long the calls on a connection past
	// its age may run before it is closed (a decision takes milliseconds;
	// a health Watch is cut and reopened by its client).
	GRPCMaxConnectionAgeGrace = 10 * time.Second
	// GRPCKeepaliveTime is how long a gRPC connection may be silent before
	// the service pings it; an unanswered ping closes it 20 s later, which
	// frees the connections of peers that vanished with calls in flight.
	GRPCKeepaliveTime = time.Minute
	// GRPCMinPingInterval is the most often a client may ping: a proxy that
	// pings more often is sent GOAWAY (grpc-go's default is 5 minutes,
	// which would cut an Envoy configured to ping every 30 s).
	GRPCMinPingInterval = 10 * time.Second
)

// DrainTimeout is how long Stop (and SIGTERM in `serve`) waits for the
// calls in flight to be answered before it cuts them.
const DrainTimeout = 10 * time.Second

// Limits are the values above as one server uses them: tests set short
// ones, the service sets PerClient from --max-conns-per-client, and a zero
// field takes its constant.
type Limits struct {
	ReadHeader, Read, Write, Idle   time.Duration
	MaxHeaderBytes                  int
	MaxConns, PerClient, AdminConns int
	GRPCIdle, GRPCAge, GRPCGrace    time.Duration
	Drain                           time.Duration
}

// WithDefaults is l with each zero field set to its constant: the limits
// in force.
func (l Limits) WithDefaults() Limits {
	or := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	or(&l.ReadHeader, ReadHeaderTimeout)
	or(&l.Read, ReadTimeout)
	or(&l.Write, WriteTimeout)
	or(&l.Idle, IdleTimeout)
	or(&l.GRPCIdle, GRPCMaxConnectionIdle)
	or(&l.GRPCAge, GRPCMaxConnectionAge)
	or(&l.GRPCGrace, GRPCMaxConnectionAgeGrace)
	or(&l.Drain, DrainTimeout)
	orN := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	orN(&l.MaxHeaderBytes, MaxHeaderBytes)
	orN(&l.MaxConns, MaxConns)
	orN(&l.PerClient, MaxConnsPerClient)
	orN(&l.AdminConns, AdminMaxConns)
	return l
}

// listen opens the gRPC, HTTP, admin and debug listeners c asks for, and
// serves each. A debug address off loopback is refused before anything
// listens on it.
func (srv *Server) listen(c Config) error {
	if c.DebugAddr != "" {
		if err := CheckDebugAddr(c.DebugAddr); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		addr  string
		serve func(net.Listener) error
	}{{c.GRPCAddr, srv.serveGRPC}, {c.HTTPAddr, srv.serveHTTP}, {c.AdminAddr, srv.serveAdmin},
		{c.DebugAddr, func(ln net.Listener) error { return srv.serveDebug(ln, c.DebugAddr) }}} {
		if l.addr == "" {
			continue
		}
		ln, err := net.Listen("tcp", l.addr)
		if err != nil {
			return err
		}
		if err := l.serve(ln); err != nil {
			_ = ln.Close()
			return err
		}
	}
	return nil
}

// run serves ln, behind the listener's cap n and the cap per client
// address, counted in the transport's gauge and refused counter, on a
// goroutine of its own until the listener is closed.
func (srv *Server) run(ln net.Listener, transport string, n, perClient int, serve func(net.Listener) error) {
	capped := limitListener(ln, n, perClient, srv.m.conns.WithLabelValues(transport), srv.m.refused.WithLabelValues(transport))
	srv.wg.Add(1)
	go func() { defer srv.wg.Done(); _ = serve(capped) }()
}

// serveGRPC serves the gRPC listener: the rate limit service, health and
// reflection, with the keepalive limits above.
func (srv *Server) serveGRPC(ln net.Listener) error {
	l := srv.limits
	srv.grpcLn = ln
	srv.grpcSrv = grpc.NewServer(grpc.MaxRecvMsgSize(MaxMessage), grpc.ForceServerCodec(requestCodec{bad: &srv.malformed}),
		grpc.MaxConcurrentStreams(MaxStreams),
		grpc.ConnectionTimeout(l.ReadHeader),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: l.GRPCIdle,
			MaxConnectionAge: l.GRPCAge, MaxConnectionAgeGrace: l.GRPCGrace, Time: GRPCKeepaliveTime}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: GRPCMinPingInterval, PermitWithoutStream: true}))
	rls.RegisterRateLimitServiceServer(srv.grpcSrv, rlsServer{srv: srv})
	srv.grpcHealth = newGRPCHealth()
	registerOps(srv.grpcSrv, srv.grpcHealth)
	srv.run(ln, "grpc", l.MaxConns, l.PerClient, srv.grpcSrv.Serve)
	return nil
}

// serveHTTP serves the HTTP listener: POST /json, and /healthcheck and
// /metrics as on the admin listener, for the clients that ask them here.
func (srv *Server) serveHTTP(ln net.Listener) error {
	l := srv.limits
	srv.httpLn = ln
	srv.httpSrv = &http.Server{Handler: srv.handler(), ReadHeaderTimeout: l.ReadHeader, ReadTimeout: l.Read,
		WriteTimeout: l.Write, IdleTimeout: l.Idle, MaxHeaderBytes: l.MaxHeaderBytes}
	srv.run(ln, "http", l.MaxConns, l.PerClient, srv.httpSrv.Serve)
	return nil
}
