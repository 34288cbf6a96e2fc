package main

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// player is the cursor of a stepped screen (the lab, the prefetch lab):
// positions 0..last, moved by the step keys, or played one position per
// tick. playID discards the ticks of an earlier play.
type player struct {
	cursor  int
	playing bool
	playID  int
}

// playEvery is the play speed: one position per tick.
const playEvery = 450 * time.Millisecond

// stepKey handles the step keys over 0..last; tick makes the screen's tick
// message for a play id. It reports whether msg was one of them. Stepping
// with the arrows keeps a play going; home and end stop it.
func (p *player) stepKey(msg tea.KeyMsg, last int, tick func(id int) tea.Msg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, skeys.Next):
		p.cursor = min(p.cursor+1, last)
	case key.Matches(msg, skeys.Prev):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, skeys.First):
		p.cursor, p.playing = 0, false
	case key.Matches(msg, skeys.Last):
		p.cursor, p.playing = max(last, 0), false
	case key.Matches(msg, skeys.Play):
		return p.toggle(last, tick), true
	default:
		return nil, false
	}
	return nil, true
}

func (p *player) pause() { p.playing = false }

// toggle pauses a play, or starts one (from the start when the cursor is at
// the end). There is nothing to play with one position or none.
func (p *player) toggle(last int, tick func(id int) tea.Msg) tea.Cmd {
	if p.playing || last <= 0 {
		p.playing = false
		return nil
	}
	if p.cursor >= last {
		p.cursor = 0
	}
	p.playing = true
	p.playID++
	return p.next(tick)
}

func (p *player) next(tick func(id int) tea.Msg) tea.Cmd {
	id := p.playID
	return tea.Tick(playEvery, func(time.Time) tea.Msg { return tick(id) })
}

// advance moves a play on by one position for the tick of play id, and
// stops it at last.
func (p *player) advance(id, last int, tick func(id int) tea.Msg) tea.Cmd {
	if !p.playing || id != p.playID {
		return nil
	}
	p.cursor = min(p.cursor+1, last)
	if p.cursor >= last {
		p.playing = false
		return nil
	}
	return p.next(tick)
}
