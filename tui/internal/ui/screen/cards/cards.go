// Package cards is chapter 07's drill as cards, scored and saved.
package cards

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The chapter 07 drill as cards: read the question, answer aloud, reveal
// the sentence to say first, then the follow-up (the full answer with its
// proof), and say whether you had it (y) or missed it (m). The verdicts are
// saved under the card's ID; the cards missed last time come first next
// time.

type Model struct {
	th    *widget.Theme
	w, h  int
	help  help.Model
	store *progress.Store

	order  []int // indices into interview.Drill(), missed cards first
	i      int   // position in order
	reveal bool  // the sentence to say first is shown
	follow bool  // and the follow-up: the full answer
	note   string
	// This session's verdicts, and whether the last card of the deck has
	// been scored (the end of the deck shows the session's score).
	got, missed int
	end         bool
}

func New(th *widget.Theme, store *progress.Store) Model {
	return Model{th: th, help: widget.NewHelp(th), store: store}
}

// Open deals the cards for this session: missed last time first, then
// those not scored yet, then those got, each group in course order.
func (m Model) Open() Model {
	m.order = progress.DrillOrder(interview.Drill(), m.store.P.Cards)
	m.i, m.reveal, m.follow, m.note = 0, false, false, ""
	m.got, m.missed, m.end = 0, 0, false
	if missed := m.missedCount(); missed > 0 {
		m.note = fmt.Sprintf("%d cards you missed last time come first", missed)
		if missed == 1 {
			m.note = "1 card you missed last time comes first"
		}
	}
	return m
}

func (m Model) missedCount() int {
	n := 0
	for _, q := range interview.Drill() {
		if m.store.P.Cards[q.ID].Last == "missed" {
			n++
		}
	}
	return n
}

func (m Model) card() (interview.Question, bool) {
	if len(m.order) == 0 {
		return interview.Question{}, false
	}
	return interview.Drill()[m.order[m.i]], true
}

// Update moves between cards, reveals, and scores.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) { return m.update(msg) }

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
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
		if m.end {
			return m.endKey(msg)
		}
		switch {
		case key.Matches(msg, keys.Again):
			return m.Open(), nil
		case key.Matches(msg, keys.Reveal):
			// Say first, then the follow-up, then hidden again.
			switch {
			case !m.reveal:
				m.reveal = true
			case !m.follow:
				m.follow = true
			default:
				m.reveal, m.follow = false, false
			}
		case key.Matches(msg, keys.Got), key.Matches(msg, keys.Missed):
			if !m.reveal {
				m.note = "show what to say first (" + widget.KeyName(keys.Reveal) + "), then score it"
				break
			}
			return m.score(q, key.Matches(msg, keys.Got))
		case key.Matches(msg, keys.Next):
			m.i, m.reveal, m.follow = (m.i+1)%n, false, false
		case key.Matches(msg, keys.Prev):
			m.i, m.reveal, m.follow = (m.i+n-1)%n, false, false
		case key.Matches(msg, keys.NextChapter):
			m = m.nextChapter(q.Chapter)
		}
	}
	return m, nil
}

// endKey handles a key on the end screen: again starts over, previous
// goes back to the last card, any other key does nothing.
func (m Model) endKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if key.Matches(msg, keys.Again) {
		return m.Open(), nil
	}
	if key.Matches(msg, keys.Prev) {
		m.end = false
	}
	return m, nil
}

// score records card q as got or missed, says so in the note, and moves
// to the next card, or to the end screen after the last; the command saves
// the score.
func (m Model) score(q interview.Question, got bool) (Model, tea.Cmd) {
	m.store.Score(q.ID, got)
	verdict := "missed: it comes back first next time, and tomorrow"
	if got {
		now := m.store.Now()
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
		days := int(m.store.P.Cards[q.ID].Due.Sub(today).Hours()/24 + 0.5)
		verdict = fmt.Sprintf("got it: it comes back in %d days", days)
		if days == 1 {
			verdict = "got it: it comes back tomorrow"
		}
	}
	m.note = fmt.Sprintf("card %d: %s", m.i+1, verdict)
	save := screen.Save(m.store)
	if got {
		m.got++
	} else {
		m.missed++
	}
	if m.i == len(m.order)-1 {
		m.end, m.reveal, m.follow = true, false, false
		return m, save
	}
	m.i, m.reveal, m.follow = m.i+1, false, false
	return m, save
}

// nextChapter moves to the next card, in order and wrapping, from a
// chapter other than chapter; it stays put if every card is from it.
func (m Model) nextChapter(chapter string) Model {
	n := len(m.order)
	for k := 1; k < n; k++ {
		if j := (m.i + k) % n; interview.Drill()[m.order[j]].Chapter != chapter {
			m.i, m.reveal, m.follow = j, false, false
			break
		}
	}
	return m
}

func (m Model) CapturesEsc() bool { return false }
func (m Model) Keys() help.KeyMap { return m.shownKeys() }

