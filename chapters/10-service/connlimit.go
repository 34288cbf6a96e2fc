package service

import (
	"net"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/net/netutil"
)

// limitListener accepts at most n connections at a time
// (golang.org/x/net/netutil's LimitListener): past that, Accept waits for
// one to close before it takes the next from the kernel's queue. A flood of
// connections then waits outside the process, holding none of its file
// descriptors, and the connections already accepted keep being served; the
// idle and read timeouts free the slots that slow clients hold. The gauge
// open counts the connections open.
func limitListener(ln net.Listener, n int, open prometheus.Gauge) net.Listener {
	return counted{Listener: netutil.LimitListener(ln, n), open: open}
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
