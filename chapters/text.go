// Package chapters holds the course text: every chapter's README.md and the
// part files that continue it, embedded here once so that the terminal app
// shows what a learner reads on disk.
package chapters

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
)

//go:embed */README.md 06-distributed/ROUNDTRIPS.md 06-distributed/CLUSTER.md
//go:embed 07-interview/PRODUCTION.md 07-interview/PRACTICE.md
var text embed.FS

// parts are the files that continue a chapter's README.md, by chapter number,
// in reading order. A chapter too long for one file goes on in part files of
// the same folder, each holding one idea; its README.md links every one of
// them. Every file listed here is embedded above.
var parts = map[int][]string{
	6: {"ROUNDTRIPS.md", "CLUSTER.md"},
	7: {"PRODUCTION.md", "PRACTICE.md"},
}

// readme is the path of chapter n's README.md inside text, or "".
func readme(n int) string {
	matches, _ := fs.Glob(text, fmt.Sprintf("%02d-*/README.md", n))
	if len(matches) != 1 {
		return ""
	}
	return matches[0]
}

// Dir is chapter n's folder from the repository root ("chapters/02-fixed-window"),
// or "" if there is no such chapter.
func Dir(n int) string {
	r := readme(n)
	if r == "" {
		return ""
	}
	return path.Join("chapters", path.Dir(r))
}

// Folder returns chapter n's folder name ("04-buckets"), or "" if there is
// no such chapter.
func Folder(n int) string {
	r := readme(n)
	if r == "" {
		return ""
	}
	return path.Dir(r)
}

// Files are chapter n's text files from the repository root, in reading
// order: "chapters/06-distributed/README.md" first, then its part files.
// There are none if there is no such chapter.
func Files(n int) []string {
	r := readme(n)
	if r == "" {
		return nil
	}
	files := []string{path.Join("chapters", r)}
	for _, p := range parts[n] {
		files = append(files, path.Join("chapters", path.Dir(r), p))
	}
	return files
}

// README returns chapter n's whole text, or "" if there is no such chapter:
// its README.md, then each part file from its first level-2 heading on. A
// part's lines before that (its own title, a link back) serve the file on
// disk; the chapter keeps the one title of its README.md. In one text, a
// link from one of the chapter's files to another ("[below](CLUSTER.md#…)")
// has nowhere to go, so it keeps only its words.
func README(n int) string {
	files := Files(n)
	var b strings.Builder
	for i, f := range files {
		s := read(f)
		if i > 0 {
			s = fromFirstSection(s)
			if !strings.HasSuffix(b.String(), "\n\n") {
				b.WriteString("\n")
			}
		}
		b.WriteString(s)
	}
	if len(files) == 1 {
		return b.String()
	}
	return unlinkFiles(b.String(), files)
}

// fileLink is a Markdown link to a file of the same folder, with or without
// an anchor: its words, the file and the anchor.
var fileLink = regexp.MustCompile(`\[([^\]]+)\]\(([A-Za-z0-9_-]+\.md)(#[^)]*)?\)`)

// unlinkFiles is s with each link to one of files (paths from the
// repository root, all in one folder) replaced by its words.
func unlinkFiles(s string, files []string) string {
	own := map[string]bool{}
	for _, f := range files {
		own[path.Base(f)] = true
	}
	return fileLink.ReplaceAllStringFunc(s, func(link string) string {
		if m := fileLink.FindStringSubmatch(link); own[m[2]] {
			return m[1]
		}
		return link
	})
}

// File is the file of chapter n, from the repository root, that holds the
// level-2 heading "## heading": README.md when heading is "" or no file has
// it, "" if there is no such chapter.
func File(n int, heading string) string {
	files := Files(n)
	if len(files) == 0 {
		return ""
	}
	if heading != "" {
		for _, f := range files {
			if hasSection(read(f), heading) {
				return f
			}
		}
	}
	return files[0]
}

// read is the embedded text of file, a path from the repository root.
func read(file string) string {
	b, _ := fs.ReadFile(text, strings.TrimPrefix(file, "chapters/"))
	return string(b)
}

// fromFirstSection is s from its first level-2 heading outside fenced code
// on, or all of s if it has none.
func fromFirstSection(s string) string {
	if at, _ := sections(s); len(at) > 0 {
		return s[at[0]:]
	}
	return s
}

// hasSection reports whether s has the level-2 heading "## heading" outside
// fenced code.
func hasSection(s, heading string) bool {
	_, titles := sections(s)
	return slices.Contains(titles, heading)
}

// sections are s's level-2 headings outside fenced code: where each line
// starts, and its title.
func sections(s string) (at []int, titles []string) {
	fenced, pos := false, 0
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if h, ok := strings.CutPrefix(line, "## "); ok && !fenced {
			at, titles = append(at, pos), append(titles, strings.TrimSpace(h))
		}
		pos += len(line)
	}
	return at, titles
}
