package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// A drill card reveals the sentence to say first, then, on the same key,
// the follow-up (the full answer); either can be scored.
func TestDrillCardSaysFirstThenFollowsUp(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	q, _ := m.cards().Card()
	end := strings.Join(strings.Fields(q.A)[len(strings.Fields(q.A))-3:], " ")
	m = appPress(m, "space")
	f := flatText(m.View())
	appWant(t, f, "Say first", flatText(q.SayFirst), "y got it")
	if strings.Contains(f, end) {
		t.Fatalf("the full answer shows before the follow-up key:\n%s", m.View())
	}
	m = appPress(m, "space")
	f = flatText(m.View())
	appWant(t, f, "Say first", flatText(q.SayFirst), "follow-up", end)
	appCheckFrame(t, m.View(), 80, 24)
	m = appPress(m, "space")
	if m.cards().Revealed() || strings.Contains(flatText(m.View()), flatText(q.SayFirst)) {
		t.Fatal("a third press hides the answer again")
	}
	m = appPress(m, "space", "y")
	if sc := m.store.P.Cards[q.ID]; sc.Got != 1 {
		t.Fatalf("the score is saved under the card's ID %q: %+v", q.ID, m.store.P.Cards)
	}
}

// Every card's say-first sentence and the end of its answer fit 80x24.
func TestDrillCardsSayFirstFitTheScreen(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "D")
	for i := range interview.Drill() {
		m = m.withTop(m.cards().At(i, true))
		q, _ := m.cards().Card()
		f := flatText(m.View())
		appCheckFrame(t, m.View(), 80, 24)
		if !strings.Contains(f, flatText(q.SayFirst)) {
			t.Errorf("card %s: the say-first sentence is not whole on the 80x24 screen", q.ID)
		}
	}
}

// The request path opens from the menu (R) and from chapter 07's links: a
// screen of its own, every row within 80 columns, scrolled to its end.
func TestRequestPathFromTheMenuAndChapter07(t *testing.T) {
	m := appOpen(t, "R", "request path")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "The request path", "[client]")
	m = appPress(m, "pgdown", "pgdown", "pgdown")
	f = m.View()
	appWant(t, f, "[Redis Cluster]", "about 0.5-2 ms")
	for _, l := range strings.Split(f, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a row of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatalf("esc from the request path lands on %s", m.scr())
	}
	m = appPress(appNew(t, 80, 24), "7")
	appWant(t, m.View(), "the request path")
	if m = appPress(m, "3"); m.scr() != "request path" {
		t.Fatalf("chapter 07: 3 opens %s, want the request path", m.scr())
	}
	if m = appPress(m, "esc"); m.scr() != scrChapter {
		t.Fatal("esc from the request path goes back to chapter 07")
	}
}
