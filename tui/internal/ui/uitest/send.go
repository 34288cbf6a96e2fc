package uitest

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Send delivers msg to m through update, then what its commands send back,
// as the Bubble Tea runtime would, one at a time; a command that has not
// answered within patience (a tick, a timer) is dropped, so that a test
// delivers those itself. A batch's commands each run; a quit ends nothing.
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
		select {
		case out = <-ch:
		case <-time.After(patience):
			continue
		}
		switch out := out.(type) {
		case tea.BatchMsg:
			queue = append(queue, out...)
		case nil, tea.QuitMsg:
		default:
			var next tea.Cmd
			m, next = update(m, out)
			queue = append(queue, next)
		}
	}
	return m
}
