package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The learner's progress (scored drill cards, finished mock interviews) is
// a small JSON file under the user's config directory. A missing file is a
// fresh start; a file that cannot be read or parsed is a fresh start with a
// note saying so, never a crash. Saving goes through a temporary file and a
// rename, so a crash mid-write leaves the old file whole.

// progressVersion is the file's format; another version starts fresh.
const progressVersion = 1

type savedProgress struct {
	Version    int                  `json:"version"`
	Cards      map[string]cardScore `json:"cards"` // by drillCardID
	Interviews []interviewRecord    `json:"interviews"`
}

// cardScore is one drill card's record: how often it was got and missed,
// and the last verdict.
type cardScore struct {
	Got    int    `json:"got"`
	Missed int    `json:"missed"`
	Last   string `json:"last"` // "got" or "missed"
}

// interviewRecord is one finished mock interview.
type interviewRecord struct {
	Prompt  string        `json:"prompt"`
	At      time.Time     `json:"at"`
	Phases  []phaseRecord `json:"phases"`
	Review  []string      `json:"review"` // chapters to review, "03"…
	Covered int           `json:"covered"`
	Points  int           `json:"points"`
}

type phaseRecord struct {
	Seconds int   `json:"seconds"` // time spent in the phase
	Ticked  []int `json:"ticked"`  // checklist indices covered
}

// progressStore is the file and what it held.
type progressStore struct {
	path string
	p    savedProgress
}

// progressPath is where the progress lives: <config dir>/ratelimit-course/progress.json.
func progressPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "ratelimit-course", "progress.json"), nil
}

func emptyProgress() savedProgress {
	return savedProgress{Version: progressVersion, Cards: map[string]cardScore{}}
}

// loadProgress reads the learner's progress. note is "" for a good or
// missing file, else says why the course started fresh.
func loadProgress() (st *progressStore, note string) {
	st = &progressStore{p: emptyProgress()}
	path, err := progressPath()
	if err != nil {
		return st, "progress is not saved: no config directory (" + err.Error() + ")"
	}
	st.path = path
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, ""
	case err != nil:
		return st, "starting fresh: could not read the saved progress: " + err.Error()
	}
	var p savedProgress
	if err := json.Unmarshal(b, &p); err != nil || p.Version != progressVersion {
		why := "not a progress file"
		if err == nil {
			why = fmt.Sprintf("format version %d, this course writes %d", p.Version, progressVersion)
		}
		return st, fmt.Sprintf("starting fresh: the saved progress was unreadable (%s): %s", why, path)
	}
	if p.Cards == nil {
		p.Cards = map[string]cardScore{}
	}
	st.p = p
	return st, ""
}

// save writes the progress; an error is reported, never fatal.
func (s *progressStore) save() error {
	if s == nil || s.path == "" {
		return nil
	}
	b, err := json.MarshalIndent(s.p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".progress-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.path)
}

// resetProgress deletes the saved progress; a missing file is no error.
func resetProgress() (string, error) {
	path, err := progressPath()
	if err != nil {
		return "", err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return path, err
	}
	return path, nil
}

// score records a verdict on a drill card.
func (s *progressStore) score(id string, got bool) {
	c := s.p.Cards[id]
	if got {
		c.Got++
		c.Last = "got"
	} else {
		c.Missed++
		c.Last = "missed"
	}
	s.p.Cards[id] = c
}
