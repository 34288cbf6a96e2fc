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

// Dir is chapter n's folder from the repository root ("chapters/02-fixed-window"),
// or "" if there is no such chapter.
func Dir(n int) string {
	matches, _ := fs.Glob(text, fmt.Sprintf("%02d-*/README.md", n))
	if len(matches) != 1 {
		return ""
	}
	return path.Join("chapters", path.Dir(matches[0]))
}

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
