package server

import (
	"net"
	"net/http"
	"time"
)

// The admin listener (Config.AdminAddr, `serve --admin`, 127.0.0.1:8082
// by default) serves GET /healthcheck and GET /metrics and nothing else:
// the port for liveness and readiness probes and for Prometheus. It has a
// connection cap and timeouts of its own, short ones, so that a flood on
// the data ports, which can hold every slot there and wait in their
// accept queues, never delays a probe: 20,000 idle keep-alive clients on
// the HTTP port made /healthcheck there time out 4 times in 4 over 80 s.
// The HTTP port keeps serving both paths too, for probes and scrapers
// configured before; they share its slots with every client.
//
// gRPC health stays on the gRPC port, where Envoy and grpc-health-probe
// ask it. pprof stays on the debug listener (debug.go): this one may have
// to listen where the kubelet and Prometheus reach it, and profiles must
// not.
const (
	// AdminMaxConns caps the admin listener's open connections.
	AdminMaxConns = 64
	// AdminMaxConnsPerClient caps one client address's share of them.
	AdminMaxConnsPerClient = 16
	// AdminReadTimeout is how long a client has to send a whole request
	// (headers; these requests have no body).
	AdminReadTimeout = 2 * time.Second
	// AdminWriteTimeout bounds writing an answer, /metrics included.
	AdminWriteTimeout = 10 * time.Second
	// AdminIdleTimeout closes a keep-alive connection idle this long; a
	// probe or a scrape every few seconds reconnects, which costs little.
	AdminIdleTimeout = 5 * time.Second
)

// adminHandler is the service's /healthcheck and /metrics, as the HTTP
// listener serves them, and 404 for everything else.
func (srv *Server) adminHandler() http.Handler {
	h := srv.handler()
	mux := http.NewServeMux()
	mux.Handle("/healthcheck", h)
	mux.Handle("/metrics", h)
	return mux
}

// serveAdmin serves the admin listener.
func (srv *Server) serveAdmin(ln net.Listener) error {
	srv.adminLn = ln
	srv.adminSrv = &http.Server{Handler: srv.adminHandler(), ReadHeaderTimeout: AdminReadTimeout, ReadTimeout: AdminReadTimeout,
		WriteTimeout: AdminWriteTimeout, IdleTimeout: AdminIdleTimeout, MaxHeaderBytes: srv.limits.MaxHeaderBytes}
	srv.run(ln, "admin", srv.limits.AdminConns, AdminMaxConnsPerClient, srv.adminSrv.Serve)
	return nil
}
