package server

import (
	"net"
	"net/http"
	"net/http/pprof"

	"github.com/ratelimit-course/ratelimit/core"
)

// The debug listener (Config.DebugAddr, `serve --debug`) serves Go's
// profiler at /debug/pprof/: goroutines, heap, CPU profiles and execution
// traces, enough to tell a leak from a load. It is off by default and only
// ever on a loopback address: a profile holds the process's stacks and
// command line, a CPU profile or trace costs CPU for as long as the
// client asks, and neither belongs on an address other hosts can reach.
// Reach it from elsewhere with `kubectl port-forward` or an SSH tunnel.

// CheckDebugAddr accepts host:port with a loopback host: 127.0.0.0/8, ::1
// or localhost. An empty host (":6060") listens on every interface and is
// refused like any other.
func CheckDebugAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err == nil {
		if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return core.BadParam("debug", addr,
		"a loopback host:port such as 127.0.0.1:6060 or [::1]:6060 (pprof must not be reachable from other hosts)")
}

// debugHandler is net/http/pprof's handlers on a mux of their own (the
// package also registers them on http.DefaultServeMux, which nothing here
// serves).
func debugHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // and the named profiles: goroutine, heap, allocs, …
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// DebugMaxConns caps the debug listener's connections: an operator's
// profiles need a few, and without a cap a flood from this host could use
// up the process's file descriptors through this port.
const DebugMaxConns = 16

// serveDebug serves the debug listener, on loopback only (listen checked
// the address given, with CheckDebugAddr). It has no write timeout, since a
// CPU profile answers after the seconds it was asked for (30 by default).
func (srv *Server) serveDebug(ln net.Listener, given string) error {
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() { // "localhost" resolved elsewhere
		return core.BadParam("debug", given, "an address that listens on loopback; it listened on "+ln.Addr().String())
	}
	srv.debugLn = ln
	srv.debugSrv = &http.Server{Handler: debugHandler(), ReadHeaderTimeout: srv.limits.ReadHeader, IdleTimeout: srv.limits.Idle}
	srv.run(ln, "debug", DebugMaxConns, DebugMaxConns, srv.debugSrv.Serve)
	return nil
}
