package transcript

import (
	"errors"
	"fmt"
	"github.com/ratelimit-course/ratelimit/tui/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Transcripts live in <data dir>/ratelimit-course/transcripts, one file an
// interview, named by when it finished and the question
// (20261204T063000Z-per-user-api.md), so that names sort in time order.
// The data directory is $XDG_DATA_HOME or ~/.local/share on Linux and other
// Unixes, ~/Library/Application Support on macOS, %LocalAppData% on
// Windows. A file is written to a temporary name and renamed, as the
// progress file is, so a crash never leaves half a transcript.

const stamp = "20060102T150405Z"

// Dir is where the transcripts are kept.
func Dir() (string, error) {
	base, err := dataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "ratelimit-course", "transcripts"), nil
}

func dataDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return d, nil
		}
		return "", errors.New("%LocalAppData% is not set")
	case "darwin":
		h, err := os.UserHomeDir()
		return filepath.Join(h, "Library", "Application Support"), err
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, ".local", "share"), nil
}

// Save writes t as a new file and returns its path.
func Save(t Transcript) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := t.At.UTC().Format(stamp) + "-" + t.Prompt
	path := filepath.Join(dir, name+".md")
	for n := 2; exists(path); n++ { // two in one second keep both
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.md", name, n))
	}
	return path, atomicfile.Write(path, []byte(t.Markdown()))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Entry is one saved transcript.
type Entry struct {
	Path   string
	At     time.Time
	Prompt string
}

// List is the saved transcripts, oldest first; a missing directory is none.
func List() ([]Entry, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".md")
		if !ok || de.IsDir() || len(name) <= len(stamp)+1 {
			continue
		}
		at, err := time.Parse(stamp, name[:len(stamp)])
		if err != nil {
			continue
		}
		out = append(out, Entry{Path: filepath.Join(dir, de.Name()), At: at, Prompt: name[len(stamp)+1:]})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Latest is the newest transcript's entry and text; ok is false when
// there is none.
func Latest() (e Entry, text string, ok bool, err error) {
	es, err := List()
	if err != nil || len(es) == 0 {
		return Entry{}, "", false, err
	}
	e = es[len(es)-1]
	b, err := os.ReadFile(e.Path)
	return e, string(b), err == nil, err
}
