package conform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/peer"
)

// standing is a clock 10 s into a minute that never moves: the sequence
// never reaches the minute's end, and nothing waits.
func standing() clock {
	t := time.Unix(1_800_000_010, 0)
	return clock{now: func() time.Time { return t }, sleep: func(time.Duration) { panic("no wait expected") }}
}

// startTarget runs the course's service on dir's rules with clk, listening
// on gRPC, as the target.
func startTarget(t *testing.T, dir string, clk clock) string {
	t.Helper()
	s, err := startOn(clk, service.Options{Config: dir, GRPCAddr: "127.0.0.1:0", ReloadEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s.GRPCAddr()
}

func runJSON(t *testing.T, clk clock, args ...string) (int, report, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := command(args, &out, &errOut, clk)
	var rep report
	if code != 2 {
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("exit %d, output not JSON: %v\n%s\n%s", code, err, out.String(), errOut.String())
		}
	}
	return code, rep, errOut.String()
}

// TestConformAgainstItself: the course's service as the target answers the
// whole sequence as the in-process one does: exit 0, no difference; and the
// sequence reached every case of E33, the share_threshold and quota_mode
// ones brought to 0 remaining.
func TestConformAgainstItself(t *testing.T) {
	clk := standing()
	dir := t.TempDir()
	if code := command([]string{"--write-rules", dir}, &bytes.Buffer{}, &bytes.Buffer{}, clk); code != 0 {
		t.Fatalf("--write-rules: exit %d", code)
	}
	addr := startTarget(t, dir, clk)
	code, rep, stderr := runJSON(t, clk, "--target", addr, "--rules-dir", dir, "--requests", "1500", "--json")
	if code != 0 || rep.Sent != 1500 || rep.Differences != 0 {
		t.Fatalf("exit %d, sent %d, differences %d %+v; want 0, 1500, 0\n%s", code, rep.Sent, rep.Differences, rep.Kinds, stderr)
	}
	all := 0
	for _, cs := range peer.Cases {
		all += len(cs)
	}
	if len(rep.Cases) != all || all < 37 {
		t.Errorf("%d cases reported, want E33's %d (37 or more)", len(rep.Cases), all)
	}
	for _, c := range rep.Cases {
		newRule := strings.Contains(c.Case, "share_threshold") || strings.Contains(c.Case, "quota_mode")
		if c.Sent == 0 || newRule && c.Drained == 0 && !strings.Contains(c.Case, "without a limit") {
			t.Errorf("case %q: sent %d, drained %d", c.Case, c.Sent, c.Drained)
		}
	}
}

// TestConformFindsAWrongTarget: a target whose key-only remote_address
// limit is 21 instead of 20 is reported, its first difference named for the
// case, and the exit code is 1.
func TestConformFindsAWrongTarget(t *testing.T) {
	clk := standing()
	dir, wrong := t.TempDir(), t.TempDir()
	if code := command([]string{"--write-rules", dir}, &bytes.Buffer{}, &bytes.Buffer{}, clk); code != 0 {
		t.Fatalf("--write-rules: exit %d", code)
	}
	for _, f := range []string{"edge.yaml", "internal.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "edge.yaml" {
			b = bytes.Replace(b, []byte("requests_per_unit: 20"), []byte("requests_per_unit: 21"), 1)
		}
		if err := os.WriteFile(filepath.Join(wrong, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	addr := startTarget(t, wrong, clk)
	code, rep, _ := runJSON(t, clk, "--target", addr, "--rules-dir", dir, "--requests", "300", "--json")
	if code != 1 || rep.Differences == 0 {
		t.Fatalf("exit %d, differences %d; want 1 and some", code, rep.Differences)
	}
	want := "current_limit (key only, each value its own counter)"
	found := false
	for _, k := range rep.Kinds {
		found = found || k.Kind == want
	}
	if !found {
		t.Errorf("kinds %+v: none is %q", rep.Kinds, want)
	}
}

// TestConformBadInput: every way to call it wrongly exits 2 with a line
// naming the flag.
func TestConformBadInput(t *testing.T) {
	clk := standing()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "edge.yaml"), []byte("domain: other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "one of them"},
		{[]string{"--target", "127.0.0.1:1", "--write-rules", dir}, "one of them"},
		{[]string{"--target", "127.0.0.1:1", "--requests", "0"}, "--requests 0"},
		{[]string{"--target", "127.0.0.1:1", "extra"}, `unexpected argument "extra"`},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"--target", "127.0.0.1:1", "--rules-dir", filepath.Join(dir, "none")}, "--rules-dir"},
		{[]string{"--target", "127.0.0.1:1", "--rules-dir", dir}, `no line "domain: edge…"`},
		{[]string{"--target", "127.0.0.1:1"}, "does not answer ShouldRateLimit"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := command(c.args, &out, &errOut, clk)
		if code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}
