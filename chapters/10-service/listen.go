package service

import (
	"net"
	"net/http"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
)

// DrainTimeout is how long Close (and SIGTERM in `serve`) waits for the
// calls in flight to be answered before it cuts them.
const DrainTimeout = 10 * time.Second

// serverLimits are the transports' limits as one service uses them; tests
// set short ones through Options.limits, a zero field takes its constant.
type serverLimits struct {
	drain time.Duration
}

func (l serverLimits) withDefaults() serverLimits {
	if l.drain == 0 {
		l.drain = DrainTimeout
	}
	return l
}

// listen opens the gRPC and HTTP listeners the options ask for.
func (s *Service) listen() error {
	s.o.limits = s.o.limits.withDefaults()
	if s.o.GRPCAddr != "" {
		ln, err := net.Listen("tcp", s.o.GRPCAddr)
		if err != nil {
			return err
		}
		s.grpcLn = ln
		s.grpcSrv = grpc.NewServer(grpc.MaxRecvMsgSize(MaxMessage), grpc.ForceServerCodec(requestCodec{bad: &s.malformed}))
		rls.RegisterRateLimitServiceServer(s.grpcSrv, server{s: s})
		s.wg.Add(1)
		go func() { defer s.wg.Done(); _ = s.grpcSrv.Serve(ln) }()
	}
	if s.o.HTTPAddr != "" {
		ln, err := net.Listen("tcp", s.o.HTTPAddr)
		if err != nil {
			return err
		}
		s.httpLn = ln
		s.httpSrv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second}
		s.wg.Add(1)
		go func() { defer s.wg.Done(); _ = s.httpSrv.Serve(ln) }()
	}
	return nil
}
