package progress

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"sync"

	"github.com/ratelimit-course/ratelimit/tui/internal/atomicfile"
)

// A save is taken in two halves, so that the app's Update never waits on
// the disk: Saving, on the goroutine that changes P, takes a snapshot of
// it; the function it returns, run anywhere later (a tea.Cmd), hands the
// newest snapshot to the store's one writer. The writer writes one at a
// time, and a snapshot a newer one has overtaken is not written at all: the
// file always ends as the newest state, whatever order the saves ran in.

// Disk is where a store's saves go: the progress file, or a test's
// stand-in that counts them.
type Disk interface {
	Write(path string, data []byte) error
	Remove(path string) error
}

// fileDisk is the real disk: a whole file or none (package atomicfile).
type fileDisk struct{}

func (fileDisk) Write(path string, data []byte) error { return atomicfile.Write(path, data) }

func (fileDisk) Remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writer is a store's one writer.
type writer struct {
	mu      sync.Mutex // guards the fields below; never held over the disk
	taken   uint64     // snapshots taken
	done    uint64     // the newest snapshot written (or tried)
	pending snapshot   // the newest snapshot taken
	disk    sync.Mutex // held over the disk: one write at a time
}

// snapshot is the progress at one moment: its bytes, or (remove) none.
type snapshot struct {
	seq    uint64
	data   []byte
	err    error // the progress could not be encoded
	remove bool
}

// UseDisk makes the store's saves go to d instead of the progress file.
func (s *Store) UseDisk(d Disk) { s.to = d }

// Saving takes a snapshot of the progress now and returns the write that
// saves it (or a newer one) through the store's one writer. Call Saving
// where P changes; run the write anywhere.
func (s *Store) Saving() func() error {
	if s == nil || s.path == "" {
		return func() error { return nil }
	}
	b, err := json.MarshalIndent(s.P, "", "  ")
	return s.take(snapshot{data: append(b, '\n'), err: err})
}

// Resetting forgets the progress now (P starts empty) and returns the
// write that deletes the saved file through the store's one writer.
func (s *Store) Resetting() func() error {
	if s == nil {
		return func() error { return nil }
	}
	s.P = Empty()
	if s.path == "" {
		return func() error { return errors.New("no config directory to reset the progress in") }
	}
	return s.take(snapshot{remove: true})
}

// Flush writes the newest snapshot taken if no save has yet: the app calls
// it once it has ended, so that a save still queued is not lost.
func (s *Store) Flush() error {
	if s == nil || s.w == nil {
		return nil
	}
	return s.flush()
}

func (s *Store) take(sn snapshot) func() error {
	if s.w == nil {
		s.w = &writer{}
	}
	w := s.w
	w.mu.Lock()
	w.taken++
	sn.seq = w.taken
	w.pending = sn
	w.mu.Unlock()
	return s.flush
}

// flush writes the newest snapshot, unless it is written already.
func (s *Store) flush() error {
	w := s.w
	w.disk.Lock()
	defer w.disk.Unlock()
	w.mu.Lock()
	sn := w.pending
	if sn.seq <= w.done {
		w.mu.Unlock()
		return nil // written by an earlier call
	}
	w.done = sn.seq
	w.mu.Unlock()
	d := s.to
	if d == nil {
		d = fileDisk{}
	}
	switch {
	case sn.err != nil:
		return sn.err
	case sn.remove:
		return d.Remove(s.path)
	}
	return d.Write(s.path, sn.data)
}
