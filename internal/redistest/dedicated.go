//go:build linux

package redistest

import (
	"context"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// Dedicated is a Redis of one test's own, for tests that pause, kill or
// restart it: the shared server must stay up for every other test. It is a
// redis-server process (SIGSTOP / SIGCONT / SIGKILL, started again on the
// same port) or, when REDIS_IMAGE is set or no redis-server is on PATH, a
// container (docker pause / unpause, stop / start). It is removed when the
// test ends.
type Dedicated struct {
	How string // which path gave it, for logs

	mu   sync.Mutex
	addr string // a restarted container may come back on another port

	pause, resume, kill, restart func() error
}

// Addr is the server's address now.
func (d *Dedicated) Addr() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addr
}

func (d *Dedicated) setAddr(a string) {
	d.mu.Lock()
	d.addr = a
	d.mu.Unlock()
}

// Pause freezes the server: connections stay open and nothing answers.
func (d *Dedicated) Pause() error { return d.pause() }

// Resume undoes Pause.
func (d *Dedicated) Resume() error { return d.resume() }

// Kill stops the server at once; connections are refused until Restart.
func (d *Dedicated) Kill() error { return d.kill() }

// Restart starts a killed server again, empty, and waits until it answers.
func (d *Dedicated) Restart() error { return d.restart() }

// StartDedicated starts a Dedicated server, or skips the test (fails it
// with REQUIRE_REDIS=1) when neither Docker nor redis-server can give one,
// and under -short whatever is there (testenv.NeedsProcesses).
func StartDedicated(t testing.TB) *Dedicated {
	t.Helper()
	testenv.NeedsProcesses(t)
	image := os.Getenv("REDIS_IMAGE")
	path, lookErr := redisproc.LookPath()
	if image != "" || lookErr != nil {
		explicit := image != ""
		if !explicit {
			image = DefaultImage
		}
		d, err := dedicatedContainer(t, image)
		if err == nil {
			return d
		}
		if explicit || os.Getenv("REQUIRE_REDIS") == "1" {
			t.Fatalf("redistest: dedicated container: %s", containerFailure(image, explicit, err))
		}
		if lookErr != nil {
			t.Skipf("%s (container: %v)", How, firstLine(err))
		}
	}
	d, err := dedicatedProcess(t, path)
	if err != nil {
		t.Fatalf("redistest: dedicated redis-server: %v", err)
	}
	return d
}

func dedicatedProcess(t testing.TB, path string) (*Dedicated, error) {
	ctx := context.Background()
	dir := t.TempDir()
	port, err := redisproc.FreePort()
	if err != nil {
		return nil, err
	}
	p, err := redisproc.Spawn(ctx, path, port, dir)
	if err != nil {
		return nil, err
	}
	d := &Dedicated{How: "redis-server process " + path, addr: p.Addr}
	var mu sync.Mutex // guards p across Restart
	current := func() *redisproc.Proc {
		mu.Lock()
		defer mu.Unlock()
		return p
	}
	d.pause = func() error { return current().Pause() }
	d.resume = func() error { return current().Resume() }
	d.kill = func() error { current().Kill(); return nil }
	d.restart = func() error {
		q, err := redisproc.Spawn(ctx, path, port, dir)
		if err != nil {
			return err
		}
		mu.Lock()
		p = q
		mu.Unlock()
		return nil
	}
	t.Cleanup(func() { current().Kill() })
	return d, nil
}

func dedicatedContainer(t testing.TB, image string) (*Dedicated, error) {
	ctx := context.Background()
	// A fixed host port: Docker maps a random one at every start, so a
	// restarted container would otherwise come back at another address, which
	// no client (nor a service given the address once) would follow; a
	// restarted redis-server keeps its port too.
	port, err := redisproc.FreePort()
	if err != nil {
		return nil, err
	}
	c, addr, err := runContainer(ctx, image, pinHostPort(port))
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = terminate(c) })
	dc, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = dc.Close() })
	d := &Dedicated{How: "testcontainers " + image, addr: addr}
	id := c.GetContainerID()
	d.pause = func() error { _, err := dc.ContainerPause(ctx, id, client.ContainerPauseOptions{}); return err }
	d.resume = func() error { _, err := dc.ContainerUnpause(ctx, id, client.ContainerUnpauseOptions{}); return err }
	d.kill = func() error { zero := time.Duration(0); return c.Stop(ctx, &zero) }
	d.restart = func() error {
		if err := c.Start(ctx); err != nil {
			return err
		}
		a, err := containerAddr(ctx, c)
		if err != nil {
			return err
		}
		d.setAddr(a)
		return nil
	}
	return d, nil
}

// pinHostPort maps the container's Redis port to port on the loopback
// address, the same at every start of the container.
func pinHostPort(port int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
		hc.PortBindings = network.PortMap{
			network.MustParsePort("6379/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: strconv.Itoa(port)}},
		}
	})
}
