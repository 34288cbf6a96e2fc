package main

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The chapter 07 drill as cards: read the question, answer aloud, reveal
// the model answer, then say whether you had it (y) or missed it (m). The
// verdicts are saved; the cards missed last time come first next time.

type cardsModel struct {
	th    *theme
	w, h  int
	help  help.Model
	store *progressStore

	order  []int // indices into interview.Drill, missed cards first
	i      int   // position in order
	reveal bool
	note   string
}

func newCardsModel(th *theme, store *progressStore) cardsModel {
	return cardsModel{th: th, help: newHelp(th), store: store}
}

// open deals the cards for this session: missed last time first, then
// those not scored yet, then those got, each group in course order.
func (m cardsModel) open() cardsModel {
	m.order = drillOrder(interview.Drill, m.store.p.Cards)
	m.i, m.reveal, m.note = 0, false, ""
	if missed := m.missedCount(); missed > 0 {
		m.note = fmt.Sprintf("%d cards you missed last time come first", missed)
	}
	return m
}

func (m cardsModel) missedCount() int {
	n := 0
	for _, q := range interview.Drill {
		if m.store.p.Cards[drillCardID(q)].Last == "missed" {
			n++
		}
	}
	return n
}

func (m cardsModel) card() (interview.Question, bool) {
	if len(m.order) == 0 {
		return interview.Question{}, false
	}
	return interview.Drill[m.order[m.i]], true
}

// Update moves between cards, reveals, and scores.
func (m cardsModel) Update(msg tea.Msg) (cardsModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		n := len(m.order)
		q, ok := m.card()
		if !ok {
			return m, nil
		}
		m.note = ""
		switch {
		case key.Matches(msg, dkeys.Reveal):
			m.reveal = !m.reveal
		case key.Matches(msg, dkeys.Got), key.Matches(msg, dkeys.Missed):
			if !m.reveal {
				m.note = "show the answer first (" + keyName(dkeys.Reveal) + "), then score it"
				break
			}
			got := key.Matches(msg, dkeys.Got)
			m.store.score(drillCardID(q), got)
			verdict := "missed: it comes back first next time"
			if got {
				verdict = "got it"
			}
			m.note = fmt.Sprintf("card %d: %s", m.i+1, verdict)
			if err := m.store.save(); err != nil {
				m.note += " (not saved: " + err.Error() + ")"
			}
			m.i, m.reveal = (m.i+1)%n, false
		case key.Matches(msg, dkeys.Next):
			m.i, m.reveal = (m.i+1)%n, false
		case key.Matches(msg, dkeys.Prev):
			m.i, m.reveal = (m.i+n-1)%n, false
		case key.Matches(msg, dkeys.NextChapter):
			for k := 1; k < n; k++ {
				if j := (m.i + k) % n; interview.Drill[m.order[j]].Chapter != q.Chapter {
					m.i, m.reveal = j, false
					break
				}
			}
		}
	}
	return m, nil
}

func (m cardsModel) wantsEsc() bool  { return false }
func (m cardsModel) keyMap() helpMap { return dkeys }

// View renders one card.
func (m cardsModel) View() string {
	th, w := m.th, m.w
	footer := []string{helpLine(m.help, m.keyMap(), w)}
	if m.note != "" {
		footer = append([]string{th.paint(stQueued, m.note)}, footer...)
	}
	q, ok := m.card()
	if !ok {
		return frame([]string{th.paint(stTitle, "07 · Interview drill"), th.paint(stDim, "no questions yet")}, footer, w, m.h)
	}
	sc := m.store.p.Cards[drillCardID(q)]
	scored := "not scored yet"
	if sc.Got+sc.Missed > 0 {
		scored = fmt.Sprintf("got %d, missed %d, last %s", sc.Got, sc.Missed, sc.Last)
	}
	title := th.paint(stTitle, "07 · Interview drill") +
		th.paint(stDim, fmt.Sprintf("   card %d of %d · chapter %s · %s", m.i+1, len(m.order), q.Chapter, q.Topic))
	body := []string{titleBar(th, title, w), th.paint(stDim, "this card: "+scored), th.paint(stHeading, "Question")}
	for _, l := range wrapRows(th, stNone, q.Q, w-2, 4) {
		body = append(body, "  "+l)
	}
	body = append(body, "")
	if m.reveal {
		body = append(body, th.paint(stHeading, "Model answer"))
		for _, l := range wrapRows(th, stNone, q.A, w-2, m.h-len(body)-len(footer)-2) {
			body = append(body, "  "+l)
		}
		body = append(body, "", th.paint(stLabel, "Did you have it?  "+keyHint(dkeys.Got)+" · "+keyHint(dkeys.Missed)))
	} else {
		body = append(body, th.paint(stDim, "Answer aloud first, then press "+keyName(dkeys.Reveal)+" to compare."))
	}
	return frame(body, footer, w, m.h)
}
