// Package chapters holds the course text: every chapter's README.md, embedded
// here once so that the terminal app shows what a learner reads on disk.
package chapters

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
)

//go:embed */README.md
var text embed.FS

// README returns chapter n's text (the README.md of the folder "NN-…"), or ""
// if there is no such chapter.
func README(n int) string {
	matches, _ := fs.Glob(text, fmt.Sprintf("%02d-*/README.md", n))
	if len(matches) != 1 {
		return ""
	}
	b, _ := fs.ReadFile(text, matches[0])
	return string(b)
}

// Folder returns chapter n's folder name ("04-buckets"), or "" if there is
// no such chapter.
func Folder(n int) string {
	matches, _ := fs.Glob(text, fmt.Sprintf("%02d-*/README.md", n))
	if len(matches) != 1 {
		return ""
	}
	return path.Dir(matches[0])
}
