package app

import (
	"errors"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

// countingDisk stands in for the progress file: it counts the writes and
// removals, and fails them with err.
type countingDisk struct {
	mu             sync.Mutex
	writes, remove int
	err            error
}

func (d *countingDisk) Write(string, []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.writes++
	return d.err
}

func (d *countingDisk) Remove(string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.remove++
	return d.err
}

func (d *countingDisk) ops() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.writes + d.remove
}

// runAll runs cmd and every command it batches or sequences, as the
// runtime would, and returns what they sent back; a command that has not
// answered within a second (a clock's tick) is left.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(time.Second):
		return nil
	}
	if cmds, ok := uitest.Cmds(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, runAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// Every change of the saved progress is saved by a command: Update itself
// never touches the disk, and running the command it returns writes once.
func TestUpdateLeavesTheDiskToACommand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before []string // keys that set the scene (their saves run)
		key    string   // the key that changes the progress
	}{
		{"a card scored", []string{"D", "space"}, "y"},
		{"a worked example opened", nil, "L"},
		{"a screen opened", nil, "R"},
		{"a chapter read to its end", []string{"1"}, "G"},
		{"an exercise marked", []string{"G", "tab"}, "x"}, // on step w09, an exercise
		{"the progress reset", []string{"ctrl+r"}, "ctrl+r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := appNew(t, 80, 24)
			disk := &countingDisk{}
			m.store.UseDisk(disk)
			m = appPress(m, tc.before...)
			if tc.key == "x" {
				m = stepTo(t, m, "w09")
			}
			before := disk.ops()
			nm, cmd := m.Update(appKey(tc.key))
			if got := disk.ops() - before; got != 0 {
				t.Fatalf("Update wrote to the disk %d times", got)
			}
			saved := false
			for _, msg := range runAll(cmd) {
				if s, ok := msg.(screen.Saved); ok && s.Err == nil {
					saved = true
				}
				if _, ok := msg.(resetDone); ok {
					saved = true
				}
				nm, _ = nm.Update(msg)
			}
			if got := disk.ops() - before; got != 1 || !saved {
				t.Fatalf("the command wrote %d times (saved: %v), want once", got, saved)
			}
		})
	}
}

// A save that fails is shown until one succeeds; the app goes on.
func TestAFailedSaveIsShown(t *testing.T) {
	m := appNew(t, 80, 24)
	disk := &countingDisk{err: errors.New("disk full")}
	m.store.UseDisk(disk)
	m = appPress(m, "D", "space", "y")
	f := m.View()
	appWant(t, f, "card 1: got it", "progress not saved: disk full")
	appCheckFrame(t, f, 80, 24)
	disk.mu.Lock()
	disk.err = nil
	disk.mu.Unlock()
	m = appPress(m, "space", "m")
	appLacks(t, m.View(), "not saved")
	appWant(t, m.View(), "card 2: missed")
}

// recordReading scans the chapter shown on what can change what it shows
// (a key, a resize, a chapter opened), never on a tick or another
// screen's message.
func TestTicksDoNotScanTheChapter(t *testing.T) {
	type tick struct{}
	m := appPress(appNew(t, 80, 24), "1")
	if m.counts.readings != 1 {
		t.Fatalf("opening a chapter scanned it %d times, want 1", m.counts.readings)
	}
	for range 50 {
		m = appSend(m, tick{})
	}
	if m.counts.readings != 1 {
		t.Fatalf("50 ticks scanned the chapter %d more times, want none", m.counts.readings-1)
	}
	m = appPress(m, "down")
	m = appSend(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.counts.readings != 3 {
		t.Fatalf("a key and a resize scanned the chapter %d times, want 2", m.counts.readings-1)
	}
}
