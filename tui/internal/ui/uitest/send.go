package uitest

import (
	"reflect"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// Send delivers msg to m through update, then what its commands send back,
// as the Bubble Tea runtime would, one at a time; a command that has not
// answered within patience (a tick, a timer) is dropped, so that a test
// delivers those itself, except one that does work (screen.Work: a save),
// which is waited for however slow the machine. A batch's commands each run; a quit ends nothing.
func Send[M any](m M, msg tea.Msg, patience time.Duration, update func(M, tea.Msg) (M, tea.Cmd)) M {
	m, cmd := update(m, msg)
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1) // buffered: a dropped command never blocks
		go func() { ch <- c() }()
		var out tea.Msg
		if screen.IsWork(c) { // a write: its answer comes, however slow the machine
			out = <-ch
		} else {
			select {
			case out = <-ch:
			case <-time.After(patience):
				continue
			}
		}
		if cmds, ok := Cmds(out); ok {
			queue = append(queue, cmds...)
			continue
		}
		switch out.(type) {
		case nil, tea.QuitMsg:
		default:
			var next tea.Cmd
			m, next = update(m, out)
			queue = append(queue, next)
		}
	}
	return m
}

// Cmds are the commands of a tea.Batch's or a tea.Sequence's message (the
// latter's type is Bubble Tea's own), in order; ok is false for any other
// message.
func Cmds(msg tea.Msg) (cmds []tea.Cmd, ok bool) {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b, true
	}
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	for i := range v.Len() {
		cmds = append(cmds, v.Index(i).Interface().(tea.Cmd))
	}
	return cmds, true
}

// updater is a model whose Update answers with an interface (tea.Model,
// screen.Screen) that holds a value of the model's own type.
type updater[S any] interface {
	Update(tea.Msg) (S, tea.Cmd)
}

// SendTo is Send through m's own Update, its answer asserted back to M: a
// test names M and the interface S, as in SendTo[Model, tea.Model].
func SendTo[M updater[S], S any](m M, msg tea.Msg, patience time.Duration) M {
	return Send(m, msg, patience, func(m M, msg tea.Msg) (M, tea.Cmd) {
		s, cmd := m.Update(msg)
		return any(s).(M), cmd
	})
}

// Press delivers each key by name (Key) through send, in turn.
func Press[M any](m M, send func(M, tea.Msg) M, keys ...string) M {
	for _, k := range keys {
		m = send(m, Key(k))
	}
	return m
}
