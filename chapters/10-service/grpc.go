package service

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// listen opens the gRPC and HTTP listeners the options ask for.
func (s *Service) listen() error {
	if s.o.GRPCAddr != "" {
		ln, err := net.Listen("tcp", s.o.GRPCAddr)
		if err != nil {
			return err
		}
		s.grpcLn = ln
		s.grpcSrv = grpc.NewServer(grpc.MaxRecvMsgSize(MaxMessage))
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

// ShouldRateLimit is the gRPC method: a bad request is INVALID_ARGUMENT with
// the one line, a fail-closed domain without its store is UNAVAILABLE.
func (g server) ShouldRateLimit(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, error) {
	resp, err := g.s.ShouldRateLimit(ctx, req)
	if err != nil {
		return nil, grpcError(g.s, err)
	}
	return resp, nil
}

func grpcError(s *Service, err error) error {
	var br *BadRequest
	switch {
	case errors.As(err, &br):
		s.m.badRequest.WithLabelValues("grpc").Inc()
		return status.Error(codes.InvalidArgument, br.Msg)
	case errors.Is(err, ErrUnavailable):
		return status.Error(codes.Unavailable, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
