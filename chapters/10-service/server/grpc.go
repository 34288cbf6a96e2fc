package server

import (
	"context"
	"errors"
	"fmt"
	"sync"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// ShouldRateLimit is the gRPC method: a bad request is INVALID_ARGUMENT with
// the one line, a fail-closed domain without its store is UNAVAILABLE.
func (g rlsServer) ShouldRateLimit(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, error) {
	if err, ok := g.srv.malformed.LoadAndDelete(req); ok {
		g.srv.m.badRequest.WithLabelValues("grpc").Inc()
		return nil, status.Error(codes.InvalidArgument, clientLine("protobuf: "+err.(error).Error()))
	}
	resp, err := g.srv.svc.ShouldRateLimit(ctx, req)
	if err != nil {
		return nil, g.srv.grpcError(err)
	}
	return resp, nil
}

// requestCodec is gRPC's protobuf codec, except that a RateLimitRequest
// that does not decode is handed to the method empty, with its error kept
// aside, instead of being refused by grpc-go as INTERNAL: the method then
// answers INVALID_ARGUMENT with the decoder's words, as it does for every
// other bad request.
type requestCodec struct{ bad *sync.Map }

func (requestCodec) Name() string { return "proto" }

func (requestCodec) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("grpc codec: %T is not a protobuf message", v)
	}
	return proto.Marshal(m)
}

func (c requestCodec) Unmarshal(data []byte, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return fmt.Errorf("grpc codec: %T is not a protobuf message", v)
	}
	err := proto.Unmarshal(data, m)
	if req, isReq := v.(*rls.RateLimitRequest); err != nil && isReq {
		req.Reset()
		c.bad.Store(req, err)
		return nil
	}
	return err
}

// grpcError maps a decision's error to its gRPC status, with the message
// escaped (clientLine): it may quote what the client sent.
func (srv *Server) grpcError(err error) error {
	var br *BadRequest
	switch {
	case errors.As(err, &br):
		srv.m.badRequest.WithLabelValues("grpc").Inc()
		return status.Error(codes.InvalidArgument, clientLine(br.Msg))
	case errors.Is(err, distributed.ErrUnavailable):
		return status.Error(codes.Unavailable, clientLine(err.Error()))
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, clientLine(err.Error()))
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, clientLine(err.Error()))
	}
	return status.Error(codes.Internal, clientLine(err.Error()))
}
