package app

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// The drill offers y and m only once there is an answer to score against;
// before it, they say so.
func TestDrillOffersScoringOnceRevealed(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	footer := func(m Model) string { rows := strings.Split(m.View(), "\n"); return rows[len(rows)-1] }
	if f := footer(m); strings.Contains(f, "got it") || strings.Contains(f, "missed it") {
		t.Errorf("the footer offers scoring before the answer is shown: %q", f)
	}
	m = appPress(m, "y")
	appWant(t, m.View(), "show what to say first (space), then score it")
	m = appPress(m, "space")
	if f := footer(m); !strings.Contains(f, "y got it") || !strings.Contains(f, "m missed it") {
		t.Errorf("the footer does not offer scoring once revealed: %q", f)
	}
}

// The drill's header shows the card's chapter whole at 80 columns, and the
// topic has a row of its own.
func TestDrillHeaderWholeAt80(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	q := interview.Drill()[0]
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	title := strings.Split(f, "\n")[0]
	if strings.Contains(title, "…") || !strings.Contains(title, "chapter "+q.Chapter) {
		t.Errorf("the header is cut or lacks the chapter: %q", title)
	}
	appWant(t, f, "Question · "+q.Topic, "this session: 0 got, 0 missed")
}

// At the end of the deck the footer offers only what works there: deal
// again, back to the last card, leave; not reveal or the next card.
func TestDrillEndOffersLiveKeysOnly(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "G")
	m = appPress(stepTo(t, m, "e03"), "enter", "space", "y", "space", "y") // the step's two cards, scored
	rows := strings.Split(m.View(), "\n")
	f := rows[len(rows)-1]
	for _, dead := range []string{"reveal", "next card", "got it"} {
		if strings.Contains(f, dead) {
			t.Errorf("the end of the deck offers %q, which does nothing there: %q", dead, f)
		}
	}
	if !strings.Contains(f, "r deal the deck again") || !strings.Contains(f, "← previous card") {
		t.Errorf("the end of the deck does not offer r and ←: %q", f)
	}
}
