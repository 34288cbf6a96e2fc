//go:build !exercise11

package ring

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The reference peer: gubernator v2.13.0 (github.com/gubernator-io/gubernator/v2;
// the mailgun path has no v2.13.0 on the module proxy), three daemons on
// loopback started by bench/gubernator, a module of its own so that
// gubernator stays out of the course's go.mod.
const gubernatorDir = "../../bench/gubernator"

// gubernatorBinary builds bench/gubernator into the user's cache directory,
// keyed by its source and go.sum, and returns the binary's path.
func gubernatorBinary() (string, error) {
	h := sha256.New()
	for _, f := range []string{"main.go", "go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(gubernatorDir, f))
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "ratelimit-course", "gubernator", hex.EncodeToString(h.Sum(nil))[:16], "cluster")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tmp := bin + ".build-" + strconv.Itoa(os.Getpid())
	cmd := exec.CommandContext(ctx, "go", "build", "-o", tmp, ".")
	cmd.Dir = gubernatorDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return "", fmt.Errorf("go build in bench/gubernator: %v: %s", err, lines[len(lines)-1])
	}
	return bin, os.Rename(tmp, bin)
}

// startGubernator runs a three-daemon gubernator cluster and stops it when
// the test ends; it skips with one line where gubernator cannot be built.
func startGubernator(t *testing.T) []string {
	if testing.Short() {
		t.Skip("gubernator v2.13.0 is built from the Go module proxy (a few minutes the first time): run without -short")
	}
	bin, err := gubernatorBinary()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("gubernator could not be built: %v", err)
		}
		t.Skipf("gubernator could not be built: %v; needs the Go module proxy", err)
	}
	cmd := exec.Command(bin, "-peers", "3")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the cluster closes its daemons and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	var addrs struct{ HTTP []string }
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &addrs) != nil || len(addrs.HTTP) != 3 {
		t.Fatalf("gubernator cluster did not start: %q %v", line, err)
	}
	return addrs.HTTP
}

// gubernatorCheck asks a gubernator daemon for one LEAKY_BUCKET decision
// with burst = limit, the bucket this chapter's Request describes.
func gubernatorCheck(client *http.Client, addr string, r Request) (Response, error) {
	body, _ := json.Marshal(map[string]any{"requests": []map[string]any{{
		"name": "e45", "unique_key": r.Key, "hits": r.Hits, "limit": r.Limit, "burst": r.Limit,
		"duration": r.Duration.Milliseconds(), "algorithm": "LEAKY_BUCKET",
	}}})
	resp, err := client.Post("http://"+addr+"/v1/GetRateLimits", "application/json", bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	var out struct {
		Responses []struct {
			Status    string      `json:"status"`
			Remaining json.Number `json:"remaining"`
			Error     string      `json:"error"`
		} `json:"responses"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Responses) != 1 {
		return Response{}, fmt.Errorf("gubernator answered %s: %v", resp.Status, err)
	}
	g := out.Responses[0]
	rem, _ := g.Remaining.Int64()
	return Response{Allowed: g.Status == "UNDER_LIMIT", Remaining: int(rem), Error: g.Error}, nil
}
