package screen

import (
	"reflect"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// A screen that changes the saved progress (a card scored, an interview
// finished, a plan step marked) saves it with Save: the command takes the
// snapshot at once, on the Update goroutine, and writes it off it, through
// the store's one writer. What the write met comes back as Saved, which the
// app shows: a save's error is never dropped.

// Saver is what Save writes through: the progress store (progress.Saving).
type Saver interface{ Saving() func() error }

// Saved is what a save sends back once written: Err is nil, or why the
// progress was not saved.
type Saved struct{ Err error }

// Save is the command that saves the progress as it is now.
func Save(s Saver) tea.Cmd {
	write := s.Saving()
	return Work(func() tea.Msg { return Saved{Err: write()} })
}

// workCode holds the code of the commands made by Work.
var workCode sync.Map

// Work marks f as a command that does work (a write, a delete) and answers
// when done, unlike a tick that waits on the clock. Every command made by
// the same function literal is marked at once: the mark is its code.
func Work(f func() tea.Msg) tea.Cmd {
	workCode.Store(reflect.ValueOf(f).Pointer(), true)
	return f
}

// IsWork reports whether c was made by Work: a test harness waits for its
// answer however slow the machine, where it drops a tick it does not deliver.
func IsWork(c tea.Cmd) bool {
	_, ok := workCode.Load(reflect.ValueOf(c).Pointer())
	return ok
}
