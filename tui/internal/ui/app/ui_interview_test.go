package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
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
	for i := range interview.Drill {
		m = m.withTop(m.cards().At(i, true))
		q, _ := m.cards().Card()
		f := flatText(m.View())
		appCheckFrame(t, m.View(), 80, 24)
		if !strings.Contains(f, flatText(q.SayFirst)) {
			t.Errorf("card %s: the say-first sentence is not whole on the 80x24 screen", q.ID)
		}
	}
}

// The mock runs the 45-minute track by default (chapter 07's LongForm,
// timed by Track); f on the chooser switches to the 15-minute short form.
func TestMockChoosesTheTrackOrTheShortForm(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M")
	appWant(t, m.View(), "45-minute track", "f switches to the 15-minute short form")
	m = appPress(m, "enter")
	p := interview.Mock[0]
	if m.mock().Short() || len(m.mock().Phases()) != len(interview.Track) {
		t.Fatalf("enter starts the short form (%v) or %d phases", m.mock().Short(), len(m.mock().Phases()))
	}
	appWant(t, m.View(), "Phase 1 of 4", interview.Track[0].Title, "5:00 left")
	for j, st := range interview.Track {
		if m.mock().Planned(j) != time.Duration(st.Minutes)*time.Minute {
			t.Errorf("phase %d planned %v, want %d min", j+1, m.mock().Planned(j), st.Minutes)
		}
		if got, want := len(m.mock().Phases()[j].Checklist), len(interview.LongForm(p)[j].Checklist); got != want {
			t.Errorf("phase %d: %d points, want LongForm's %d", j+1, got, want)
		}
	}
	m = appPress(m, "esc", "esc", "esc", "M", "f")
	appWant(t, m.View(), "15-minute short form", "f switches to the 45-minute track")
	m = appPress(m, "enter")
	if !m.mock().Short() || m.mock().Planned(0) != 3*time.Minute || len(m.mock().Pushback()) != 0 {
		t.Fatalf("f then enter: short %v, phase 1 planned %v", m.mock().Short(), m.mock().Planned(0))
	}
	appWant(t, m.View(), interview.Skeleton[0].Title, "3:00 left")
}

// In the track's design phase d shows the request path (chapter 07's
// Diagram) on the clock, scrolled by the arrows, every row within 80
// columns; d closes it. Other phases have no diagram key.
func TestMockDesignPhaseShowsTheRequestPath(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "d")
	if m.mock().Drawn() {
		t.Fatal("d in the scoping phase shows the request path")
	}
	m = appPress(m, "n")
	appWant(t, m.View(), "d the request path")
	m = appPress(m, "d")
	f := m.View()
	if !m.mock().Drawn() || m.mock().State() != mock.OnClock {
		t.Fatal("d in the design phase shows the request path, on the clock")
	}
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "Phase 2 of 4", "10:00 left", "The request path", "[client]", "[edge / WAF]")
	m = appPress(m, "pgdown", "pgdown")
	f = m.View()
	appWant(t, f, "[limiter service]", interview.ServiceHopCost[:30], "[Redis Cluster]")
	appCheckFrame(t, f, 80, 24)
	m = appPress(m, "d")
	if m.mock().Drawn() {
		t.Fatal("d again closes the request path")
	}
	appWant(t, m.View(), "The interviewer asks", "What is the limiter's API?")
}

