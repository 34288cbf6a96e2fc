package server

import (
	"net"
	"net/netip"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/net/netutil"
)

// limitListener caps a listener twice. Each client address holds at most
// perClient connections: past that, a new one from the same address is
// accepted and closed at once, and counted in refused. The listener holds
// at most n connections (golang.org/x/net/netutil's LimitListener): past
// that, Accept waits for one to close before it takes the next from the
// kernel's queue. A flood then waits outside the process, holding none of
// its file descriptors, and the connections already accepted keep being
// served; the idle and read timeouts free the slots that slow clients
// hold. Without the cap per address, one client took every slot: 4,500
// idle HTTP/2 connections from one host left grpc-health-probe unable to
// connect at all. The gauge open counts the connections open.
func limitListener(ln net.Listener, n, perClient int, open prometheus.Gauge, refused prometheus.Counter) net.Listener {
	pc := &perClientListener{Listener: ln, max: perClient, refused: refused, open: map[netip.Addr]int{}}
	return counted{Listener: netutil.LimitListener(pc, n), open: open}
}

// perClientListener refuses a connection whose address already holds max.
type perClientListener struct {
	net.Listener
	max     int
	refused prometheus.Counter

	mu   sync.Mutex
	open map[netip.Addr]int // connections open per client address
}

func (l *perClientListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		a := clientAddr(c)
		l.mu.Lock()
		full := l.open[a] >= l.max
		if !full {
			l.open[a]++
		}
		l.mu.Unlock()
		if !full {
			return &clientConn{Conn: c, l: l, addr: a}, nil
		}
		l.refused.Inc()
		_ = c.Close()
	}
}

// release gives a closed connection's place back to its address.
func (l *perClientListener) release(a netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[a]--; l.open[a] <= 0 {
		delete(l.open, a)
	}
}

// clientAddr is the connection's remote IP, an IPv4 address mapped into
// IPv6 unmapped, so that one host has one count whichever way it came.
// Connections not over IP share the zero address.
func clientAddr(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// clientConn gives its address's place back when it is closed, once.
type clientConn struct {
	net.Conn
	once sync.Once
	l    *perClientListener
	addr netip.Addr
}

func (c *clientConn) Close() error {
	c.once.Do(func() { c.l.release(c.addr) })
	return c.Conn.Close()
}

// counted keeps open at the number of its connections not yet closed.
type counted struct {
	net.Listener
	open prometheus.Gauge
}

func (l counted) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.open.Inc()
	return &countedConn{Conn: c, open: l.open}, nil
}

// countedConn lowers the gauge when it is closed, once, and before it
// closes the connection underneath: that close frees the listener's slot,
// and the gauge must never count the next connection beside this one.
type countedConn struct {
	net.Conn
	once sync.Once
	open prometheus.Gauge
}

func (c *countedConn) Close() error {
	c.once.Do(c.open.Dec)
	return c.Conn.Close()
}
