package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/timeline"
)

// labOn opens the lab on a scenario by its example id.
func labOn(t *testing.T, w, h int, example string) Model {
	t.Helper()
	m := appPress(appNew(t, w, h), "L")
	for i := 0; i < len(lab.Scenarios)+1 && (m.lab().Custom() || lab.Scenarios[m.lab().Scenario()].Example != example); i++ {
		m = appPress(m, "s")
	}
	if m.lab().Custom() || lab.Scenarios[m.lab().Scenario()].Example != example {
		t.Fatalf("no scenario %s", example)
	}
	return m
}

// labEdit presses the field key, clears the field and types v, then enter.
func labEdit(m Model, field, v string) Model {
	m = appPress(m, field)
	for range 40 {
		m = appPress(m, "backspace")
	}
	return appPress(appType(m, v), "enter")
}

// E1, E4 and E6 show the contract's numbers.
func TestLabWorkedExamplesOnScreen(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	m = appPress(m, "right", "right", "right", "right")
	appWant(t, m.View(), "#5 arrives at 1000 ms (5 of 8)",
		"left  fixed-window     allowed 6  rejected 2  max/W 6  over 3",
		"right sliding-log      allowed 4  rejected 4  max/W 3  over 0",
		"6 in W > L=3", "log [820 880 940]")
	m = appPress(labOn(t, 80, 24, "E4"), "end")
	appWant(t, m.View(), "left  sliding-counter  allowed 5  rejected 1  max/W 5  over 2",
		"right sliding-log      allowed 3  rejected 3  max/W 3  over 0", "est 3.44", "5 in W > L=3")
	m = appPress(labOn(t, 80, 24, "E6"), "end")
	appWant(t, m.View(), "○ @500", "○ @1000", "tokens 0.06", "wait 980ms")
	m = labEdit(m, "C", "6")
	appWant(t, m.View(), "allowed 4  rejected 0  max/W 4  over 1")
}

// Friction 2: two fields a side refuses no longer lock each other. With C
// and R too large for the token bucket, each field's fix is taken on its
// own while the side says why it still cannot run.
func TestLabRefusedFieldsDoNotLockEachOther(t *testing.T) {
	m := labOn(t, 80, 24, "E1") // fixed window vs log: C and R unused
	m = labEdit(m, "C", "9007199254740993")
	m = labEdit(m, "R", "2e9")
	if m.lab().Params().Capacity != 9007199254740993 || m.lab().Params().RatePerS != 2e9 {
		t.Fatalf("window algorithms ignore C and R: both are taken, got %+v", m.lab().Params())
	}
	m = appPress(m, "b", "b") // right: sliding-log → counter → token-bucket
	if m.lab().Algos()[1] != "token-bucket" || m.lab().RunErrs()[1] == "" {
		t.Fatalf("the token bucket refuses C=2^53+1, R=2e9: algo %s err %q", m.lab().Algos()[1], m.lab().RunErrs()[1])
	}
	appWant(t, m.View(), "cannot run this budget")
	m = labEdit(m, "C", "3")
	if m.lab().Params().Capacity != 3 {
		t.Fatalf("C=3 is taken although R is still refused: C is %d (%s)", m.lab().Params().Capacity, m.lab().Note())
	}
	m = labEdit(m, "R", "2")
	if m.lab().Params().RatePerS != 2 || m.lab().RunErrs() != [2]string{} {
		t.Fatalf("R=2 is taken and both sides run: R %g, errors %q", m.lab().Params().RatePerS, m.lab().RunErrs())
	}
	appLacks(t, m.View(), "cannot run", "not accepted")
}

// Friction 3: the app ends when its terminal hangs up or stops being one.
func TestWatchTerminalEndsOnHangUpOrLostTerminal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal, 1)
	got := make(chan string, 1)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	go watchTerminal(ctx, hup, nil, time.Hour, func(why string) { got <- why })
	hup <- syscall.SIGHUP
	if why := <-got; !strings.Contains(why, "hung up") {
		t.Errorf("SIGHUP: %q", why)
	}
	// A pipe is not a terminal: the check sees the terminal gone.
	go watchTerminal(ctx, make(chan os.Signal), []uintptr{r.Fd()}, time.Millisecond, func(why string) { got <- why })
	select {
	case why := <-got:
		if !strings.Contains(why, "went away") {
			t.Errorf("lost terminal: %q", why)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a descriptor that is no terminal was not noticed")
	}
}

