package doclint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goTestCmd finds a `go test` command in the text, up to the end of its
// code span, line or comment.
var goTestCmd = regexp.MustCompile("go test [^`\\n#]*")

// pkgAndRun is a go test command's package (one folder, not ./...) and its
// -run pattern, quoted or not; "" for either when it has none.
func pkgAndRun(cmd string) (pkg, pattern string) {
	fields := strings.Fields(cmd)
	for i := 2; i < len(fields); i++ {
		f := fields[i]
		switch {
		case strings.HasPrefix(f, "./") && !strings.HasSuffix(f, "..."):
			pkg = strings.TrimSuffix(f, "/")
		case f == "-run" && i+1 < len(fields):
			i++
			pattern = fields[i]
		case strings.HasPrefix(f, "-run="):
			pattern = strings.TrimPrefix(f, "-run=")
		}
	}
	return pkg, strings.Trim(pattern, "'\"")
}

// testFunc is a test, benchmark, fuzz target or example a -run can select.
var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`)

// TestGoTestCommandsRunATest: every `go test ./pkg -run PATTERN` the text
// gives a reader selects at least one test of that package. (A command
// whose tests had moved to another package ran none and said "ok".)
func TestGoTestCommandsRunATest(t *testing.T) {
	checked := 0
	eachMarkdown(t, func(f, text string) {
		for _, cmd := range goTestCmd.FindAllString(text, -1) {
			pkg, pattern := pkgAndRun(cmd)
			if pkg == "" || pattern == "" || pattern == "^$" {
				continue // no package named, or a benchmark run that runs no test on purpose
			}
			checked++
			if !selectsATest(t, filepath.Join(root, pkg), pattern) {
				t.Errorf("%s: %q selects no test of %s", f, strings.TrimSpace(cmd), pkg)
			}
		}
	})
	if checked < 10 {
		t.Fatalf("%d go test -run commands checked, want at least 10: does goTestRun still match the text?", checked)
	}
}

// selectsATest says whether a test of the package in dir matches the
// top-level part of a -run pattern (the part before a subtest's slash).
func selectsATest(t *testing.T, dir, pattern string) bool {
	top := pattern
	if i := strings.Index(top, "/"); i >= 0 {
		top = top[:i]
	}
	re, err := regexp.Compile(top)
	if err != nil {
		t.Errorf("-run %q: %v", pattern, err)
		return true
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			if re.MatchString(m[1]) {
				return true
			}
		}
	}
	return false
}

// goBuildRoot finds `go build ./NAME` without -o: from the root its output,
// a file named NAME, would collide with the folder NAME.
var goBuildRoot = regexp.MustCompile(`go build (\./[\w-]+)/?(?:[\s` + "`" + `)]|$)`)

// TestGoBuildCommandsWork: no text tells a reader to `go build ./tui` from
// the root, which fails ("build output "tui" already exists and is a
// directory"); a build names its output with -o.
func TestGoBuildCommandsWork(t *testing.T) {
	eachMarkdown(t, func(f, text string) {
		for _, m := range goBuildRoot.FindAllStringSubmatch(text, -1) {
			t.Errorf("%s: %q fails from the root; use go build -o NAME %s", f, strings.TrimSpace(m[0]), m[1])
		}
	})
}
