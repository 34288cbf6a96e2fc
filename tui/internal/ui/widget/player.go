package widget

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Player is the cursor of a stepped screen (the lab, the prefetch lab):
// positions 0..last, moved by the step keys, or played one position per
// tick. playID discards the ticks of an earlier play.
type Player struct {
	Cursor  int
	Playing bool
	playID  int
}

// PlayEvery is the play speed: one position per tick.
const PlayEvery = 450 * time.Millisecond

// StepKey handles the step keys over 0..last; tick makes the screen's tick
// message for a play id. It reports whether msg was one of them. Stepping
// with the arrows keeps a play going; home and end stop it.
func (p *Player) StepKey(msg tea.KeyMsg, last int, tick func(id int) tea.Msg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, Step.Next):
		p.Cursor = min(p.Cursor+1, last)
	case key.Matches(msg, Step.Prev):
		p.Cursor = max(p.Cursor-1, 0)
	case key.Matches(msg, Step.First):
		p.Cursor, p.Playing = 0, false
	case key.Matches(msg, Step.Last):
		p.Cursor, p.Playing = max(last, 0), false
	case key.Matches(msg, Step.Play):
		return p.toggle(last, tick), true
	default:
		return nil, false
	}
	return nil, true
}

func (p *Player) Pause() { p.Playing = false }

// toggle pauses a play, or starts one (from the start when the cursor is at
// the end). There is nothing to play with one position or none.
func (p *Player) toggle(last int, tick func(id int) tea.Msg) tea.Cmd {
	if p.Playing || last <= 0 {
		p.Playing = false
		return nil
	}
	if p.Cursor >= last {
		p.Cursor = 0
	}
	p.Playing = true
	p.playID++
	return p.next(tick)
}

func (p *Player) next(tick func(id int) tea.Msg) tea.Cmd {
	id := p.playID
	return tea.Tick(PlayEvery, func(time.Time) tea.Msg { return tick(id) })
}

// Advance moves a play on by one position for the tick of play id, and
// stops it at last.
func (p *Player) Advance(id, last int, tick func(id int) tea.Msg) tea.Cmd {
	if !p.Playing || id != p.playID {
		return nil
	}
	p.Cursor = min(p.Cursor+1, last)
	if p.Cursor >= last {
		p.Playing = false
		return nil
	}
	return p.next(tick)
}

// PlayID numbers the plays: a tick of an earlier one is ignored.
func (p Player) PlayID() int { return p.playID }