// Friction 4: zoom resets with 0 and when W changes.
func TestLabZoomResets(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	m = labEdit(m, "W", "1000000000000")
	for range 10 {
		m = appPress(m, "+")
	}
	if m.lab().Zoom() != 10 {
		t.Fatalf("zoom %d after + x10", m.lab().Zoom())
	}
	appWant(t, m.View(), "zoom ×1024")
	m = labEdit(m, "W", "1000")
	if m.lab().Zoom() != 0 {
		t.Fatalf("a new W keeps zoom %d", m.lab().Zoom())
	}
	appWant(t, m.View(), "╵0", "╵1000") // the whole run again
	m = appPress(m, "+", "+", "0")
	if m.lab().Zoom() != 0 {
		t.Fatal("0 resets the zoom")
	}
	// Each marker keeps its own column when zoomed in as far as it goes.
	for range 40 {
		m = appPress(m, "+")
	}
	appCheckFrame(t, m.View(), 80, 24)
}

// Friction 5: the detail panel keeps its first line at 80×24 whatever the
// request and however its text wraps.
func TestLabPanelKeepsItsFirstLine(t *testing.T) {
	for _, ex := range []string{"E1", "E3", "E4", "E6"} {
		m := labOn(t, 80, 24, ex)
		for i := range m.lab().Arrivals() {
			f := m.View()
			appWant(t, f, fmt.Sprintf("#%d arrives at %d ms (%d of %d)", i+1, m.lab().Arrivals()[i], i+1, len(m.lab().Arrivals())))
			appWant(t, f, "left "+string(m.lab().Algos()[0])+": ", "right "+string(m.lab().Algos()[1])+": ")
			m = appPress(m, "right")
		}
	}
}

// Friction 6: in a dense queue each departure carries its request's label,
// so whose departure is whose stays readable; crowded markers say so.
func TestLabDeparturesCarryTheirNumbers(t *testing.T) {
	m := appPress(labOn(t, 80, 24, "E6"), "end")
	rows := strings.Split(m.View(), "\n")
	var up string
	for i, r := range rows {
		if strings.HasPrefix(r, "right leaky-queue") {
			up = rows[i+2]
		}
	}
	// Requests 2 and 3 arrive at 10 and 20 ms and leave at 500 and 1000.
	res := m.lab().Results()
	ax := timeline.NewAxis(1000, m.lab().Arrivals(), res[:], 0, 0, 80-timeline.Gutter)
	for _, c := range []struct {
		label rune
		at    int64
	}{{'2', 500}, {'3', 1000}} {
		col := timeline.Gutter + ax.Col(c.at)
		if got := []rune(up)[col]; got != c.label {
			t.Errorf("up row %q: column of %d ms holds %q, want the departure of request %c", up, c.at, got, c.label)
		}
	}
	if !strings.Contains(up, "╰╰") || !strings.Contains(up, "─") {
		t.Errorf("up row %q: queued arrivals ╰ and their waiting lines ─", up)
	}
	appWant(t, m.View(), "markers moved ±") // 0,10,20,30 ms share columns at 80
}

