package mock

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/timer"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The mock interview's own tests: they drive the screen by keys, as the app
// does, and read what it holds where the screen does not show it (a tick
// under the cursor, the record saved). The app's tests drive it from the
// menu, by what a learner sees.

// newModel is the mock at 80×24 on a fresh, private progress file, on its
// chooser, as M opens it.
func newModel(t testing.TB) Model {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // transcripts
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	store, _ := progress.Load()
	return fresh(store)
}

// fresh is the mock on store, as a new process would open it, its strong
// answers rendered without colour (as the app's tests run it).
func fresh(store *progress.Store) Model {
	return New(widget.NewTheme(), store).Styled(true, true).Resize(80, 24).(Model)
}

// send delivers msg and then what its commands send back, as the runtime
// would, except commands that wait (ticks): the tests deliver those.
func send(m Model, msg tea.Msg) Model { return sendWithin(m, msg, 100*time.Millisecond) }

// sendWithin is send waiting up to patience for each command.
func sendWithin(m Model, msg tea.Msg, patience time.Duration) Model {
	return uitest.SendTo[Model, screen.Screen](m, msg, patience)
}

// summaryText is every frame of the summary scrolled from its top to its
// end, joined: what a learner reads with ↓.
func summaryText(m Model) string {
	frames := []string{m.View()}
	for range 60 {
		m = press(m, "down")
		if f := m.View(); f != frames[len(frames)-1] {
			frames = append(frames, f)
			continue
		}
		break
	}
	return strings.Join(frames, "\n")
}

// press delivers each key by name in turn.
func press(m Model, keys ...string) Model { return uitest.Press(m, send, keys...) }

// runClock delivers the running clock's ticks, one after another, until
// it has run for d or the phase changed.
func runClock(t *testing.T, m Model, d time.Duration) Model {
	t.Helper()
	phase := m.phase
	for end := m.clock.Timeout - d; m.state == OnClock && m.phase == phase && m.clock.Timeout > end; {
		// Update alone: the next tick is this loop's, not the runtime's.
		nm, _ := m.Update(timer.TickMsg{ID: m.clock.ID()})
		m = nm.(Model)
		if m.clock.Timeout <= 0 && m.phase == phase {
			nm, _ = m.Update(timer.TimeoutMsg{ID: m.clock.ID()})
			m = nm.(Model)
		}
	}
	return m
}

