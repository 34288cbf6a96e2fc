package course

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/ratelimit-course/ratelimit/chapters"
	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// The chapters list is text a reviewer edits without Go: data/chapters.yaml
// names the chapters in order (the screens each offers are the app's
// registry's: app/screens.go). It is read once,
// when the package starts, and checked; a list that does not load is a
// programming error: the package panics when it starts, and
// TestChaptersLoad names the fault.

//go:embed data/chapters.yaml
var dataFS embed.FS

var chapterList = mustLoadChapters(dataFS, "data/chapters.yaml")

// Chapters is the course in order: a copy.
func Chapters() []Entry {
	return slices.Clone(chapterList)
}

func mustLoadChapters(fsys fs.FS, name string) []Entry {
	list, err := loadChapters(fsys, name)
	if err != nil {
		panic(fmt.Sprintf("course: %v", err))
	}
	return list
}

// loadChapters reads the chapters list strictly (a key it does not know is
// an error) and checks it: each chapter exists, once.
func loadChapters(fsys fs.FS, name string) ([]Entry, error) {
	var rows []struct {
		Chapter int `yaml:"chapter"`
	}
	if err := strictyaml.DecodeFile(fsys, name, &rows); err != nil {
		return nil, err
	}
	var errs []error
	seen := map[int]bool{}
	list := make([]Entry, 0, len(rows))
	for _, r := range rows {
		if chapters.Dir(r.Chapter) == "" || seen[r.Chapter] {
			errs = append(errs, fmt.Errorf("%s: chapter %d is not a chapter of the course or is listed twice", name, r.Chapter))
		}
		seen[r.Chapter] = true
		list = append(list, Entry{Num: r.Chapter, README: chapters.README(r.Chapter)})
	}
	if len(list) == 0 {
		errs = append(errs, fmt.Errorf("%s: no chapters", name))
	}
	return list, errors.Join(errs...)
}