// Friction 7: the labels say what they count: the state a key holds, a
// field's meaning while it is edited, the budget's letters in the ? sheet,
// and the prefetch wait as round trips × the rtt field. The budget shows
// only what the two algorithms read: E1's windows read W and L, not the
// buckets' C and R or the sliding counter's N.
func TestLabelsExplained(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	appWant(t, m.View(), "state 2", "state 3")
	fields := appRowStarting(m.View(), "W 1000")
	if !strings.Contains(fields, "L 3") || strings.Contains(fields, "C 3") || strings.Contains(fields, "R 2") || strings.Contains(fields, "N 1") {
		t.Errorf("E1's budget row: %q, want W and L only", fields)
	}
	m = appPress(m, "N")
	appWant(t, m.View(), "sub-windows per W")
	m = appPress(m, "esc", "?")
	appWant(t, m.View(), "state N: the most values the key held", "W the window in ms, L the limit per W")

	m = appPress(appNew(t, 80, 24), "P", "end")
	appWant(t, m.View(), "wait ms (trips × 1)", "rtt ms 1")
	m = labEdit(m, "r", "5")
	f := m.View()
	if m.pf().Config().RTTMS != 5 {
		t.Fatalf("rtt field: %d", m.pf().Config().RTTMS)
	}
	row := appRowStarting(f, "wait ms (trips × 5)")
	if got := strings.Fields(row); len(got) < 7 || got[5] != "40" || got[6] != "20" {
		t.Errorf("wait row %q: central 8 trips × 5 = 40, prefetch 4 × 5 = 20", row)
	}
}

// Friction 8: every field error reads the same way and its caret stands
// under the field it is about; esc cancels an edit; a note goes with the
// next key; enter on a failed search says why.
func TestFieldErrorsAndCancel(t *testing.T) {
	for _, c := range []struct{ key, field, text string }{
		{"W", "W", "0"}, {"L", "L", "x"}, {"R", "R", "-1"}, {"N", "N", "2000"}, {"t", "arrivals", "5,3"},
	} {
		// A fresh lab each time: a text input's copy shares its runes.
		m := labOn(t, 80, 24, "E1")
		e := appPress(m, c.key)
		for range 60 {
			e = appPress(e, "backspace")
		}
		e = appType(e, c.text)
		f := e.View()
		rows := strings.Split(f, "\n")
		var fields, msg, text string
		for i, r := range rows {
			if strings.HasPrefix(r, "W ") {
				fields, msg, text = r, rows[i+1], rows[i+1]+" "+rows[i+2]
			}
		}
		if !strings.Contains(text, c.field+" = ") || !strings.Contains(text, "is not accepted") || !strings.Contains(text, ": use ") {
			t.Errorf("%s=%s: message %q, want \"%s = … is not accepted: use …\"", c.field, c.text, text, c.field)
		}
		caret := strings.IndexRune(ansi.Strip(msg), '↑')
		start := strings.Index(fields, c.field+" ")
		if c.field == "arrivals" {
			start = strings.Index(fields, "arrivals ")
		}
		if caret < 0 || len([]rune(msg[:strings.Index(msg, "↑")])) != len([]rune(fields[:start])) {
			t.Errorf("%s=%s: caret at %d, field at %d:\n%s\n%s", c.field, c.text, caret, start, fields, msg)
		}
		// esc cancels the edit: the value in use is back.
		e = appPress(e, "esc")
		if got := e.lab().Inputs[e.lab().Focus].Value(); e.lab().Editing || got != m.lab().FieldValues()[e.lab().Focus] {
			t.Errorf("%s: esc leaves %q in the field", c.field, got)
		}
		appLacks(t, e.View(), "is not accepted")
	}
	// enter keeps what is valid and reverts the rest with a note, which the
	// next key clears.
	e := appPress(appType(appPress(labOn(t, 80, 24, "E1"), "L"), "x"), "enter")
	appWant(t, e.View(), "kept L 3")
	appLacks(t, appPress(e, "right").View(), "kept L 3")

	// Prefetch errors name fields, not command-line flags.
	p := appPress(appNew(t, 80, 24), "P")
	p = appType(appPress(p, "o"), "9")
	f := p.View()
	appWant(t, f, "order = 9 is not accepted", "the nodes field")
	appLacks(t, f, "--nodes")

	// enter on a search that failed says why instead of doing nothing.
	w := appPress(appNew(t, 80, 24), "W")
	w = appSend(w, w.worst().Failed("search failed: test"))
	w = appPress(w, "enter")
	appWant(t, w.View(), "nothing to load: search failed: test")
}