// shownKeys are the keys that do something now: y and m score only once
// there is an answer to score against (before it they say to reveal it
// first), and the end of the deck takes only r, ← and esc.
func (m Model) shownKeys() keyMap {
	k := keys
	if m.end { // the end screen: again, back to the last card, or leave
		k.end = true
		for _, b := range []*key.Binding{&k.Reveal, &k.Got, &k.Missed, &k.Next, &k.NextChapter} {
			b.SetEnabled(false)
		}
		return k
	}
	if !m.reveal {
		k.Got.SetEnabled(false)
		k.Missed.SetEnabled(false)
	}
	return k
}
func (m Model) Name() string { return "question cards" }

// Resize gives the cards the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

// View renders one card.
func (m Model) View() string {
	th, w := m.th, m.w
	footer := []string{widget.HelpLine(m.help, m.Keys(), w)}
	if m.note != "" {
		footer = append([]string{th.Paint(widget.StQueued, m.note)}, footer...)
	}
	q, ok := m.card()
	if !ok {
		return widget.Frame([]string{th.Paint(widget.StTitle, "07 · Interview drill"), th.Paint(widget.StDim, "no questions yet")}, footer, w, m.h)
	}
	if m.end {
		body := []string{widget.TitleBar(th, th.Paint(widget.StTitle, "07 · Interview drill")+th.Paint(widget.StDim, "   end of the deck"), w), "",
			th.Paint(widget.StHeading, fmt.Sprintf("End of the deck: %d cards, this session %d got, %d missed", len(m.order), m.got, m.missed)), ""}
		if m.missed > 0 {
			body = append(body, widget.WrapRows(th, widget.StNone, fmt.Sprintf("The %d missed come first when the deck is dealt again.", m.missed), w, 2)...)
		}
		body = append(body, th.Paint(widget.StLabel, widget.KeyHint(keys.Again)+" · "+widget.KeyName(keys.Prev)+" back to the last card · "+widget.KeyHint(widget.Global.Back)))
		return widget.Frame(body, footer, w, m.h)
	}
	sc := m.store.P.Cards[q.ID]
	scored := "not scored yet"
	if sc.Got+sc.Missed > 0 {
		scored = fmt.Sprintf("got %d, missed %d, last %s", sc.Got, sc.Missed, sc.Last)
	}
	// The title keeps to what fits 80 columns whole; the session's score and
	// the topic have rows of their own.
	title := th.Paint(widget.StTitle, "07 · Interview drill") +
		th.Paint(widget.StDim, fmt.Sprintf("   card %d of %d · chapter %s", m.i+1, len(m.order), q.Chapter))
	body := []string{widget.TitleBar(th, title, w),
		th.Paint(widget.StDim, fmt.Sprintf("this card: %s · this session: %d got, %d missed", scored, m.got, m.missed)),
		th.Paint(widget.StHeading, "Question") + th.Paint(widget.StDim, " · "+q.Topic)}
	for _, l := range widget.WrapRows(th, widget.StNone, q.Q, w-2, 4) {
		body = append(body, "  "+l)
	}
	if m.reveal {
		body = append(body, th.Paint(widget.StHeading, "Say first"))
		for _, l := range widget.WrapRows(th, widget.StAllowed, q.SayFirst, w-2, 3) {
			body = append(body, "  "+l)
		}
		if m.follow {
			body = append(body, th.Paint(widget.StHeading, "Then the follow-up")+th.Paint(widget.StDim, " (the proof)"))
			for _, l := range widget.WrapRows(th, widget.StNone, q.A, w-2, m.h-len(body)-len(footer)-2) {
				body = append(body, "  "+l)
			}
		} else {
			body = append(body, th.Paint(widget.StDim, "Now the proof aloud, then "+widget.KeyName(keys.Reveal)+" for the follow-up."))
		}
		body = append(body, "", th.Paint(widget.StLabel, "Did you have it?  "+widget.KeyHint(keys.Got)+" · "+widget.KeyHint(keys.Missed)))
	} else {
		body = append(body, "", th.Paint(widget.StDim, "Answer aloud first, then press "+widget.KeyName(keys.Reveal)+" for what to say first."))
	}
	return widget.Frame(body, footer, w, m.h)
}

// Card is the card shown, if there is one.
func (m Model) Card() (interview.Question, bool) { return m.card() }

// Revealed reports whether the sentence to say first is shown;
// FollowUp whether the full answer is too.
func (m Model) Revealed() bool { return m.reveal }
func (m Model) FollowUp() bool { return m.follow }

// Index is the position in the deck; Order the deck, as indices into
// chapter 07's Drill.
func (m Model) Index() int   { return m.i }
func (m Model) Order() []int { return m.order }

// At shows card i of the deck, its answer (say first and the follow-up)
// revealed or not.
func (m Model) At(i int, revealed bool) Model {
	m.i, m.reveal, m.follow = min(max(i, 0), max(len(m.order)-1, 0)), revealed, revealed
	return m
}

// OpenIDs deals only the cards ids, in that order (a study plan's step);
// unknown ids are left out, and none known deals the whole drill.
func (m Model) OpenIDs(ids []string) Model {
	m = m.Open()
	var order []int
	for _, id := range ids {
		for i, q := range interview.Drill() {
			if q.ID == id {
				order = append(order, i)
			}
		}
	}
	if len(order) > 0 {
		m.order, m.note = order, fmt.Sprintf("the plan's %d cards", len(order))
	}
	return m
}
