// Package redisproc runs redis-server processes for the course: one server
// on a free loopback port, or a Redis Cluster of three primaries and three
// replicas, with the controls a failover experiment needs (pause, resume,
// kill, restart a node; CONFIG SET, CLUSTER FAILOVER TAKEOVER, INFO fields)
// and the one polling helper they all wait with. It imports neither testing
// nor testcontainers, so the course's binary can use it;
// internal/redistest wraps it for tests.
package redisproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// InstallHint says how to get a redis-server.
const InstallHint = "apt-get install redis-server, or brew install redis"

// ErrNoRedisServer is returned when a redis-server is needed and none is on
// PATH.
var ErrNoRedisServer = errors.New("no redis-server on PATH (" + InstallHint + ")")

// LookPath finds redis-server on PATH, or returns ErrNoRedisServer.
func LookPath() (string, error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return "", ErrNoRedisServer
	}
	return path, nil
}

// Proc is a running redis-server on a loopback port.
type Proc struct {
	Addr string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// Signal sends s to the process.
func (p *Proc) Signal(s os.Signal) error { return p.cmd.Process.Signal(s) }

// Done is closed once the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Kill stops the process at once (waking it first if it was paused) and
// waits until it is gone.
func (p *Proc) Kill() {
	if sigCont != nil {
		_ = p.cmd.Process.Signal(sigCont)
	}
	_ = p.cmd.Process.Kill()
	<-p.done
}

// Stop asks the process to exit (SIGINT) and kills it after 10 s.
func (p *Proc) Stop() error {
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
		return nil
	case <-time.After(10 * time.Second):
		p.Kill()
		return errors.New("redis-server ignored SIGINT; killed")
	}
}

// Spawn starts redis-server at path on 127.0.0.1:port with persistence off,
// its files in dir and any extra settings, and waits until it answers PING.
// On error the process is gone, and the error carries its last log line.
// The process is killed if this one dies first (on Linux).
func Spawn(ctx context.Context, path string, port int, dir string, extra ...string) (*Proc, error) {
	// Loopback only: this process serves this machine.
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"}
	cmd := exec.Command(path, append(args, extra...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	setParentDeath(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Proc{cmd: cmd, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	if err := WaitReady(ctx, p.Addr, p.done); err != nil {
		_ = cmd.Process.Kill()
		<-p.done
		return nil, fmt.Errorf("%w: %s", err, lastLine(out.String()))
	}
	return p, nil
}

// Server is a redis-server of its own directory, started by Start.
type Server struct {
	*Proc
	dir string
}

// Start runs redis-server at path on a free loopback port in a temporary
// directory, trying three ports (another process may take a free one
// first). Close stops it and removes the directory.
func Start(ctx context.Context, path string) (*Server, error) {
	dir, err := os.MkdirTemp("", "redisproc-")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := FreePort()
		if err != nil {
			lastErr = err
			continue
		}
		p, err := Spawn(ctx, path, port, dir)
		if err != nil {
			lastErr = err
			continue
		}
		return &Server{Proc: p, dir: dir}, nil
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// Close stops the server and removes its directory.
func (s *Server) Close() error {
	defer os.RemoveAll(s.dir)
	return s.Stop()
}

// WaitReady polls PING until the server at addr answers, exits (exited is
// closed; nil for a server that is not ours), or 10 s pass.
func WaitReady(ctx context.Context, addr string, exited <-chan struct{}) error {
	err := Poll(ctx, 10*time.Second, addr+" to answer PING", func() (bool, error) {
		select {
		case <-exited:
			return false, errors.New("redis-server exited")
		default:
		}
		return Ping(ctx, addr, 200*time.Millisecond) == nil, nil
	})
	return err
}

// Ping sends PING to addr once, within timeout.
func Ping(ctx context.Context, addr string, timeout time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: timeout, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.Ping(ctx).Err()
}

// FreePort returns a TCP port free on 127.0.0.1 a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(p int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// Pause freezes the process (SIGSTOP): its connections stay open, it
// answers nothing and reads nothing.
func (p *Proc) Pause() error {
	if sigStop == nil {
		return errors.New("redisproc: pausing a process needs SIGSTOP, which this system does not have")
	}
	return p.Signal(sigStop)
}

// Resume undoes Pause (SIGCONT).
func (p *Proc) Resume() error {
	if sigCont == nil {
		return errors.New("redisproc: resuming a process needs SIGCONT, which this system does not have")
	}
	return p.Signal(sigCont)
}
