package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The built binary in a real terminal: tmux gives it an 80×24 pseudo-terminal,
// send-keys types, capture-pane reads the screen back as text.

type tmuxSession struct {
	t      *testing.T
	socket string // a socket path in the test's temp dir: nothing is left behind
	name   string
}

func (s tmuxSession) run(args ...string) (string, error) {
	// -u: UTF-8 whatever the locale, so the course's glyphs survive capture-pane.
	out, err := exec.Command("tmux", append([]string{"-u", "-S", s.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (s tmuxSession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if out, err := s.run("send-keys", "-t", s.name, k); err != nil {
			s.t.Fatalf("send-keys %q: %v %s", k, err, out)
		}
	}
}

// screen captures the pane; escapes keeps colour and attribute sequences.
func (s tmuxSession) screen(escapes bool) string {
	s.t.Helper()
	args := []string{"capture-pane", "-p", "-t", s.name}
	if escapes {
		args = append(args, "-e")
	}
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("capture-pane: %v %s", err, out)
	}
	return out
}

// waitFor polls the screen until it shows every want (the program redraws
// asynchronously), failing with the last screen after a generous deadline.
func (s tmuxSession) waitFor(wants ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := s.screen(false)
		missing := ""
		for _, w := range wants {
			if !strings.Contains(scr, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %q; last screen:\n%s", missing, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func startTmux(t *testing.T, bin string, env ...string) tmuxSession {
	t.Helper()
	s := tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), name: "course"}
	// The app runs as a learner's would: termenv takes a set CI variable to
	// mean "no terminal" and drops colour, so CI's own CI=true must not leak in.
	cmd := "exec env -u CI -u NO_COLOR " + strings.Join(append(env, "TERM=xterm-256color", bin), " ")
	if out, err := s.run("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "-s", s.name, cmd); err != nil {
		t.Fatalf("tmux new-session: %v %s", err, out)
	}
	t.Cleanup(func() { s.run("kill-server") })
	return s
}

func buildTUI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestTmuxCourseAt80x24(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed: skipping the terminal test (CI installs tmux; apt-get install tmux)")
	}
	bin := buildTUI(t)
	s := startTmux(t, bin, "NO_COLOR=1")

	s.waitFor("Rate limiters for system-design interviews", "▸ 01 · ")
	s.keys("5")
	s.waitFor("05 · The lab", "In one sentence")
	s.keys("Enter")
	s.waitFor("scenario cross-boundary-spike (E1)", "#1 arrives at 820 ms")
	s.keys("Right", "Right", "Right", "Right")
	scr := s.waitFor("#5 arrives at 1000 ms (5 of 8)")
	for _, w := range []string{
		"left  fixed-window     allowed 6  rejected 2  max/W 6  over 3",
		"right sliding-log      allowed 4  rejected 4  max/W 3  over 0",
		"6 in W > L=3", "log [820 880 940]",
	} {
		if !strings.Contains(scr, w) {
			t.Errorf("E1 screen lacks %q:\n%s", w, scr)
		}
	}
	// NO_COLOR=1: shapes only, no colour escapes on the screen.
	if esc := s.screen(true); strings.Contains(esc, "\x1b[3") || strings.Contains(esc, "\x1b[9") || strings.Contains(esc, "38;") {
		t.Errorf("NO_COLOR=1 but the screen has colour escapes:\n%q", esc)
	}

	// E4: the counter lets 5 through in 540 ms, the log holds at 3.
	s.keys("s", "End")
	scr = s.waitFor("scenario prev-crowded-end (E4)", "#6 at 1520 ms")
	for _, w := range []string{
		"left  sliding-counter  allowed 5  rejected 1  max/W 5  over 2",
		"right sliding-log      allowed 3  rejected 3  max/W 3  over 0",
		"est 3.44", "5 in W > L=3",
	} {
		if !strings.Contains(scr, w) {
			t.Errorf("E4 screen lacks %q:\n%s", w, scr)
		}
	}

	s.keys("s", "s", "End")
	scr = s.waitFor("scenario instant-burst (E6)", "#4 arrives at 30 ms (4 of 4)")
	for _, w := range []string{"○ @500", "○ @1000", "tokens 0.06", "wait 980ms"} {
		if !strings.Contains(scr, w) {
			t.Errorf("E6 screen lacks %q:\n%s", w, scr)
		}
	}
	// Edit C in place: 6 lets the bucket pass all four.
	s.keys("C", "BSpace", "6", "Enter")
	s.waitFor("allowed 4  rejected 0  max/W 4  over 1")

	s.keys("Escape")
	s.waitFor("05 · The lab")
	s.keys("Escape")
	s.waitFor("Rate limiters for system-design interviews")
	s.keys("P")
	scr = s.waitFor("06 · Prefetch", "after 8 of 8")
	for _, w := range []string{"allowed                  8         6", "stranded                 0        14"} {
		if !strings.Contains(scr, w) {
			t.Errorf("E13 screen lacks %q:\n%s", w, scr)
		}
	}

	// Resize below 80×24, then back.
	s.run("resize-window", "-t", s.name, "-x", "70", "-y", "20")
	s.waitFor("at least 80×24")
	s.run("resize-window", "-t", s.name, "-x", "80", "-y", "24")
	s.waitFor("06 · Prefetch")

	s.keys("?")
	s.waitFor("Keys", "any key closes")
	s.keys("q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := s.run("has-session", "-t", s.name); err != nil {
			break // the program quit and its session ended
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; screen:\n%s", s.screen(false))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// With colours allowed, the same screen carries colour escapes.
func TestTmuxColour(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed: skipping the terminal test (CI installs tmux; apt-get install tmux)")
	}
	s := startTmux(t, buildTUI(t), "COLORTERM=truecolor")
	s.waitFor("Rate limiters for system-design interviews")
	s.keys("L")
	s.waitFor("scenario cross-boundary-spike (E1)")
	if esc := s.screen(true); !strings.Contains(esc, "\x1b[") {
		t.Errorf("no colour or attribute escapes on a colour terminal:\n%q", esc)
	}
	s.keys("q")
}
