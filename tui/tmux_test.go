package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// The built binary in a real terminal: tmux gives it an 80×24
// pseudo-terminal, send-keys types, capture-pane reads the screen back.

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
	deadline := time.Now().Add(20 * time.Second)
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

// scrollTo presses Down a row at a time, each time waiting for the scroll
// indicator to move ("rows N–"), until the screen shows every want: the
// summary's length depends on the deep dives the mock drew.
func (s tmuxSession) scrollTo(wants ...string) string {
	s.t.Helper()
	for row := 1; ; row++ {
		scr := s.waitFor(fmt.Sprintf("rows %d–", row))
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(scr, w) }) {
			return scr
		}
		s.keys("Down")
	}
}

// startTmux runs cmd in a new 80×24 session; env is set for it.
// want checks that scr, the named screen, shows every one of wants.
func (s tmuxSession) want(name, scr string, wants ...string) {
	s.t.Helper()
	for _, w := range wants {
		if !strings.Contains(scr, w) {
			s.t.Errorf("%s screen lacks %q:\n%s", name, w, scr)
		}
	}
}

func startTmux(t *testing.T, cmd string, env ...string) tmuxSession {
	t.Helper()
	testenv.NeedsProcesses(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed: skipping the terminal test (apt-get install tmux)")
	}
	s := tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), name: "course"}
	// The app runs as a learner's would: termenv takes a set CI variable to
	// mean "no terminal" and drops colour, so CI's own CI=true must not leak
	// in; the progress file and the transcripts live in the test's temp dirs.
	env = append(env, "TERM=xterm-256color", "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	full := "exec env -u CI -u NO_COLOR " + strings.Join(env, " ") + " " + cmd
	if out, err := s.run("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "-s", s.name, full); err != nil {
		t.Fatalf("tmux new-session: %v %s", err, out)
	}
	t.Cleanup(func() { s.run("kill-server") })
	return s
}