// The mock interview end to end, in its 15-minute short form (f): a
// prompt, a clock per phase that moves on by itself, the interviewer's
// questions and a checklist, a summary.
func TestMockInterviewRunsOnTheClock(t *testing.T) {
	m := press(newModel(t), "f")
	f := m.View()
	for _, p := range interview.Mock() {
		uitest.Want(t, f, p.Title)
	}
	m = press(m, "down", "enter") // the login question
	p := interview.Mock()[1]
	if m.state != OnClock || m.prompt != 1 {
		t.Fatalf("enter starts the interview on the chosen prompt: state %d prompt %d", m.state, m.prompt)
	}
	f = m.View()
	uitest.Want(t, f, "Phase 1 of 4", interview.Skeleton()[0].Title, "3:00 left", p.Phases[0].Questions[0][:30])
	for _, pt := range p.Phases[0].Checklist {
		uitest.Want(t, f, pt.Text[:20])
	}

	// The clock counts down and pauses.
	m = runClock(t, m, 10*time.Second)
	uitest.Want(t, m.View(), "2:50 left")
	m = press(m, "p")
	if m.clock.Running() {
		t.Fatal("p pauses the clock")
	}
	uitest.Want(t, m.View(), "paused")
	m = press(m, "p")

	// Tick points 1 and 3, untick 3, tick 2 with space after moving up.
	m = press(m, "1", "3", "3", "up", "space")
	if got := m.ticked[0]; !got[0] || !got[1] || got[2] {
		t.Fatalf("ticked %v, want points 1 and 2", got)
	}
	uitest.Want(t, m.View(), "[✓] 1", "[✓] 2", "[ ] 3")

	// The phase ends by itself when its clock runs out; enter starts the
	// next one.
	m = runClock(t, m, 4*time.Minute)
	if m.state != Between || m.phase != 0 {
		t.Fatalf("the first clock ran out: state %d, phase %d, want its review", m.state, m.phase+1)
	}
	m = press(m, "enter")
	if m.phase != 1 {
		t.Fatalf("phase %d after the first clock ran out", m.phase+1)
	}
	uitest.Want(t, m.View(), "Phase 2 of 4", "5:00 left")
	// Move on early after a minute; tick everything in phase 3.
	m = runClock(t, m, time.Minute)
	m = press(m, "n", "enter")
	for k := range p.Phases[2].Checklist {
		m = press(m, fmt.Sprint(k+1))
	}
	m = press(m, "n", "enter", "n", "enter")
	if m.state != Done {
		t.Fatalf("n after the last phase shows the summary: state %d", m.state)
	}
	f = m.View()
	covered := 2 + len(p.Phases[2].Checklist)
	points := 0
	for j, ph := range m.phases { // the points and, after phase 1, the pushback
		points += len(ph.Checklist) + len(m.pushes(j))
	}
	uitest.Want(t, f, fmt.Sprintf("%d of %d points covered", covered, points))
	for _, c := range []struct{ row, used, planned, covered string }{
		{"1 " + interview.Skeleton()[0].Title, "3:00", "3:00", fmt.Sprintf("2 of %d", len(p.Phases[0].Checklist))},
		{"2 " + interview.Skeleton()[1].Title, "1:00", "5:00", fmt.Sprintf("0 of %d", len(p.Phases[1].Checklist)+len(m.pushes(1)))},
		{"3 " + interview.Skeleton()[2].Title, "0:00", "4:00", fmt.Sprintf("%d of %d", len(p.Phases[2].Checklist), len(p.Phases[2].Checklist)+len(m.pushes(2)))},
	} {
		row := uitest.Row(f, c.row)
		if !strings.Contains(row, c.used) || !strings.Contains(row, c.planned) || !strings.Contains(row, c.covered) {
			t.Errorf("summary row %q: want used %s, planned %s, covered %s", row, c.used, c.planned, c.covered)
		}
	}
	missed := p.Phases[1].Checklist[0]
	uitest.Want(t, summaryText(m), "Missed", "ch "+missed.Chapter+" · "+missed.Text[:20], "Review chapters")
	review := uitest.Row(f, "Review chapters")
	for _, ch := range m.record.Review {
		if !strings.Contains(review, ch) {
			t.Errorf("review row %q lacks chapter %s", review, ch)
		}
	}
	if strings.Contains(review, p.Phases[2].Checklist[0].Chapter) && !strings.Contains(fmt.Sprint(progress.ChaptersToReview(p, func(j, k int) bool { return m.ticked[j][k] })), p.Phases[2].Checklist[0].Chapter) {
		t.Errorf("a chapter only of covered points is not to review: %q", review)
	}

	// Saved: a restart shows how it went last time.
	store, note := progress.Load()
	if note != "" || len(store.P.Interviews) != 1 || store.P.Interviews[0].Covered != covered {
		t.Fatalf("the interview was not saved: note %q, %+v", note, store.P.Interviews)
	}
	m2 := press(fresh(store), "f")
	uitest.Want(t, m2.View(), fmt.Sprintf("last time %d of %d points", covered, points))
}