// The worst case found loads into the lab, and esc from the lab then goes
// back where the lab was opened from.
func TestWorstCaseLoadsIntoTheLab(t *testing.T) {
	m := appPress(labOn(t, 80, 24, "E1"), "w")
	if m.scr() != scrWorst {
		t.Fatal("w opens the worst-case search")
	}
	if _, _, ok := m.worst().Current(); !ok { // still searching: deliver it here
		m = appSend(m, m.worst().Search())
	}
	res, why, ok := m.worst().Current()
	if !ok || why != "" {
		t.Fatalf("the search for %s finished: %v %q", res.Algorithm, ok, why)
	}
	e := struct{ res lab.WorstResult }{res}
	appWant(t, m.View(), fmt.Sprintf("%s: %d requests upstream", e.res.Algorithm, e.res.MaxInWindow), e.res.Bound)
	m = appPress(m, "enter")
	if m.scr() != scrLab || !m.lab().Custom() || fmt.Sprint(m.lab().Arrivals()) != fmt.Sprint(e.res.Arrivals) {
		t.Fatalf("enter loads the found arrivals into the lab: screen %s", m.scr())
	}
	appWant(t, m.View(), "loaded the worst case found for fixed-window")
	if m = appPress(m, "esc"); m.scr() != scrMenu {
		t.Fatalf("esc from the lab opened on the menu: screen %s", m.scr())
	}
}

// Stepping and play move the cursor; a tick of an earlier play is ignored.
func TestLabStepAndPlay(t *testing.T) {
	m := labOn(t, 80, 24, "E1")
	m = appPress(m, "end")
	appWant(t, m.View(), "#8 arrives at 1850 ms (8 of 8)")
	m = appPress(m, "home", "space")
	if !m.lab().Playing {
		t.Fatal("space plays")
	}
	m = appSend(m, m.lab().PlayTick(0))
	if m.lab().Cursor != 1 {
		t.Fatalf("a tick moves one request: cursor %d", m.lab().Cursor)
	}
	m = appSend(m, m.lab().PlayTick(1))
	if m.lab().Cursor != 1 {
		t.Fatal("a stale tick moves nothing")
	}
	m = appPress(m, "space")
	if m.lab().Playing {
		t.Fatal("space pauses")
	}
}

// E13 on the prefetch screen: the contract's numbers.
func TestPrefetchE13OnScreen(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "P")
	// It opens before the first request, so each step is one key away, and
	// its title is whole at 80 columns.
	appWant(t, m.View(), "before request 1 of 8", "after 0 of 8")
	if title := strings.Split(m.View(), "\n")[0]; strings.Contains(title, "…") {
		t.Errorf("the title is cut: %q", title)
	}
	m = appPress(m, "right")
	appWant(t, m.View(), "after 1 of 8")
	m = appPress(m, "end")
	f := m.View()
	appWant(t, f, "after 8 of 8")
	for _, c := range []struct{ row, central, prefetch string }{
		{"allowed", "8", "6"}, {"rejected", "0", "2"}, {"round trips", "8", "4"}, {"stranded", "0", "14"},
	} {
		got := strings.Fields(strings.TrimPrefix(appRowStarting(f, c.row+" "), c.row))
		if len(got) < 2 || got[0] != c.central || got[1] != c.prefetch {
			t.Errorf("%s: %v, want central %s prefetch %s", c.row, got, c.central, c.prefetch)
		}
	}
	m = appPress(m, "1")
	appWant(t, m.View(), "batch 1")
	if got := strings.Fields(strings.TrimPrefix(appRowStarting(m.View(), "stranded "), "stranded")); len(got) < 2 || got[1] != "0" {
		t.Errorf("batch 1 strands nothing: %v", got)
	}
}

// i in the lab opens chapter 05 at its suggested path; esc comes back.
func TestLabSuggestedPathIsTheChapter(t *testing.T) {
	m := appPress(labOn(t, 80, 24, "E4"), "i")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 5 {
		t.Fatalf("i opens chapter 05: screen %s", m.scr())
	}
	rows := strings.Split(m.View(), "\n")
	if !strings.Contains(rows[1]+rows[2]+rows[3]+rows[4], "The suggested path") {
		t.Errorf("the text opens at the suggested path:\n%s", m.View())
	}
	if m = appPress(m, "esc"); m.scr() != scrLab || lab.Scenarios[m.lab().Scenario()].Example != "E4" {
		t.Fatal("esc goes back to the lab, on the same scenario")
	}
}
