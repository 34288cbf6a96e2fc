package main

import (
	tea "github.com/charmbracelet/bubbletea"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The chapter 07 drill as cards: read the question, answer aloud, then
// reveal the model answer. The questions are chapter 07's data.

type cardsModel struct {
	i      int  // index into interview.Drill
	reveal bool // the answer is showing
}

func (m cardsModel) update(msg tea.KeyMsg) (cardsModel, bool) {
	n := len(interview.Drill)
	if n == 0 {
		return m, false
	}
	switch msg.String() {
	case "right", "l", "n":
		m.i, m.reveal = (m.i+1)%n, false
	case "left", "h", "N":
		m.i, m.reveal = (m.i+n-1)%n, false
	case " ", "enter", "down", "j":
		m.reveal = !m.reveal
	case "home", "g":
		m.i, m.reveal = 0, false
	case "c":
		// Jump to the first card of the next chapter.
		start := interview.Drill[m.i].Chapter
		for k := 1; k < n; k++ {
			if j := (m.i + k) % n; interview.Drill[j].Chapter != start {
				m.i, m.reveal = j, false
				break
			}
		}
	default:
		return m, false
	}
	return m, true
}
