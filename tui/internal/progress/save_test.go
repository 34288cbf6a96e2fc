package progress

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// diskLog records what a store writes, in order.
type diskLog struct {
	mu  sync.Mutex
	ops []string
	err error
}

func (d *diskLog) Write(path string, data []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := strings.Count(string(data), `"last"`)
	d.ops = append(d.ops, "write "+strings.Repeat("c", n))
	return d.err
}

func (d *diskLog) Remove(path string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ops = append(d.ops, "remove")
	return d.err
}

// Saves run in any order write the newest snapshot once; a reset taken
// after a save is not undone by that save running late; an error comes
// back from the write that met it.
func TestSavesWriteTheNewestSnapshotOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		run   func(st *Store) []func() error // the writes, in the order to run them
		want  []string
		cards int
	}{
		{"in order", func(st *Store) []func() error {
			st.Score("a", true)
			w1 := st.Saving()
			st.Score("b", true)
			return []func() error{w1, st.Saving()}
		}, []string{"write cc"}, 2},
		{"the older last", func(st *Store) []func() error {
			st.Score("a", true)
			w1 := st.Saving()
			st.Score("b", true)
			return []func() error{st.Saving(), w1}
		}, []string{"write cc"}, 2},
		{"reset after a save run late", func(st *Store) []func() error {
			st.Score("a", true)
			w1 := st.Saving()
			return []func() error{st.Resetting(), w1}
		}, []string{"remove"}, 0},
		{"a save after a reset", func(st *Store) []func() error {
			st.Score("a", true)
			r := st.Resetting()
			st.Score("b", false)
			return []func() error{r, st.Saving()}
		}, []string{"write c"}, 1}, // the newest state is the file
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &diskLog{}
			st := &Store{path: "progress.json", P: Empty()}
			st.UseDisk(d)
			for _, w := range tc.run(st) {
				if err := w(); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Flush(); err != nil {
				t.Fatal(err)
			}
			if strings.Join(d.ops, ",") != strings.Join(tc.want, ",") || len(st.P.Cards) != tc.cards {
				t.Fatalf("disk saw %q and %d cards are held, want %q and %d", d.ops, len(st.P.Cards), tc.want, tc.cards)
			}
		})
	}
	d := &diskLog{err: errors.New("disk full")}
	st := &Store{path: "progress.json", P: Empty()}
	st.UseDisk(d)
	if err := st.Saving()(); err == nil || err.Error() != "disk full" {
		t.Fatalf("the write's error is %v, want disk full", err)
	}
}

// Flush writes a snapshot no write has run for (the app ended first).
func TestFlushWritesWhatNoSaveRan(t *testing.T) {
	d := &diskLog{}
	st := &Store{path: "progress.json", P: Empty()}
	st.UseDisk(d)
	st.Score("a", true)
	_ = st.Saving() // never run
	if err := st.Flush(); err != nil || len(d.ops) != 1 {
		t.Fatalf("flush: %v, disk saw %q", err, d.ops)
	}
	if err := st.Flush(); err != nil || len(d.ops) != 1 {
		t.Fatalf("a second flush wrote again: %v, %q", err, d.ops)
	}
}
