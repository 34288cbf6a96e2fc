// Package doclint holds only tests: the prose lints of the course's text,
// in one place, run by `make lint-docs` (which `make test` calls) and by
// `go test ./...`. The text is every Markdown file of the module outside
// bench/ (the root README, the contract and its parts, each chapter's
// README, part files, guides and worked answers) and the data files that
// hold the course's prose (chapter 07's cards, mock, pushback, dives and
// rubric; the study plans).
package doclint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/internal/history"
)

// root is the module's root, from this package's folder.
const root = "../.."

// texts are the course's text files from the module root, Markdown and the
// prose data files (data/*.yaml); a nested module (a folder with a go.mod
// of its own, such as bench/) and testdata are left out.
func texts(t *testing.T) (markdown, data []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || exists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".md"):
			markdown = append(markdown, path)
		case strings.HasSuffix(path, ".yaml") && filepath.Base(filepath.Dir(path)) == "data":
			data = append(data, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(markdown) < 20 || len(data) < 7 {
		t.Fatalf("%d Markdown and %d data files found, want at least 20 and 7: is %s the module root?", len(markdown), len(data), root)
	}
	return markdown, data
}

// eachMarkdown calls fn with each Markdown file of the course and its text.
func eachMarkdown(t *testing.T, fn func(file, text string)) {
	t.Helper()
	markdown, _ := texts(t)
	for _, f := range markdown {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fn(f, string(b))
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestNoTextTellsItsHistory: no text narrates its own past ("this chapter
// used to…"); what changed belongs in git (history.Find says what counts).
func TestNoTextTellsItsHistory(t *testing.T) {
	markdown, data := texts(t)
	for _, f := range append(markdown, data...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range history.Find(string(b)) {
			t.Errorf("%s:%d tells its history (%q): …%s…", f, p.Line, p.Phrase, p.Excerpt)
		}
	}
}

// TestNoMarkdownFileOver450Lines: the repository's rule for every file,
// held here for the Markdown, which is what grows past it; a longer
// chapter goes on in a part file, a longer guide in another guide.
func TestNoMarkdownFileOver450Lines(t *testing.T) {
	markdown, _ := texts(t)
	for _, f := range markdown {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(b), "\n"); lines > 450 {
			t.Errorf("%s: %d lines, want at most 450", f, lines)
		}
	}
}
