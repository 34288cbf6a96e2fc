package course

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/ratelimit-course/ratelimit/chapters"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// The chapters list is text a reviewer edits without Go: data/chapters.yaml
// names the chapters in order and the screens each offers. It is read once,
// when the package starts, and checked; a list that does not load is a
// programming error: the package panics when it starts, and
// TestChaptersLoad names the fault.

//go:embed data/chapters.yaml
var dataFS embed.FS

// viewKeys are the names data/chapters.yaml gives the screens a chapter
// opens.
var viewKeys = map[string]screen.Kind{
	"lab": screen.Lab, "worst": screen.Worst, "prefetch": screen.Prefetch, "cluster": screen.Cluster,
	"drill": screen.Drill, "mock": screen.Mock, "path": screen.Path, "service": screen.Service,
}

var chapterList = mustLoadChapters(dataFS, "data/chapters.yaml")

// Chapters is the course in order: a copy.
func Chapters() []Entry {
	out := slices.Clone(chapterList)
	for i := range out {
		out[i].Views = slices.Clone(out[i].Views)
	}
	return out
}

func mustLoadChapters(fsys fs.FS, name string) []Entry {
	list, err := loadChapters(fsys, name)
	if err != nil {
		panic(fmt.Sprintf("course: %v", err))
	}
	return list
}

// loadChapters reads the chapters list strictly (a key it does not know is
// an error) and checks it: each chapter exists, once, and each view is a
// screen of viewKeys, once.
func loadChapters(fsys fs.FS, name string) ([]Entry, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Chapter int      `yaml:"chapter"`
		Views   []string `yaml:"views"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var errs []error
	seen := map[int]bool{}
	list := make([]Entry, 0, len(rows))
	for _, r := range rows {
		if chapters.Dir(r.Chapter) == "" || seen[r.Chapter] {
			errs = append(errs, fmt.Errorf("%s: chapter %d is not a chapter of the course or is listed twice", name, r.Chapter))
		}
		seen[r.Chapter] = true
		e := Entry{Num: r.Chapter, README: chapters.README(r.Chapter)}
		for _, v := range r.Views {
			k, ok := viewKeys[v]
			if !ok || slices.Contains(e.Views, k) {
				errs = append(errs, fmt.Errorf("%s: chapter %d: view %q is unknown or listed twice", name, r.Chapter, v))
			}
			e.Views = append(e.Views, k)
		}
		list = append(list, e)
	}
	if len(list) == 0 {
		errs = append(errs, fmt.Errorf("%s: no chapters", name))
	}
	return list, errors.Join(errs...)
}
