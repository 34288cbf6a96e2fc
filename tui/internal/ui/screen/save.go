package screen

import tea "github.com/charmbracelet/bubbletea"

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
	return func() tea.Msg { return Saved{Err: write()} }
}