// The clock moves on by itself: each tick's command brings the timer's next
// tick (one run as the runtime would, a 1 ms wait with a skeleton minute of
// 60 ms), and the ticks, delivered by hand like the runtime's, carry the
// interview through every phase to its summary, each phase using its
// planned time. Keys go through Update alone, so that no command waits for
// a tick: the test is the clock, as in runClock.
func TestMockClockAdvancesByItself(t *testing.T) {
	m := newModel(t)
	m.minute = 60 * time.Millisecond // a tick per ms
	key := func(k string) {
		nm, _ := m.Update(uitest.Key(k))
		m = nm.(Model)
	}
	key("enter")
	for j := range m.phases {
		nm, cmd := m.Update(timer.TickMsg{ID: m.clock.ID()})
		m = nm.(Model)
		if !bringsTick(t, cmd, m.clock.ID()) {
			t.Fatalf("phase %d: a tick's command brings no next tick of the clock", j+1)
		}
		m = runClock(t, m, m.planned(j))
		if m.phase != j || m.state != Between {
			t.Fatalf("clock %d ran out but the interview is in phase %d, state %d", j+1, m.phase+1, m.state)
		}
		key("enter")
	}
	if m.state != Done {
		t.Fatalf("every clock ran out but the interview is in state %d", m.state)
	}
	for j, used := range m.used {
		if used != m.planned(j) {
			t.Errorf("phase %d used %v, planned %v", j+1, used, m.planned(j))
		}
	}
}

// bringsTick runs cmd as the runtime would, batches included, and reports
// whether it brings a tick of the clock id. A timer's tick comes after its
// interval; a minute is a hang's limit, not a bound.
func bringsTick(t *testing.T, cmd tea.Cmd, id int) bool {
	t.Helper()
	if cmd == nil {
		return false
	}
	out := make(chan tea.Msg, 1)
	go func() { out <- cmd() }()
	select {
	case msg := <-out:
		switch msg := msg.(type) {
		case tea.BatchMsg:
			return slices.ContainsFunc(msg, func(c tea.Cmd) bool { return bringsTick(t, c, id) })
		case timer.TickMsg:
			return msg.ID == id
		}
		return false
	case <-time.After(time.Minute):
		t.Fatal("a command still runs after a minute")
	}
	return false
}

// The mock runs the 45-minute track by default (chapter 07's LongFormWith
// on the dives drawn, timed by Track); f on the chooser switches to the
// 15-minute short form.
func TestMockChoosesTheTrackOrTheShortForm(t *testing.T) {
	m := newModel(t)
	uitest.Want(t, m.View(), "45-minute track: 5 phases, pushback in each", "f switches to the 15-minute short form")
	m = press(m, "enter")
	p := interview.Mock()[0]
	if m.short || len(m.phases) != len(interview.Track()) || len(m.dives) != interview.DivesRun {
		t.Fatalf("enter starts the short form (%v), %d phases or %d dives", m.short, len(m.phases), len(m.dives))
	}
	uitest.Want(t, m.View(), "Phase 1 of 5", interview.Track()[0].Title, "3:00 left")
	long := interview.LongFormWith(p, m.dives)
	for j, st := range interview.Track() {
		if m.planned(j) != time.Duration(st.Minutes)*time.Minute {
			t.Errorf("phase %d planned %v, want %d min", j+1, m.planned(j), st.Minutes)
		}
		if got, want := len(m.phases[j].Checklist), len(long[j].Checklist); got != want {
			t.Errorf("phase %d: %d points, want LongFormWith's %d", j+1, got, want)
		}
	}
	m = press(m.Choose(), "f")
	uitest.Want(t, m.View(), "15-minute short form", "f switches to the 45-minute track")
	m = press(m, "enter")
	if !m.short || m.planned(0) != 3*time.Minute || len(m.dives) != 0 || len(m.pushes(0)) != 0 {
		t.Fatalf("f then enter: short %v, phase 1 planned %v, dives %v", m.short, m.planned(0), m.dives)
	}
	uitest.Want(t, m.View(), interview.Skeleton()[0].Title, "3:00 left")
}

// The deep dives drawn are the candidate's weakest drill cards first.
func TestMockDrawsTheWeakestDeepDives(t *testing.T) {
	m := newModel(t)
	m.store.Score("06/Redis failover", false)
	m.store.Score("06/double spend", false)
	m = press(m, "enter")
	if !slices.Contains(m.dives, "failover") || !slices.Contains(m.dives, "script-race") {
		t.Fatalf("missed cards 06/Redis failover and 06/double spend; drew %v", m.dives)
	}
	m = press(m, "n", "enter", "n", "enter", "n", "enter")
	race, _ := interview.DiveByID("script-race")
	uitest.Want(t, uitest.Flat(m.View()), "Phase 4 of 5", race.Questions[0][:40])
}

