package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The commands the course's text tells a reader to run: every `go run
// ./tui …` of a Markdown file, run here in-process as the binary would run
// it. Each exits 0, and where the text says what it prints (a comment
// after it in a code block, or "prints `…`" after a code span) the output
// holds that text. A command with a placeholder ([--flag], ALGO, NAME,
// HOST, ...), a pipe or a redirect, or one that starts a server or a
// cluster (serve, cluster, conform) is a form to fill in, not a run.

// quotedRun is a command quoted in the text, up to the end of its code span
// or line; then, on the same line, what it is said to print.
var quotedRun = regexp.MustCompile("go run \\./tui ([^`\\n#|>]*)(?:`[^`\\n]{0,40}?\\b(?:prints|says) `([^`]+)`|#[^\\n`]*`([^`]+)`)?")

// placeholder marks a command form rather than a command.
var placeholder = regexp.MustCompile(`\[|\.\.\.|\b(CMD|ALGO|NAME|HOST|DIR|FILE|PORT|N)\b|--arrivals-file|^\s*$`)

// longRuns take seconds each: -short leaves them out.
var longRuns = regexp.MustCompile(`--traffic|worst --algo all|--subwindows`)

type quoted struct {
	file, args, says string
}

// quotedCommands are the commands of the course's Markdown files (the
// root's, the chapters' and their parts') that can run as written.
func quotedCommands(t *testing.T, root string) []quoted {
	var files []string
	for _, pattern := range []string{"*.md", "chapters/*/*.md", "chapters/*/*/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var out []quoted
	seen := map[string]bool{}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range quotedRun.FindAllStringSubmatch(string(b), -1) {
			args := strings.Join(strings.Fields(m[1]), " ")
			says := m[2] + m[3]
			sub, _, _ := strings.Cut(args, " ")
			sub = strings.TrimRight(sub, "),:;.")
			if placeholder.MatchString(args) || sub == "serve" || sub == "cluster" || sub == "conform" {
				continue
			}
			if key := args + "\x00" + says; !seen[key] {
				seen[key] = true
				out = append(out, quoted{path, args, says})
			}
		}
	}
	return out
}

// squash is s with its runs of spaces as one.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestQuotedCommandsRun(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := quotedCommands(t, root)
	if len(cmds) < 30 {
		t.Fatalf("%d runnable commands found in the text, want at least 30: does quotedRun still match it?", len(cmds))
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Chdir(t.TempDir()) // plot --out writes where it runs
	ran := 0
	for _, c := range cmds {
		if testing.Short() && longRuns.MatchString(c.args) {
			continue
		}
		ran++
		var out, errOut bytes.Buffer
		args := strings.Fields(strings.ReplaceAll(c.args, "'", ""))
		code := run(args, &out, &errOut)
		switch {
		case code == 2 && len(args) == 1 && strings.Contains(errOut.String(), "missing"):
			continue // the command's name in a sentence, not a run: it needs its flags
		case code == 1 && c.args == "mock --last" && strings.Contains(errOut.String(), "no transcript yet"):
			continue // it prints the last mock finished: none in a fresh data folder
		}
		if code != 0 {
			t.Errorf("%s: go run ./tui %s: exit %d\n%s", rel(root, c.file), c.args, code, errOut.String())
			continue
		}
		if c.says != "" && !strings.Contains(squash(out.String()+errOut.String()), squash(c.says)) {
			t.Errorf("%s: go run ./tui %s: the text says it prints %q; it printed\n%s", rel(root, c.file), c.args, c.says, out.String())
		}
	}
	says := 0
	for _, c := range cmds {
		if c.says != "" {
			says++
		}
	}
	t.Logf("%d commands found, %d run, %d with what they print quoted", len(cmds), ran, says)
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}

// TestQuotedOutputsMatch: where the text states what a command prints, the
// command prints it. Each case names the file, the text's words (still in
// it, or the case is stale) and what the output must then hold.
func TestQuotedOutputsMatch(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	evening := regexp.MustCompile(`\*\*One evening\*\* \((\d+) minutes`)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := evening.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md no longer gives the evening's minutes as **One evening** (N minutes")
	}
	for _, c := range []struct {
		file, text, cmd string
		prints          []string
	}{
		{"chapters/05-lab/README.md", "6 upstream in one W for the fixed window, 3 for the log",
			"sim --scenario cross-boundary-spike", []string{"max upstream in any W 6 3"}},
		{"chapters/05-lab/README.md", "fixed window 2L, sliding log L, sliding counter also 2L",
			"worst --algo all", []string{"sliding-log 3", "L = 3", "sliding-counter 6", "2L = 6", "C + R*W = 5", "R*W = 2"}},
		{"README.md", string(m[0]), "plan --id evening", []string{"One evening · " + string(m[1]) + " minutes"}},
	} {
		b, err := os.ReadFile(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(squash(string(b)), c.text) {
			t.Errorf("%s no longer says %q: update the case", c.file, c.text)
			continue
		}
		var out, errOut bytes.Buffer
		if code := run(strings.Fields(c.cmd), &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.cmd, code, errOut.String())
		}
		for _, want := range c.prints {
			if !strings.Contains(squash(out.String()), want) {
				t.Errorf("%s says %q; go run ./tui %s prints no %q:\n%s", c.file, c.text, c.cmd, want, out.String())
			}
		}
	}
}