func buildTUI(t *testing.T) string {
	t.Helper()
	testenv.NeedsProcesses(t)
	bin := filepath.Join(t.TempDir(), "tui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// gone waits until the process pid no longer runs.
func gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err != nil {
			return true
		}
		// a zombie whose parent has not reaped it yet has ended too
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(b), ") Z ") {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// E1, E4, E6 and E13 by keys at 80×24 under NO_COLOR, then one mock
// interview from its question to its summary.
func TestTmuxCourseAt80x24(t *testing.T) {
	s := startTmux(t, buildTUI(t), "NO_COLOR=1")

	s.waitFor("Rate limiters for system-design interviews", "01 · Framing")
	s.keys("2")
	s.waitFor("02 · Fixed window", "enter E1 in the lab")
	s.keys("Enter")
	s.waitFor("scenario cross-boundary-spike (E1)", "#1 arrives at 820 ms")
	s.keys("Right", "Right", "Right", "Right")
	scr := s.waitFor("#5 arrives at 1000 ms (5 of 8)")
	s.want("E1", scr,
		"left  fixed-window     allowed 6  rejected 2  max/W 6  over 3",
		"right sliding-log      allowed 4  rejected 4  max/W 3  over 0",
		"6 in W > L=3", "log [820 880 940]",
	)
	// NO_COLOR=1: shapes only, no colour escapes on the screen.
	if esc := s.screen(true); strings.Contains(esc, "\x1b[3") || strings.Contains(esc, "\x1b[9") || strings.Contains(esc, "38;") {
		t.Errorf("NO_COLOR=1 but the screen has colour escapes:\n%q", esc)
	}
	// esc goes back to chapter 02, where the lab was opened.
	s.keys("Escape")
	s.waitFor("02 · Fixed window", "enter E1 in the lab")
	s.keys("Escape")
	s.waitFor("Rate limiters for system-design interviews")

	// E4 and E6 from the menu's lab.
	s.keys("L")
	s.waitFor("scenario cross-boundary-spike (E1)")
	s.keys("s", "End")
	scr = s.waitFor("scenario prev-crowded-end (E4)", "#6 arrives at 1520 ms (6 of 6)")
	s.want("E4", scr,
		"left  sliding-counter  allowed 5  rejected 1  max/W 5  over 2",
		"right sliding-log      allowed 3  rejected 3  max/W 3  over 0",
		"est 3.44", "5 in W > L=3",
	)
	s.keys("s", "s", "End")
	scr = s.waitFor("scenario instant-burst (E6)", "#4 arrives at 30 ms (4 of 4)")
	s.want("E6", scr, "○ @500", "○ @1000", "tokens 0.06", "wait 980ms", "╰╰✗")
	// Edit C in place: 6 lets the bucket pass all four; esc cancels an edit.
	s.keys("C", "BSpace", "6", "Enter")
	s.waitFor("allowed 4  rejected 0  max/W 4  over 1")
	s.keys("C", "BSpace", "9")
	s.waitFor("C [9", "tokens 5.06") // C = 9 runs as it is typed
	s.keys("Escape")
	s.waitFor("C 6  R 2", "tokens 2.06")

	s.keys("Escape")
	s.waitFor("Rate limiters for system-design interviews")
	s.keys("P")
	s.waitFor("06 · Prefetch", "before request 1 of 8") // it opens before the first request
	s.keys("End")
	scr = s.waitFor("06 · Prefetch", "after 8 of 8")
	s.want("E13", scr, "allowed                        8         6", "stranded                       0        14", "wait ms (trips × 1)")

	// Resize below 80×24, then back.
	s.run("resize-window", "-t", s.name, "-x", "70", "-y", "20")
	s.waitFor("at least 80×24")
	s.run("resize-window", "-t", s.name, "-x", "80", "-y", "24")
	s.waitFor("06 · Prefetch")
	s.keys("?")
	s.waitFor("Keys · prefetch lab", "round trip ms")
	s.keys("Escape", "Escape")
	s.waitFor("Rate limiters for system-design interviews")

	// The cluster screen: with redis-server on PATH it starts a cluster and
	// shows the load bars; esc stops every process it started.
	s.keys("C")
	s.waitFor("06 · The cluster", "hot key (E22)")
	app := s.panePID()
	_, noServer := exec.LookPath("redis-server")
	_, noPgrep := exec.LookPath("pgrep")
	if noServer == nil && noPgrep == nil {
		s.waitFor("script calls per primary", "hot █")
		if out, _ := exec.Command("pgrep", "-P", strconv.Itoa(app), "-x", "redis-server").Output(); len(strings.Fields(string(out))) != 6 {
			t.Errorf("the cluster screen runs %q redis-server processes, want 6", out)
		}
	}
	s.keys("Escape")
	s.waitFor("Rate limiters for system-design interviews")
	if out, err := exec.Command("pgrep", "-P", strconv.Itoa(app), "-x", "redis-server").Output(); noPgrep == nil && err == nil {
		t.Errorf("redis-server processes left after esc: %s", out)
	}

	// The 45-minute track by default: the login question, the pushback of
	// the requirements one at a time, the request path in the design phase,
	// each phase ending on its notes beside a strong answer.
	s.keys("M")
	s.waitFor("Choose the design question", "A login endpoint", "45-minute track")
	s.keys("Down", "Enter")
	s.waitFor("Phase 1 of 5", "Introduction and the question", "3:00 left")
	s.keys("n")
	s.waitFor("What you wrote", "A strong answer", "enter next phase")
	s.keys("Enter")
	s.waitFor("Phase 2 of 5", "7:00 left", "b: 2 pushback")
	s.keys("b")
	s.waitFor("The interviewer pushes back (1 of 2)", "Many of your users share one IP")
	s.keys("a")
	s.waitFor("A strong answer contains", "proven in chapter 01")
	s.keys("Space", "Right")
	s.waitFor("(2 of 2)", "What are the limiter's own targets")
	s.keys("b", "n", "Enter")
	s.waitFor("Phase 3 of 5", "15:00 left", "d the request path")
	s.keys("d")
	s.waitFor("The request path", "[client]", "[edge / WAF]")
	s.keys("PageDown", "PageDown")
	s.waitFor("[limiter service]", "135 µs p50, 1,822 µs p99")
	s.keys("d", "n", "Enter")
	s.waitFor("Phase 4 of 5", "15:00 left")
	s.keys("n", "Enter")
	s.waitFor("Phase 5 of 5", "5:00 left")
	s.keys("n", "Enter")
	s.waitFor("Summary (45-minute): 1 of", "Review chapters", "Weakest phases")
	scr = s.scrollTo("Pushback to review", "What are the limiter's own targets") // below the weakest phases
	if strings.Contains(scr, "share one IP") {
		t.Errorf("the pushback ticked as answered is listed to review:\n%s", scr)
	}

	// The 15-minute short form, end to end: the login question.
	s.keys("Escape", "M", "f")
	s.waitFor("Choose the design question", "A login endpoint", "15-minute short form")
	s.keys("Up", "Up", "Down", "Enter") // the chooser kept its place: login again
	s.waitFor("Phase 1 of 4", "Pin down the contract", "3:00 left")
	s.waitFor("2:5") // the clock runs
	if esc := s.screen(true); strings.Contains(esc, "\x1b[3") || strings.Contains(esc, "38;") {
		t.Errorf("NO_COLOR=1 but the interview has colour escapes:\n%q", esc)
	}
	s.keys("1", "2")
	s.waitFor("[✓] 1", "[✓] 2", "[ ] 3")
	s.keys("n", "Enter")
	s.waitFor("Phase 2 of 4", "5:00 left")
	s.keys("1", "n", "Enter")
	s.waitFor("Phase 3 of 4")
	s.keys("n", "Enter")
	s.waitFor("Phase 4 of 4")
	s.keys("3", "n", "Enter")
	scr = s.waitFor("Summary (15-minute): 4 of 20 points covered", "Review chapters")
	if !strings.Contains(scr, "1 Pin down the contract and the scale") || !strings.Contains(scr, "2 of 3") {
		t.Errorf("summary lacks phase 1's row:\n%s", scr)
	}
	s.keys("Escape", "M") // the chooser keeps the form chosen
	s.waitFor("15-minute short form", "last time 4 of 20 points")

	pid := s.panePID() // before q: once the course quits, tmux has no pane to ask
	s.keys("Escape", "q")
	if !gone(pid, 10*time.Second) {
		t.Fatalf("q did not quit; screen:\n%s", s.screen(false))
	}
}

// panePID is the pid of the process the session runs.
func (s tmuxSession) panePID() int {
	s.t.Helper()
	out, err := s.run("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		s.t.Fatalf("pane pid: %v %s", err, out)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		s.t.Fatalf("pane pid %q: %v", out, err)
	}
	return pid
}

// With colours allowed, the same screen carries colour escapes.
func TestTmuxColour(t *testing.T) {
	s := startTmux(t, buildTUI(t), "COLORTERM=truecolor")
	s.waitFor("Rate limiters for system-design interviews")
	s.keys("L")
	s.waitFor("scenario cross-boundary-spike (E1)")
	if esc := s.screen(true); !strings.Contains(esc, "\x1b[") {
		t.Errorf("no colour or attribute escapes on a colour terminal:\n%q", esc)
	}
	s.keys("Escape", "5")
	s.waitFor("05 · The lab")
	s.keys("q")
}

// Friction 3: closing the terminal ends the course, also when it was
// started with make tui (built and exec'd, so no go run stays behind).
func TestTmuxClosedTerminalEndsTheCourse(t *testing.T) {
	s := startTmux(t, buildTUI(t))
	s.waitFor("Rate limiters for system-design interviews")
	pid := s.panePID()
	s.run("kill-session", "-t", s.name) // the pty closes: SIGHUP
	if !gone(pid, 10*time.Second) {
		t.Fatal("the course kept running after its terminal closed")
	}

	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	bin := filepath.Join(t.TempDir(), "course-tui")
	m := startTmux(t, "make -C .. tui TUI_BIN="+bin)
	m.waitFor("Rate limiters for system-design interviews")
	// The app is a child of make; find it by its binary.
	var app int
	for _, d := range mustReadDir(t, "/proc") {
		if n, err := strconv.Atoi(d); err == nil {
			if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", n)); err == nil && exe == bin {
				app = n
			}
		}
	}
	if app == 0 {
		t.Fatal("make tui: no process runs the built binary (is it still go run?)")
	}
	makePID := m.panePID()
	m.run("kill-session", "-t", m.name)
	if !gone(app, 10*time.Second) || !gone(makePID, 10*time.Second) {
		t.Fatal("make tui kept running after its terminal closed")
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
