package interview

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/ratelimit-course/ratelimit/internal/strictyaml"
)

// The chapter's interview content is text a reviewer edits without Go:
// data/skeleton.yaml (the 15-minute answer), data/track.yaml (the
// 45-minute track), data/cards.yaml (the drill cards), data/mock.yaml (the
// mock's prompts and their phases), data/pushback.yaml, data/dives.yaml,
// data/rubric.yaml and data/worked.yaml (the parts of the worked answers
// each phase of the short form shows).
// They are read once, when the package starts, checked (every field a
// reader needs present, ids unique, every id named elsewhere known), and
// kept in unexported variables; Skeleton, Track, Drill, Mock, Pushback
// and Dives hand out copies. A file that does not load is a programming error: the package
// panics when it starts, and TestContentLoads names the file and the fault.

//go:embed data/*.yaml
var dataFS embed.FS

// content is everything the data files hold.
type content struct {
	drill    []Question
	mock     []Prompt
	pushback []Push
	dives    []Dive
	rubric   map[string][5][2]string
	track    []TrackPhase
	skeleton []Step
	worked   []workedMap // the short form's phases in the worked answers
}

// rubricEntry is one prompt's rubric as data/rubric.yaml writes it: one row
// per Track phase, in order.
type rubricEntry struct {
	Prompt string `yaml:"prompt"`
	Rows   []struct {
		Senior string `yaml:"senior"`
		Staff  string `yaml:"staff"`
	} `yaml:"rows"`
}

var loaded = mustLoad(dataFS)

func mustLoad(fsys fs.FS) content {
	c, err := loadContent(fsys)
	if err != nil {
		panic(fmt.Sprintf("interview: the chapter's data files do not load: %v", err))
	}
	return c
}

// loadContent reads and checks the data files of fsys.
func loadContent(fsys fs.FS) (content, error) {
	var c content
	var rubric []rubricEntry
	for _, f := range []struct {
		name string
		into any
	}{
		{"data/track.yaml", &c.track},
		{"data/skeleton.yaml", &c.skeleton},
		{"data/cards.yaml", &c.drill},
		{"data/mock.yaml", &c.mock},
		{"data/pushback.yaml", &c.pushback},
		{"data/dives.yaml", &c.dives},
		{"data/rubric.yaml", &rubric},
		{"data/worked.yaml", &c.worked},
	} {
		if err := strictyaml.DecodeFile(fsys, f.name, f.into); err != nil {
			return content{}, err
		}
	}
	c.rubric = map[string][5][2]string{}
	var errs []error
	for _, r := range rubric {
		var rows [5][2]string
		if len(r.Rows) != len(rows) || len(r.Rows) != len(c.track) {
			errs = append(errs, fmt.Errorf("data/rubric.yaml: prompt %q has %d rows, want one per Track phase (%d)", r.Prompt, len(r.Rows), len(c.track)))
			continue
		}
		if _, dup := c.rubric[r.Prompt]; dup {
			errs = append(errs, fmt.Errorf("data/rubric.yaml: prompt %q twice", r.Prompt))
		}
		for i, row := range r.Rows {
			rows[i] = [2]string{row.Senior, row.Staff}
		}
		c.rubric[r.Prompt] = rows
	}
	if err := errors.Join(append(errs, c.check()...)...); err != nil {
		return content{}, err
	}
	return c, nil
}
