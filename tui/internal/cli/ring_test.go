package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestRingJSONMovesAboutOneInNPlusOne: `tui ring --peers N --join --json`
// reports about 1/(N+1) of the keys moved, and --leave about 1/N.
func TestRingJSONMovesAboutOneInNPlusOne(t *testing.T) {
	for _, c := range []struct {
		peers int
		flag  string
		want  float64
	}{{3, "--join", 0.25}, {5, "--join", 1.0 / 6}, {4, "--leave", 0.25}} {
		var out, errb bytes.Buffer
		if code := runRing([]string{"--peers", fmt.Sprint(c.peers), c.flag, "--keys", "20000", "--json"}, &out, &errb); code != 0 {
			t.Fatalf("ring %d %s: exit %d: %s", c.peers, c.flag, code, errb.String())
		}
		var got struct{ Moved, Expected float64 }
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Moved-c.want) > 0.25*c.want || math.Abs(got.Expected-c.want) > 1e-9 {
			t.Errorf("ring --peers %d %s: moved %.3f (expected %.3f), want about %.3f", c.peers, c.flag, got.Moved, got.Expected, c.want)
		}
	}
}

func TestRingBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--peers", "0"}, "--peers"},
		{[]string{"--join", "--leave"}, "--join and --leave"},
		{[]string{"--keys", "0"}, "--keys"},
		{[]string{"--peers", "1", "--leave"}, "peers"},
	} {
		var out, errb bytes.Buffer
		if code := runRing(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("ring %v: exit %d, stderr %q; want 2 and a message naming %q", c.args, code, errb.String(), c.want)
		}
	}
}
