package service

import (
	"net"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// limitListener accepts at most n connections at a time: past that, Accept
// waits for one to close before it takes the next from the kernel's queue.
// A flood of connections then waits outside the process, holding none of
// its file descriptors, and the connections already accepted keep being
// served; the idle and read timeouts free the slots that slow clients hold.
// (golang.org/x/net/netutil's LimitListener does the same; this one also
// keeps the open count in a gauge.)
func limitListener(ln net.Listener, n int, open prometheus.Gauge) net.Listener {
	return &capped{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{}), open: open}
}

type capped struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	open      prometheus.Gauge
}

func (l *capped) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	l.open.Inc()
	return &slotConn{Conn: c, free: func() { l.open.Dec(); <-l.slots }}, nil
}

func (l *capped) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

// slotConn gives its slot back when it is closed, once.
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
