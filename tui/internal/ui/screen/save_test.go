package screen

import (
	"errors"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

type fakeSaver struct{ err error }

func (f fakeSaver) Saving() func() error { return func() error { return f.err } }

// A save and a command made by Work are marked as work; a tick, or any
// other command, is not, so a test harness waits only for the first.
func TestWorkIsMarked(t *testing.T) {
	save := Save(fakeSaver{errors.New("disk full")})
	if !IsWork(save) {
		t.Error("a save is not marked as work")
	}
	if msg, ok := save().(Saved); !ok || msg.Err == nil || msg.Err.Error() != "disk full" {
		t.Errorf("the save answered %v, want Saved with its error", msg)
	}
	if !IsWork(Work(func() tea.Msg { return nil })) {
		t.Error("a command made by Work is not marked")
	}
	tick := tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil })
	if IsWork(tick) || IsWork(func() tea.Msg { return nil }) {
		t.Error("a tick or a plain command is marked as work")
	}
}