// In the track's design phase d shows the request path (chapter 07's
// Diagram) on the clock, scrolled by the arrows, every row within 80
// columns; d closes it. Other phases have no diagram key.
func TestMockDesignPhaseShowsTheRequestPath(t *testing.T) {
	m := press(newModel(t), "enter", "d")
	if m.drawn {
		t.Fatal("d in the introduction shows the request path")
	}
	m = press(m, "n", "enter", "n", "enter")
	uitest.Want(t, m.View(), "d the request path")
	m = press(m, "d")
	f := m.View()
	if !m.drawn || m.state != OnClock {
		t.Fatal("d in the design phase shows the request path, on the clock")
	}
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "Phase 3 of 5", "15:00 left", "The request path", "[client]", "[edge / WAF]")
	m = press(m, "pgdown", "pgdown")
	f = m.View()
	uitest.Want(t, f, "[limiter service]", interview.ServiceHopCost[:30], "[Redis Cluster]")
	uitest.CheckFrame(t, f, 80, 24)
	m = press(m, "d")
	if m.drawn {
		t.Fatal("d again closes the request path")
	}
	uitest.Want(t, uitest.Flat(m.View()), "The interviewer asks", "Where does the decision run: a library call, a middleware, a sidecar")
}

// Each phase after the introduction has its pushback: b shows it, one at
// a time; a shows the whole strong answer and the chapter that proves it,
// space ticks it as answered, → the next; the summary lists those to
// review.
func TestMockPushbackIsThrownInEachPhase(t *testing.T) {
	m := press(newModel(t), "enter")
	if len(m.pushes(0)) != 0 {
		t.Fatalf("the introduction throws %v", idsOf(m.pushes(0)))
	}
	m = press(m, "b")
	if m.pushView {
		t.Fatal("b shows a pushback in the introduction")
	}
	m = press(m, "n", "enter")
	pushes := m.pushes(1)
	if len(pushes) < 2 || !slices.Equal(idsOf(pushes), idsOf(interview.LongForm(interview.Mock()[0])[1].Pushback)) {
		t.Fatalf("the requirements throw %v", idsOf(pushes))
	}
	uitest.Want(t, uitest.Flat(m.View()), fmt.Sprintf("b: %d pushback", len(pushes)))
	m = press(m, "b")
	f := uitest.Flat(m.View())
	uitest.Want(t, f, "Phase 2 of 5", fmt.Sprintf("pushes back (1 of %d)", len(pushes)), pushes[0].Prompt)
	if strings.Contains(f, pushes[1].Prompt) || strings.Contains(f, pushes[0].Strong[0][:30]) {
		t.Fatalf("more than the first pushback, or its answer, before a key:\n%s", m.View())
	}
	m = press(m, "a")
	f = uitest.Flat(m.View())
	for _, s := range pushes[0].Strong { // the whole answer, every bullet
		uitest.Want(t, f, s)
	}
	uitest.Want(t, f, "A strong answer contains", "proven in chapter "+pushes[0].Chapter, "card "+pushes[0].Card)
	uitest.CheckFrame(t, m.View(), 80, 24)
	m = press(m, "right")
	f = uitest.Flat(m.View())
	uitest.Want(t, f, "(2 of", pushes[1].Prompt)
	if strings.Contains(f, pushes[0].Prompt) || strings.Contains(f, "A strong answer contains") {
		t.Fatalf("→ shows the next pushback alone, its answer hidden:\n%s", m.View())
	}
	m = press(m, "space", "b", "1")
	if !m.pushed[1][1] || m.pushView || !m.ticked[1][0] {
		t.Fatalf("space ticks pushback 2 (%v), b goes back to the checklist (%v) where 1 ticks point 1 (%v)", m.pushed[1], m.pushView, m.ticked[1])
	}
	m = press(m, "esc", "esc")
	r := m.record
	var want []string
	for j := range m.phases {
		for k, q := range m.pushes(j) {
			if j != 1 || k != 1 {
				want = append(want, q.ID)
			}
		}
	}
	if r.Form != FormTrack || !slices.Equal(r.Pushback, want) || !slices.Equal(r.Phases[1].Pushed, []int{1}) {
		t.Fatalf("record: form %q, pushback to review %v, want %v; pushed %v", r.Form, r.Pushback, want, r.Phases[1].Pushed)
	}
	f = m.View()
	uitest.CheckFrame(t, f, 80, 24)
	uitest.Want(t, f, "Summary (45-minute)", "Review chapters")
	f = summaryText(m)
	uitest.Want(t, uitest.Flat(f), "Pushback to review", "“"+pushes[0].Prompt[:20])
	if strings.Contains(f, pushes[1].Prompt[:20]) {
		t.Errorf("the pushback answered is listed to review:\n%s", f)
	}
	if st, _ := progress.Load(); len(st.P.Interviews) != 1 || !slices.Equal(st.P.Interviews[0].Pushback, want) ||
		!slices.Equal(st.P.Interviews[0].Dives, m.dives) {
		t.Fatalf("the pushbacks to review or the dives are not saved: %+v", st.P.Interviews)
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
// reaches the last point and shows it; every pushback's whole strong
// answer and its proof fit.
func TestMockTrackEveryPhaseFitsTheScreen(t *testing.T) {
	for i, p := range interview.Mock() {
		m := newModel(t)
		for range i {
			m = press(m, "down")
		}
		m = press(m, "enter")
		for j, ph := range interview.LongFormWith(p, m.dives) {
			uitest.CheckFrame(t, m.View(), 80, 24)
			uitest.Want(t, m.View(), fmt.Sprintf("Phase %d of 5", j+1), "left")
			for range len(ph.Checklist) - 1 {
				m = press(m, "down")
			}
			f := uitest.Flat(m.View())
			uitest.CheckFrame(t, m.View(), 80, 24)
			words := strings.Fields(ph.Checklist[len(ph.Checklist)-1].Text)
			if end := strings.Join(words[len(words)-2:], " "); !strings.Contains(f, end) {
				t.Errorf("%s phase %d: the last point's end %q is off the screen:\n%s", p.Name, j+1, end, m.View())
			}
			if len(ph.Pushback) > 0 {
				m = press(m, "b")
			}
			for k, q := range ph.Pushback {
				m = press(m, "a")
				f := uitest.Flat(m.View())
				uitest.CheckFrame(t, m.View(), 80, 24)
				for _, s := range q.Strong {
					words := strings.Fields(s)
					if end := strings.Join(words[len(words)-2:], " "); !strings.Contains(f, end) {
						t.Errorf("%s phase %d pushback %d: the end %q of a strong point is off the screen:\n%s", p.Name, j+1, k+1, end, m.View())
					}
				}
				if !strings.Contains(f, "card "+q.Card) {
					t.Errorf("%s phase %d pushback %d: its card is off the screen:\n%s", p.Name, j+1, k+1, m.View())
				}
				m = press(m, "right")
			}
			m = press(m, "n")
			uitest.CheckFrame(t, m.View(), 80, 24)
			m = press(m, "enter")
		}
		uitest.CheckFrame(t, m.View(), 80, 24)
		uitest.Want(t, m.View(), "Review chapters")
	}
}

// A phase whose time runs out says so as the next one begins.
func TestMockPhaseTimeOutIsAnnounced(t *testing.T) {
	m := press(newModel(t), "enter")
	m = send(m, timer.TimeoutMsg{ID: m.clock.ID()})
	if m.phase != 0 || m.state != Between {
		t.Fatalf("the timeout of phase 1 leaves phase %d, state %d, not its review", m.phase+1, m.state)
	}
	uitest.Want(t, uitest.Flat(m.View()), "time is up for phase 1: enter starts phase 2, "+interview.Track()[1].Title)
	if m = press(m, "down"); strings.Contains(m.View(), "time is up") {
		t.Error("the notice outlives the next key")
	}
}
