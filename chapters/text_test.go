package chapters

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEveryChapterHasText: the app finds each chapter's README by number, and
// a chapter that does not exist has none.
func TestEveryChapterHasText(t *testing.T) {
	for n := 1; n <= 10; n++ {
		if s := README(n); !strings.HasPrefix(s, "# ") {
			t.Errorf("README(%d) starts %q, want a '# ' title", n, s[:min(len(s), 20)])
		}
	}
	if s := README(99); s != "" {
		t.Errorf("README(99) = %q, want empty", s)
	}
}

// TestPartsAreEmbeddedTitledAndLinked: every part file is embedded, starts
// with a '# ' title and has a section; its chapter's README.md links the
// parts in the order README(n) reads them.
func TestPartsAreEmbeddedTitledAndLinked(t *testing.T) {
	for n, names := range parts {
		files := Files(n)
		if len(files) != 1+len(names) {
			t.Fatalf("chapter %d: files %v, want README.md and %v", n, files, names)
		}
		readme := read(files[0])
		last := -1
		for i, name := range names {
			s := read(files[1+i])
			if !strings.HasPrefix(s, "# ") || !strings.Contains(s, "\n## ") {
				t.Errorf("%s: want a '# ' title and a '## ' section (embedded: %v)", files[1+i], s != "")
			}
			at := strings.Index(readme, "]("+name+")")
			if at < 0 {
				t.Errorf("%s does not link %s", files[0], name)
			} else if at < last {
				t.Errorf("%s links %s before the part read ahead of it", files[0], name)
			}
			last = max(last, at)
		}
	}
}

// TestREADMEIsTheWholeChapter: a chapter's text holds its README.md whole
// and every part from its first section on, and File finds the part that
// holds a section.
func TestREADMEIsTheWholeChapter(t *testing.T) {
	for n := range parts {
		files := Files(n)
		whole := README(n)
		if !strings.HasPrefix(whole, unlinkFiles(read(files[0]), files)) {
			t.Errorf("README(%d) does not start with %s", n, files[0])
		}
		if strings.Count(whole, "\n# ") != 0 {
			t.Errorf("README(%d) has a second '# ' title", n)
		}
		for _, f := range files {
			if strings.Contains(whole, "]("+path.Base(f)) {
				t.Errorf("README(%d) still links %s, a file of its own text", n, path.Base(f))
			}
		}
		for _, f := range files[1:] {
			body := unlinkFiles(fromFirstSection(read(f)), files)
			if !strings.Contains(whole, "\n\n"+body) {
				t.Errorf("README(%d) lacks %s from its first section on", n, f)
			}
			heading, _, _ := strings.Cut(strings.TrimPrefix(body, "## "), "\n")
			if got := File(n, heading); got != f {
				t.Errorf("File(%d, %q) = %q, want %q", n, heading, got, f)
			}
		}
		if got := File(n, ""); got != files[0] {
			t.Errorf("File(%d, \"\") = %q, want %q", n, got, files[0])
		}
	}
	if got := File(1, "The idea"); got != "chapters/01-framing/README.md" {
		t.Errorf("File(1, \"The idea\") = %q", got)
	}
}

// guides are the Markdown files beside a chapter's README.md that are not
// part of the chapter's text: chapter 10's guides for operators, and
// chapter 07's page of the questions asked in the limiters' trackers.
var guides = map[string]bool{
	"10-service/OPERATING.md":   true,
	"10-service/REDIS.md":       true,
	"10-service/MIGRATING.md":   true,
	"07-interview/QUESTIONS.md": true,
}

// TestEveryPartFileIsListed: a Markdown file beside a chapter's README.md is
// one of its parts, so the app shows it, unless it is one of the guides.
func TestEveryPartFileIsListed(t *testing.T) {
	found, err := filepath.Glob("*/*.md")
	if err != nil || len(found) < 10 {
		t.Fatalf("chapter files: %v (%v)", found, err)
	}
	for _, f := range found {
		f = filepath.ToSlash(f)
		if strings.HasSuffix(f, "/README.md") || guides[f] {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(f, "%02d-", &n); err != nil || !slices.Contains(Files(n), "chapters/"+f) {
			t.Errorf("%s is neither chapter %d's README.md nor one of its parts", f, n)
		}
	}
}

// TestEveryGuideExists: each guide named above is a file of its chapter
// (internal/doclint holds the Markdown's length and prose lints).
func TestEveryGuideExists(t *testing.T) {
	for g := range guides {
		if _, err := os.Stat(filepath.FromSlash(g)); err != nil {
			t.Errorf("guide %s is missing: %v", g, err)
		}
	}
}
