package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// drain stops both transports as a rolling restart needs: the listeners
// close at once, so new calls go to another replica, and the calls in
// flight are answered. grpc's Stop, which Close called before, cut them:
// under load two SIGTERMs failed 11 and 16 calls with "Unavailable: error
// reading from server: EOF", where envoyproxy/ratelimit, which uses
// GracefulStop, dropped none. Past the drain deadline what is left is cut,
// and the error says so.
func (srv *Server) drain() error {
	deadline := time.Now().Add(srv.limits.Drain)
	var wg sync.WaitGroup
	var grpcCut bool
	if srv.grpcSrv != nil {
		// NOT_SERVING first, while the listener still accepts: a health
		// check or watch that gets through sees the drain, not a refusal.
		srv.grpcHealth.drain()
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := make(chan struct{})
			go func() { srv.grpcSrv.GracefulStop(); close(done) }()
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			select {
			case <-done:
			case <-t.C:
				// Stop closes the connections and cancels the calls' contexts;
				// GracefulStop returns once their handlers have, which a
				// store call that honours its context does at once.
				grpcCut = true
				srv.grpcSrv.Stop()
			}
		}()
	}
	var httpErr error
	if srv.httpSrv != nil {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		httpErr = srv.httpSrv.Shutdown(ctx)
		cancel()
		if errors.Is(httpErr, context.DeadlineExceeded) {
			_ = srv.httpSrv.Close()
		}
		if errors.Is(httpErr, http.ErrServerClosed) {
			httpErr = nil
		}
	}
	wg.Wait()
	switch {
	case grpcCut || errors.Is(httpErr, context.DeadlineExceeded):
		return fmt.Errorf("drain: calls still in flight after %v were cut (gRPC cut: %t, HTTP cut: %t)",
			srv.limits.Drain, grpcCut, errors.Is(httpErr, context.DeadlineExceeded))
	case httpErr != nil:
		return httpErr
	}
	return nil
}