// The track's wrap-up throws the prompt's pushbacks one at a time: a shows
// what a strong answer contains and the chapter that proves it, space
// ticks it as answered, → the next; the summary lists those to review.
func TestMockWrapUpThrowsPushbackOneAtATime(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "enter", "n", "n", "n")
	pushes := interview.PushbackFor(interview.Mock[0])
	if len(pushes) < 2 || !slices.Equal(idsOf(m.mock().Pushback()), idsOf(pushes)) {
		t.Fatalf("the wrap-up throws %v, want %v", idsOf(m.mock().Pushback()), idsOf(pushes))
	}
	f := flatText(m.View())
	appWant(t, f, "Phase 4 of 4", fmt.Sprintf("pushes back (1 of %d)", len(pushes)), pushes[0].Prompt)
	if strings.Contains(f, pushes[1].Prompt) || strings.Contains(f, pushes[0].Strong[0][:30]) {
		t.Fatalf("more than the first pushback, or its answer, before a key:\n%s", m.View())
	}
	m = appPress(m, "a")
	f = flatText(m.View())
	appWant(t, f, "A strong answer contains", pushes[0].Strong[0][:30], "proven in chapter "+pushes[0].Chapter, "card "+pushes[0].Card)
	appCheckFrame(t, m.View(), 80, 24)
	m = appPress(m, "right")
	f = flatText(m.View())
	appWant(t, f, "(2 of", pushes[1].Prompt)
	if strings.Contains(f, pushes[0].Prompt) || strings.Contains(f, "A strong answer contains") {
		t.Fatalf("→ shows the next pushback alone, its answer hidden:\n%s", m.View())
	}
	m = appPress(m, "space", "n")
	if m.mock().State() != mock.Done || !m.mock().Ticked()[3][1] {
		t.Fatalf("space ticks pushback 2, n ends: state %d, ticked %v", m.mock().State(), m.mock().Ticked()[3])
	}
	r := m.mock().Record()
	want := slices.DeleteFunc(idsOf(pushes), func(id string) bool { return id == pushes[1].ID })
	if r.Form != mock.FormTrack || !slices.Equal(r.Pushback, want) {
		t.Fatalf("record: form %q, pushback to review %v, want %v", r.Form, r.Pushback, want)
	}
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "Summary (45-minute)", "Pushback to review", "“"+pushes[0].Prompt[:20], "Review chapters")
	if strings.Contains(f, pushes[1].Prompt[:20]) {
		t.Errorf("the pushback answered is listed to review:\n%s", f)
	}
	if st, _ := progress.Load(); len(st.P.Interviews) != 1 || !slices.Equal(st.P.Interviews[0].Pushback, want) {
		t.Fatalf("the pushbacks to review are not saved: %+v", st.P.Interviews)
	}
}

func idsOf(ps []interview.Push) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// Every phase of the track fits 80×24 for every prompt: the cursor
// reaches the last point and shows it; every pushback's strong answer and
// its proof fit.
func TestMockTrackEveryPhaseFitsTheScreen(t *testing.T) {
	for i, p := range interview.Mock {
		m := appPress(appNew(t, 80, 24), "M")
		for range i {
			m = appPress(m, "down")
		}
		m = appPress(m, "enter")
		for j, ph := range interview.LongForm(p) {
			appCheckFrame(t, m.View(), 80, 24)
			appWant(t, m.View(), fmt.Sprintf("Phase %d of 4", j+1), "left")
			if j < 3 {
				for range len(ph.Checklist) - 1 {
					m = appPress(m, "down")
				}
				f := flatText(m.View())
				appCheckFrame(t, m.View(), 80, 24)
				words := strings.Fields(ph.Checklist[len(ph.Checklist)-1].Text)
				if end := strings.Join(words[len(words)-2:], " "); !strings.Contains(f, end) {
					t.Errorf("%s phase %d: the last point's end %q is off the screen:\n%s", p.Name, j+1, end, m.View())
				}
			} else {
				for k, q := range m.mock().Pushback() {
					m = appPress(m, "a")
					f := flatText(m.View())
					appCheckFrame(t, m.View(), 80, 24)
					words := strings.Fields(q.Strong[len(q.Strong)-1])
					if end := strings.Join(words[len(words)-2:], " "); !strings.Contains(f, end) || !strings.Contains(f, "card "+q.Card) {
						t.Errorf("%s pushback %d: the strong answer's end %q or its card is off the screen:\n%s", p.Name, k+1, end, m.View())
					}
					m = appPress(m, "right")
				}
			}
			m = appPress(m, "n")
		}
		appCheckFrame(t, m.View(), 80, 24)
		appWant(t, m.View(), "Review chapters")
	}
}

// The request path opens from the menu (R) and from chapter 07's links: a
// screen of its own, every row within 80 columns, scrolled to its end.
func TestRequestPathFromTheMenuAndChapter07(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "R")
	if m.scr() != "request path" {
		t.Fatalf("R opens %s", m.scr())
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "The request path", "[client]")
	m = appPress(m, "pgdown", "pgdown", "pgdown")
	f = m.View()
	appWant(t, f, "[Redis Cluster]", "single-digit ms")
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
