package service

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
// slow client is cut and a flood of connections waits in the kernel's
// accept queue while the service keeps answering the ones it holds.
const (
	// ReadHeaderTimeout is how long an HTTP client has to send a request's headers.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout is how long an HTTP client has to send a whole request,
	// body included, from its first byte: a body sent a byte at a time is
	// cut then. 4 MiB (MaxMessage) in 10 s is 400 KiB/s.
	ReadTimeout = 10 * time.Second
	// WriteTimeout bounds an HTTP request from the end of its headers to the
	// end of its answer: the decision and a client slow to read it.
	WriteTimeout = 10 * time.Second
	// IdleTimeout closes an HTTP keep-alive connection that carries no
	// request for this long.
	IdleTimeout = 60 * time.Second
	// MaxHeaderBytes caps an HTTP request's header block (net/http's
	// default is 1 MiB); past it the answer is 431.
	MaxHeaderBytes = 64 << 10
	// MaxConns caps the open connections of each listener, HTTP and gRPC.
	// Past it a new connection is not accepted until one closes: it waits
	// in the kernel's accept queue, costing the process no file descriptor.
	// Two listeners at the cap hold 8,192 descriptors, under the 20,000 of
	// the course's machine (Go raises the soft limit to the hard one).
	MaxConns = 4096
	// MaxStreams caps the calls in flight on one gRPC connection.
	MaxStreams = 1024
	// GRPCMaxConnectionIdle sends GOAWAY to a gRPC connection that has had
	// no call for this long; a proxy reconnects when it next needs one.
	GRPCMaxConnectionIdle = 5 * time.Minute
	// GRPCKeepaliveTime is how long a gRPC connection may be silent before
	// the service pings it; an unanswered ping closes it 20 s later, which
	// frees the connections of peers that vanished.
	GRPCKeepaliveTime = time.Minute
	// GRPCMinPingInterval is the most often a client may ping: a proxy that
	// pings more often is sent GOAWAY (grpc-go's default is 5 minutes,
	// which would cut an Envoy configured to ping every 30 s).
	GRPCMinPingInterval = 10 * time.Second
)

// DrainTimeout is how long Close (and SIGTERM in `serve`) waits for the
// calls in flight to be answered before it cuts them.
const DrainTimeout = 10 * time.Second

// serverLimits are the values above as one service uses them; tests set
// short ones through Options.limits, a zero field takes its constant.
type serverLimits struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes, maxConns      int
	grpcIdle, drain               time.Duration
}

func (l serverLimits) withDefaults() serverLimits {
	or := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	or(&l.readHeader, ReadHeaderTimeout)
	or(&l.read, ReadTimeout)
	or(&l.write, WriteTimeout)
	or(&l.idle, IdleTimeout)
	or(&l.grpcIdle, GRPCMaxConnectionIdle)
	or(&l.drain, DrainTimeout)
	if l.maxHeaderBytes == 0 {
		l.maxHeaderBytes = MaxHeaderBytes
	}
	if l.maxConns == 0 {
		l.maxConns = MaxConns
	}
	return l
}

// listen opens the gRPC and HTTP listeners the options ask for, each behind
// the connection cap, and the debug listener (debug.go).
func (srv *server) listen() error {
	s, l := srv.s, srv.limits
	if s.o.GRPCAddr != "" {
		ln, err := net.Listen("tcp", s.o.GRPCAddr)
		if err != nil {
			return err
		}
		srv.grpcLn = ln
		srv.grpcSrv = grpc.NewServer(grpc.MaxRecvMsgSize(MaxMessage), grpc.ForceServerCodec(requestCodec{bad: &srv.malformed}),
			grpc.MaxConcurrentStreams(MaxStreams),
			grpc.ConnectionTimeout(l.readHeader),
			grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: l.grpcIdle, Time: GRPCKeepaliveTime}),
			grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: GRPCMinPingInterval, PermitWithoutStream: true}))
		rls.RegisterRateLimitServiceServer(srv.grpcSrv, rlsServer{srv: srv})
		srv.grpcHealth = newGRPCHealth()
		registerOps(srv.grpcSrv, srv.grpcHealth)
		capped := limitListener(ln, l.maxConns, s.m.conns.WithLabelValues("grpc"))
		srv.wg.Add(1)
		go func() { defer srv.wg.Done(); _ = srv.grpcSrv.Serve(capped) }()
	}
	if s.o.HTTPAddr != "" {
		ln, err := net.Listen("tcp", s.o.HTTPAddr)
		if err != nil {
			return err
		}
		srv.httpLn = ln
		srv.httpSrv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: l.readHeader, ReadTimeout: l.read,
			WriteTimeout: l.write, IdleTimeout: l.idle, MaxHeaderBytes: l.maxHeaderBytes}
		capped := limitListener(ln, l.maxConns, s.m.conns.WithLabelValues("http"))
		srv.wg.Add(1)
		go func() { defer srv.wg.Done(); _ = srv.httpSrv.Serve(capped) }()
	}
	return srv.listenDebug()
}
