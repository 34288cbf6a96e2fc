package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ratelimit-course/ratelimit/chapters"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// Model-level tests: keys and sizes go to Update, assertions read the model
// and View(). Views use the plain theme, so frames are plain text.

var appUpdateGolden = flag.Bool("update", false, "rewrite the golden frames in tui/testdata")

func appNew(t testing.TB, w, h int) appModel {
	t.Helper()
	m := newAppModel(plainTheme())
	return appSend(m, tea.WindowSizeMsg{Width: w, Height: h})
}

func appSend(m appModel, msg tea.Msg) appModel {
	nm, _ := m.Update(msg)
	return nm.(appModel)
}

// appKey turns a key name ("enter", "left", "ctrl+c", "a") into a KeyMsg.
func appKey(s string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "space": tea.KeySpace,
		"ctrl+c": tea.KeyCtrlC, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp,
	}
	if k, ok := named[s]; ok {
		if k == tea.KeySpace {
			return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: k}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func appPress(m appModel, keys ...string) appModel {
	for _, k := range keys {
		m = appSend(m, appKey(k))
	}
	return m
}

// appType types text one rune at a time, as a terminal delivers it.
func appType(m appModel, s string) appModel {
	for _, r := range s {
		m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// appCheckFrame asserts the frame is exactly h rows of exactly w columns.
func appCheckFrame(t *testing.T, frame string, w, h int) {
	t.Helper()
	rows := strings.Split(frame, "\n")
	if len(rows) != h {
		t.Fatalf("frame has %d rows, want %d:\n%s", len(rows), h, frame)
	}
	for i, r := range rows {
		if uiWidth(r) != w {
			t.Fatalf("row %d is %d columns wide, want %d: %q", i+1, uiWidth(r), w, r)
		}
	}
	if strings.Contains(frame, "\x1b") {
		t.Fatalf("plain theme frame contains escape sequences")
	}
}

func appWant(t *testing.T, frame string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(frame, w) {
			t.Errorf("frame lacks %q:\n%s", w, frame)
		}
	}
}

func appIsQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestAppMenuNavigation(t *testing.T) {
	m := appNew(t, 80, 24)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "▸ 01 · ", "05 · ", "[lab] [worst case]", "[prefetch]")
	for n := 1; n <= len(uiChapters); n++ {
		appWant(t, f, fmt.Sprintf("0%d · ", n))
	}

	m = appPress(m, "down")
	if m.menuSel != 1 || !strings.Contains(m.View(), "▸ 02 · ") {
		t.Fatalf("down: menuSel %d", m.menuSel)
	}
	m = appPress(m, "up", "up")
	if m.menuSel != len(uiChapters)-1 {
		t.Fatalf("up wraps to the last chapter, got %d", m.menuSel)
	}
	m = appPress(m, "enter")
	if m.scr != scrChapter || m.chapter != len(uiChapters)-1 {
		t.Fatalf("enter opens the selected chapter: scr %d chapter %d", m.scr, m.chapter)
	}
	m = appPress(m, "esc", "5")
	if m.scr != scrChapter || uiChapters[m.chapter].num != 5 {
		t.Fatalf("5 jumps to chapter 05")
	}
	appWant(t, m.View(), "05 · The lab", "enter open the lab", "w worst case")
	m = appPress(m, "enter")
	if m.scr != scrLab {
		t.Fatalf("enter in chapter 05 opens the lab, scr %d", m.scr)
	}
	m = appPress(m, "esc")
	if m.scr != scrChapter || uiChapters[m.chapter].num != 5 {
		t.Fatalf("esc from the lab goes back to chapter 05")
	}
	m = appPress(m, "esc")
	if m.scr != scrMenu {
		t.Fatalf("esc from a chapter goes back to the menu")
	}
	m = appPress(m, "6", "enter")
	if m.scr != scrPrefetch {
		t.Fatalf("enter in chapter 06 opens the prefetch lab, scr %d", m.scr)
	}
	m = appPress(m, "esc", "esc", "P")
	if m.scr != scrPrefetch {
		t.Fatalf("P opens the prefetch lab from the menu")
	}
	m = appPress(m, "esc", "esc", "L")
	if m.scr != scrLab {
		t.Fatalf("L opens the lab from the menu")
	}
	m = appPress(m, "esc", "esc", "W")
	if m.scr != scrWorst {
		t.Fatalf("W opens the worst case from the menu")
	}
}

// Several runes in one message (fast typing) act as separate keys, except
// inside a text field, where they are text.
func TestAppBurstOfRunes(t *testing.T) {
	m := appSend(appNew(t, 80, 24), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Lss")})
	if m.scr != scrLab || m.lab.scen != 2 {
		t.Fatalf("\"Lss\" should open the lab and move two scenarios: scr %d scen %d", m.scr, m.lab.scen)
	}
	m = appPress(m, "t")
	m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(",1300")})
	if m.lab.arrivals[len(m.lab.arrivals)-1] != 1300 {
		t.Fatalf("a burst while editing is text: %v", m.lab.arrivals)
	}
}

// Esc then a key, read together by the terminal, arrives as alt+key.
func TestAppEscThenKey(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L")
	m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("P"), Alt: true})
	if m.scr != scrChapter || uiChapters[m.chapter].num != 5 {
		t.Fatalf("alt+P in the lab is esc (back to chapter 05) then P (nothing there): scr %d", m.scr)
	}
	m = appSend(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("P"), Alt: true})
	if m.scr != scrPrefetch {
		t.Fatalf("alt+P in a chapter is esc (menu) then P (prefetch): scr %d", m.scr)
	}
}

func TestAppChapterViewShowsReadmeParts(t *testing.T) {
	m := appNew(t, 80, 24)
	for i, c := range uiChapters {
		m = appPress(m, fmt.Sprint(c.num))
		f := m.View()
		appCheckFrame(t, f, 80, 24)
		d := parseReadme(c.readme)
		if d.Title != "" && !strings.Contains(f, uiCut(d.Title, 40)) {
			t.Errorf("chapter %d: title %q not on screen", c.num, d.Title)
		}
		// The one-sentence answer comes first, so it is on the first screen.
		if a := d.section("The interview answer"); strings.TrimSpace(a) != "" {
			appWant(t, f, "In one sentence", uiCut(strings.Fields(a)[0], 20))
		}
		// Scrolling moves a line at a time and stops at the end.
		end := chapterMaxScroll(i, 80, 24)
		m = appPress(m, "down", "down")
		if m.scroll != min(2, end) {
			t.Errorf("chapter %d: scroll %d after two downs", c.num, m.scroll)
		}
		m = appPress(m, "end", "down", "pgdown")
		if m.scroll != end {
			t.Errorf("chapter %d: scroll %d, want it clamped at %d", c.num, m.scroll, end)
		}
		appCheckFrame(t, m.View(), 80, 24)
		m = appPress(m, "esc")
	}
}

func TestParseReadme(t *testing.T) {
	d := parseReadme("# 09 · Test: a title\n\nSummary line one.\nline two.\n\n## The idea\n\n- a\n- b\n\n" +
		"```\n## not a heading\n```\n\n## The trap\n\nThe trap text.\n\n## The interview answer\n\nOne sentence. Two.\n")
	if d.Title != "09 · Test: a title" || d.Summary != "Summary line one.\nline two." {
		t.Fatalf("title/summary: %+v", d)
	}
	if len(d.Sections) != 3 || !strings.Contains(d.section("the idea"), "## not a heading") {
		t.Fatalf("sections: %+v", d.Sections)
	}
	if got := firstSentence(d.section("The interview answer")); got != "One sentence." {
		t.Fatalf("firstSentence = %q", got)
	}
	lines := markdownLines(d.section("The idea"), 20)
	if lines[0].plainText() != "• a" || lines[1].plainText() != "• b" {
		t.Fatalf("bullets: %v", lines)
	}
}

func TestAppQuitKeys(t *testing.T) {
	m := appNew(t, 80, 24)
	if _, cmd := m.Update(appKey("q")); !appIsQuit(cmd) {
		t.Fatal("q does not quit")
	}
	if _, cmd := m.Update(appKey("ctrl+c")); !appIsQuit(cmd) {
		t.Fatal("ctrl+c does not quit")
	}
	// While a field is edited, q is text and ctrl+c still quits.
	m = appPress(m, "L", "t")
	if !m.lab.editing {
		t.Fatal("t does not start editing the arrivals")
	}
	nm, cmd := m.Update(appKey("q"))
	if appIsQuit(cmd) || !strings.HasSuffix(nm.(appModel).lab.inputs[lfArrivals].Value(), "q") {
		t.Fatal("q while editing must be typed, not quit")
	}
	if _, cmd := nm.Update(appKey("ctrl+c")); !appIsQuit(cmd) {
		t.Fatal("ctrl+c while editing does not quit")
	}
}

func TestAppTooSmallTerminal(t *testing.T) {
	m := appNew(t, 79, 24)
	f := m.View()
	appCheckFrame(t, f, 79, 24)
	appWant(t, f, "79×24", "at least 80×24")
	m = appPress(m, "5")
	if m.scr != scrMenu {
		t.Fatal("keys other than quit must wait for a usable size")
	}
	m = appSend(m, tea.WindowSizeMsg{Width: 80, Height: 23})
	appWant(t, m.View(), "80×23")
	m = appSend(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	appWant(t, m.View(), "▸ 01 · ")
	if _, cmd := appNew(t, 20, 5).Update(appKey("q")); !appIsQuit(cmd) {
		t.Fatal("q must quit on a tiny terminal")
	}
}

// Every screen fills the terminal exactly at every usable size.
func TestAppEveryScreenFitsTerminal(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {81, 25}, {100, 30}, {132, 43}, {220, 60}} {
		w, h := sz[0], sz[1]
		m := appNew(t, w, h)
		frames := map[string]string{"menu": m.View()}
		for _, c := range uiChapters {
			frames[fmt.Sprintf("chapter %d", c.num)] = appPress(m, fmt.Sprint(c.num)).View()
		}
		lm := appPress(m, "L")
		for i := 0; i <= len(lab.Scenarios); i++ {
			frames[fmt.Sprintf("lab scenario %d", i)] = lm.View()
			frames[fmt.Sprintf("lab scenario %d end", i)] = appPress(lm, "end").View()
			lm = appPress(lm, "s")
		}
		frames["lab editing arrivals"] = appPress(lm, "t", "home").View()
		frames["prefetch"] = appPress(m, "P").View()
		frames["prefetch start"] = appPress(m, "P", "home").View()
		frames["prefetch editing"] = appPress(m, "P", "o").View()
		frames["worst"] = appPress(m, "W").View()
		frames["help"] = appPress(m, "?").View()
		for name, f := range frames {
			t.Run(fmt.Sprintf("%dx%d %s", w, h, name), func(t *testing.T) { appCheckFrame(t, f, w, h) })
		}
	}
}

func TestLabStepping(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L")
	if m.lab.cursor != 0 || m.lab.scenarioName() != "cross-boundary-spike (E1)" {
		t.Fatalf("the lab opens on E1 at request 1: cursor %d, %q", m.lab.cursor, m.lab.scenarioName())
	}
	appWant(t, m.View(), "#1 arrives at 820 ms (1 of 8)")
	m = appPress(m, "right", "right", "right", "right")
	if m.lab.cursor != 4 {
		t.Fatalf("cursor %d after 4 steps", m.lab.cursor)
	}
	appWant(t, m.View(), "▼ #5 at 1000 ms", "#5 arrives at 1000 ms (5 of 8)",
		"left fixed-window: ● allowed", "right sliding-log: ✗ rejected", "log [820 880 940]", "▸  5   1000  ● A      ✗ R")
	m = appPress(m, "left")
	if m.lab.cursor != 3 {
		t.Fatalf("left: cursor %d", m.lab.cursor)
	}
	m = appPress(m, "end", "right")
	if m.lab.cursor != 7 {
		t.Fatalf("end/right stop at the last request: %d", m.lab.cursor)
	}
	m = appPress(m, "home", "left")
	if m.lab.cursor != 0 {
		t.Fatalf("home/left stop at the first request: %d", m.lab.cursor)
	}
}

func TestLabZoom(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "s", "s", "s") // E6: 0 10 20 30, departures to 1000
	for range 5 {
		m = appPress(m, "+")
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "zoom ×32", "0–76 ms")
	// One ms per column: the four arrivals 10 ms apart stand apart, and the
	// queued ones leave the plot towards their departures.
	appWant(t, f, "arr 1         2         3         4", "up  ●         ╰─────────╰─────────✗")
	m = appPress(m, "end", "-", "-", "-", "-", "-", "-")
	if m.lab.zoom != 0 || strings.Contains(m.View(), "zoom") {
		t.Fatal("- zooms back out to the whole run")
	}
}

// Nudged markers never cross a window boundary: E4's 970 980 990 stay left
// of the boundary at 1000 and the boundary stays visible.
func TestLabMarkersKeepTheirWindow(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "s")
	f := strings.Split(m.View(), "\n")
	arr := []rune(f[3])
	b := labGutter + 38 // col(1000) on a 76-column plot of [0, 2000)
	if got := string(arr[b-3 : b+1]); got != "123┊" {
		t.Fatalf("markers around the boundary at 1000: %q in %q", got, f[3])
	}
	ax := timeAxis{t0: 0, t1: 2000, cols: 76}
	for _, tc := range []struct {
		arr  []int64
		want []int
	}{
		{[]int64{970, 980, 990}, []int{35, 36, 37}},
		{[]int64{0, 10, 20, 30}, []int{0, 1, 2, 3}},
		// col 38 (the boundary at 1000) stays free for the boundary line.
		{[]int64{999, 999, 999, 1000, 1000, 1000}, []int{35, 36, 37, 39, 40, 41}},
		{[]int64{2500}, []int{-1}},
	} {
		if got := arrivalCols(ax, tc.arr, 1000); !slices.Equal(got, tc.want) {
			t.Errorf("arrivalCols(%v) = %v, want %v", tc.arr, got, tc.want)
		}
	}
}

// Extreme but valid budgets and sequences render promptly and in bounds.
func TestLabExtremeInputs(t *testing.T) {
	cases := []struct {
		p   lab.Params
		arr []int64
	}{
		{lab.Params{WindowMS: 1, Limit: 1, Capacity: 1, RatePerS: 1, SubWindows: 1}, []int64{0, 1_000_000_000_000}},
		{lab.Params{WindowMS: 1_000_000_000_000, Limit: 1, Capacity: 1000, RatePerS: 1e-6, SubWindows: 1000}, []int64{0, 0, 0, 5}},
		{lab.Params{WindowMS: 7, Limit: 2_000_000_000, Capacity: 2_000_000_000, RatePerS: 1e9, SubWindows: 7}, []int64{3, 3, 3}},
	}
	for _, tc := range cases {
		m := newLabModel()
		m.loadArrivals(tc.arr, tc.p, "fixed-window")
		for _, a := range lab.Algorithms {
			m.algo = [2]string{a, "leaky-queue"}
			m.rerun()
			for z := 0; z <= 12; z += 4 {
				m.zoom = z
				appCheckFrame(t, labView(m, 80, 24, plainTheme()), 80, 24)
			}
		}
	}
}

func TestPrefetchExtremeInputs(t *testing.T) {
	for _, c := range []distributed.PrefetchConfig{
		{Nodes: 100, PerNode: 100, Limit: 1_000_000, Batch: 1_000_000, RTTMS: 1},
		{Nodes: 1, PerNode: 10_000, Limit: 0, Batch: 1, RTTMS: 60_000},
		{Nodes: 7, PerNode: 0, Limit: 5, Batch: 3},
	} {
		m := newPfModel()
		m.cfg = c
		m.syncInputs()
		m.rerun()
		if m.runErr != "" {
			t.Fatalf("%+v: %s", c, m.runErr)
		}
		for _, k := range []int{0, len(m.res.Steps) / 2, len(m.res.Steps)} {
			m.cursor = k
			for _, sz := range [][2]int{{80, 24}, {150, 50}} {
				appCheckFrame(t, prefetchView(m, sz[0], sz[1], plainTheme()), sz[0], sz[1])
			}
		}
	}
}

func TestLabPlayPause(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L")
	nm, cmd := m.Update(appKey("space"))
	m = nm.(appModel)
	if !m.lab.playing || cmd == nil {
		t.Fatal("space starts play with a tick")
	}
	appWant(t, m.View(), "▶ playing")
	id := m.lab.playID
	m = appSend(m, labTickMsg{id: id})
	if m.lab.cursor != 1 {
		t.Fatalf("a tick steps once: cursor %d", m.lab.cursor)
	}
	m = appSend(m, labTickMsg{id: id - 1})
	if m.lab.cursor != 1 {
		t.Fatal("a stale tick must not step")
	}
	for range 20 {
		m = appSend(m, labTickMsg{id: id})
	}
	if m.lab.playing || m.lab.cursor != 7 {
		t.Fatalf("play stops at the end: playing %v cursor %d", m.lab.playing, m.lab.cursor)
	}
	m = appPress(m, "space")
	if !m.lab.playing || m.lab.cursor != 0 {
		t.Fatal("space at the end replays from the start")
	}
	m = appPress(m, "space")
	if m.lab.playing {
		t.Fatal("space pauses")
	}
}

func TestLabScenarioAndAlgorithmPickers(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "s")
	if m.lab.algo != [2]string{"sliding-counter", "sliding-log"} {
		t.Fatalf("s moves to E4: %v", m.lab.algo)
	}
	// E4: the counter lets 5 through in 540 ms, overshoot 2; the log holds at 3.
	if mt := m.lab.res[0].Metrics; mt.MaxInWindow != 5 || mt.Overshoot != 2 {
		t.Fatalf("E4 sliding-counter metrics %+v", mt)
	}
	appWant(t, m.View(), "prev-crowded-end (E4)", "max/W 5  over 2", "5 in W > L=3")
	m = appPress(m, "s")
	// E3: estimates 2.40 / 3.34 / 3.28, decisions A A A A R R.
	var got []bool
	for _, r := range m.lab.res[0].Requests {
		got = append(got, r.Allowed)
	}
	if !slices.Equal(got, []bool{true, true, true, true, false, false}) {
		t.Fatalf("E3 sliding-counter decisions %v", got)
	}
	m = appPress(m, "s", "s")
	appWant(t, m.View(), "scenario custom")
	m = appPress(m, "s")
	if m.lab.scenarioName() != "cross-boundary-spike (E1)" {
		t.Fatalf("s wraps to E1: %q", m.lab.scenarioName())
	}
	m = appPress(m, "S")
	appWant(t, m.View(), "scenario custom")
	m = appPress(m, "s")

	seen := map[string]bool{}
	for range lab.Algorithms {
		m = appPress(m, "a")
		seen[m.lab.algo[0]] = true
		if m.lab.runErr[0] != "" {
			t.Fatalf("%s fails on E1: %s", m.lab.algo[0], m.lab.runErr[0])
		}
		appWant(t, m.View(), "left  "+m.lab.algo[0])
	}
	if len(seen) != len(lab.Algorithms) || m.lab.algo[0] != "fixed-window" {
		t.Fatalf("a visits all seven and comes back: %v, now %s", seen, m.lab.algo[0])
	}
	m = appPress(m, "b")
	if m.lab.algo[1] != "sliding-counter" {
		t.Fatalf("b: right is %s", m.lab.algo[1])
	}
	m = appPress(m, "B", "A")
	if m.lab.algo != [2]string{"leaky-queue", "sliding-log"} {
		t.Fatalf("A/B go backwards: %v", m.lab.algo)
	}
	appWant(t, m.View(), "cross-boundary-spike (E1) *")
	m = appPress(m, "x")
	if m.lab.algo != [2]string{"sliding-log", "leaky-queue"} {
		t.Fatalf("x swaps: %v", m.lab.algo)
	}
	m = appPress(m, "i")
	if suggestedPath(chapters.README(5)) != "" {
		appWant(t, m.View(), "Suggested path (chapter 05 README):", "Spike first", "in the lab: s next scenario")
	}
}

func TestLabEditingRerunsAndValidates(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "L")
	if !m.lab.editing || m.lab.focus != lfL {
		t.Fatal("L starts editing the limit")
	}
	appWant(t, m.View(), "L [3 ]", "editing:")
	m = appPress(m, "backspace")
	f := m.View()
	appWant(t, f, "↑ L: a whole number >= 1")
	if m.lab.params.Limit != 3 || m.lab.res[0].Metrics.Allowed != 6 {
		t.Fatal("a bad field must keep the last good run")
	}
	m = appType(m, "0")
	appWant(t, m.View(), "↑ invalid limit 0: accepted")
	m = appPress(m, "backspace")
	m = appType(m, "6")
	if m.lab.params.Limit != 6 || m.lab.errs != [nLabFields]string{} {
		t.Fatalf("L=6 should apply: %+v %q", m.lab.params, m.lab.errs)
	}
	// L=6 on E1: each aligned window holds 4, so the fixed window allows all
	// 8, and 7 of them (820..1120) fall inside one W: still over the new L.
	if mt := m.lab.res[0].Metrics; mt.Allowed != 8 || mt.MaxInWindow != 7 || mt.Overshoot != 1 {
		t.Fatalf("E1 with L=6: %+v", mt)
	}
	m = appPress(m, "tab")
	if m.lab.focus != lfC {
		t.Fatalf("tab moves to C, focus %d", m.lab.focus)
	}
	m = appPress(m, "shift+tab", "shift+tab", "backspace", "backspace", "backspace", "backspace")
	m = appType(m, "x")
	appWant(t, m.View(), "↑ W: a whole number of ms > 0")
	m = appPress(m, "backspace")
	m = appType(m, "1000")
	m = appPress(m, "tab", "tab", "tab", "backspace")
	m = appType(m, "0")
	appWant(t, m.View(), "↑ invalid rate 0")
	m = appPress(m, "backspace")
	m = appType(m, "2")
	m = appPress(m, "enter")
	if m.lab.editing {
		t.Fatal("enter ends editing")
	}

	// Arrivals: out of order is refused in place; a good list becomes custom.
	m = appPress(m, "t")
	m = appType(m, ",5")
	appWant(t, m.View(), "↑ arrivals: 5 comes after 1850: arrivals must not go back in time")
	if len(m.lab.arrivals) != 8 {
		t.Fatal("a bad list must not replace the arrivals")
	}
	m = appPress(m, "backspace")
	m = appType(m, "1900")
	if len(m.lab.arrivals) != 9 || !m.lab.custom() {
		t.Fatalf("a good list re-runs as custom: %v", m.lab.arrivals)
	}
	appWant(t, m.View(), "scenario custom", "(1 of 9)")
	m = appType(m, ",x")
	appWant(t, m.View(), `↑ arrivals: "x" is not a whole number of ms`, "7 in W > L=6 (+2 overlapping)")
	for range 80 {
		m = appPress(m, "backspace")
	}
	appWant(t, m.View(), "↑ arrivals: type at least one arrival time")
	m = appPress(m, "esc")
	if m.lab.editing || len(m.lab.arrivals) == 0 {
		t.Fatal("esc ends editing and the last good run stays")
	}
}

func TestWorstCaseLoadsIntoLab(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L")
	nm, cmd := m.Update(appKey("w"))
	m = nm.(appModel)
	if m.scr != scrWorst || cmd == nil {
		t.Fatal("w opens the worst-case search and starts it")
	}
	appWant(t, m.View(), "searching")
	m = appSend(m, cmd())
	e, ok := m.worst.current()
	if !ok || e.err != "" || e.res.MaxInWindow != 6 {
		t.Fatalf("fixed-window worst case with L=3 is 2L = 6: %+v", e)
	}
	appWant(t, m.View(), "fixed-window: 6 requests upstream in", "6 in W > L=3")
	m = appPress(m, "enter")
	if m.scr != scrLab || !slices.Equal(m.lab.arrivals, e.res.Arrivals) || m.lab.res[0].Metrics.MaxInWindow != 6 {
		t.Fatalf("enter loads the sequence into the lab: %v", m.lab.arrivals)
	}
	appWant(t, m.View(), "scenario custom", "loaded the worst case found for fixed-window")

	// The search for the sliding log never beats L.
	m = appPress(m, "A", "A", "A", "A", "A")
	if m.lab.algo[0] != "sliding-log" {
		t.Fatalf("left is %s", m.lab.algo[0])
	}
	nm, cmd = m.Update(appKey("w"))
	m = appSend(nm.(appModel), cmd())
	if e, _ := m.worst.current(); e.res.MaxInWindow != 3 {
		t.Fatalf("sliding-log worst case is L = 3, got %d", e.res.MaxInWindow)
	}
	m = appPress(m, "esc")
	if m.scr != scrLab {
		t.Fatal("esc goes back to the lab")
	}
}

func TestPrefetchE13OnScreen(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "P")
	f := m.View()
	appWant(t, f, "4 nodes × 2 · limit 20 · batch 8",
		"allowed                  8         6", "round trips              8         4",
		"stranded                 0        14", "false rejects            0         2",
		"borrowed 8", "borrowed 4", "borrowed 0")
	m = appPress(m, "home")
	appWant(t, m.View(), "before request 1 of 8")
	m = appPress(m, "right")
	appWant(t, m.View(), "request 1 of 8 at node 1: holds none, borrows 8 in one round trip")
	m = appPress(m, "right", "right", "right")
	appWant(t, m.View(), "request 4 of 8 at node 4: holds none, asks, the centre is empty", "false reject")

	// Batch 1: no stranding, no false rejects, 8 round trips.
	m = appPress(m, "1", "end")
	appWant(t, m.View(), "stranded                 0         0", "round trips              8         8")
	m = appPress(m, "1", "b", "backspace")
	appWant(t, m.View(), "↑ batch: a whole number")
	m = appType(m, "0")
	appWant(t, m.View(), "↑ invalid batch 0")
	m = appPress(m, "backspace")
	m = appType(m, "4")
	if m.pf.cfg.Batch != 4 || m.pf.res.Prefetch.Allowed == 0 {
		t.Fatalf("batch 4 applies: %+v", m.pf.cfg)
	}
	m = appPress(m, "enter", "o")
	m = appType(m, "1,2,9")
	appWant(t, m.View(), "↑ invalid order 9")
	m = appPress(m, "backspace")
	m = appType(m, "2")
	if !slices.Equal(m.pf.cfg.Order, []int{1, 2, 2}) || len(m.pf.res.Steps) != 3 {
		t.Fatalf("order 1,2,2: %+v", m.pf.cfg.Order)
	}
	m = appPress(m, "enter", "space")
	if !m.pf.playing || m.pf.cursor != 0 {
		t.Fatal("space plays from the start")
	}
	m = appSend(m, pfTickMsg{id: m.pf.playID})
	if m.pf.cursor != 1 {
		t.Fatal("a tick steps the prefetch view")
	}
}

func TestHelpOverlayListsEveryKey(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "?")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	for _, k := range helpKeys {
		appWant(t, f, k.keys, k.what)
	}
	appWant(t, f, "● sent at once", "╰─○ queued, then sent", "✗ rejected", "└─┘ a W holding more than L")
	m = appPress(m, "x")
	if m.help || m.lab.algo[0] != "fixed-window" {
		t.Fatal("a key closes help and does nothing else")
	}
	m = appPress(m, "?")
	if _, cmd := m.Update(appKey("q")); !appIsQuit(cmd) {
		t.Fatal("q quits from help")
	}
}

// Random keys and sizes never panic and never break the layout.
func TestAppRandomKeysKeepLayout(t *testing.T) {
	keys := []string{"left", "right", "up", "down", "home", "end", "enter", "esc", "tab", "shift+tab",
		"backspace", "space", "?", "s", "S", "a", "A", "b", "B", "x", "e", "t", "W", "L", "C", "R", "N",
		"i", "w", "r", "P", "n", "p", "o", "1", "5", "6", "0", ",", "-", "9", ".", "j", "k", "g", "G",
		"+", "+", "D", "c"}
	sizes := [][2]int{{80, 24}, {120, 30}, {60, 20}, {80, 24}}
	rng := rand.New(rand.NewPCG(6, 2026))
	m := appNew(t, 80, 24)
	w, h := 80, 24
	for i := range 4000 {
		if rng.IntN(200) == 0 {
			sz := sizes[rng.IntN(len(sizes))]
			w, h = sz[0], sz[1]
			m = appSend(m, tea.WindowSizeMsg{Width: w, Height: h})
		}
		k := keys[rng.IntN(len(keys))]
		nm, cmd := m.Update(appKey(k))
		m = nm.(appModel)
		if _, ok := m.worstPending(cmd); ok && rng.IntN(4) == 0 {
			m = appSend(m, cmd()) // deliver some searches, leave others running
		}
		f := m.View()
		func() {
			defer func() {
				if t.Failed() {
					t.Fatalf("after %d keys (last %q)", i+1, k)
				}
			}()
			appCheckFrame(t, f, w, h)
		}()
	}
}

// worstPending reports whether cmd is a worst-case search (safe to run).
func (m appModel) worstPending(cmd tea.Cmd) (tea.Cmd, bool) {
	return cmd, cmd != nil && m.scr == scrWorst
}

// Golden frames of the lab at 80×24, colour off. Regenerate with
//
//	go test ./tui -run TestGoldenLab -update
//
// and read them: they must show the contract's numbers.
func TestGoldenLabE1(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "right", "right", "right", "right")
	f := m.View()
	appWant(t, f,
		"left  fixed-window     allowed 6  rejected 2  max/W 6  over 3",
		"right sliding-log      allowed 4  rejected 4  max/W 3  over 0",
		"● ● ●✗┊● ● ●", // fixed window: A A A R | A A A R, the boundary at 1000 visible
		"● ● ●✗ ✗ ✗ ✗", // sliding log:  A A A R R R R A
		"6 in W > L=3")
	appGolden(t, "lab_e1_80x24.golden", f)
}

func TestGoldenLabE6(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "s", "s", "s", "end")
	f := m.View()
	appWant(t, f,
		"left  token-bucket     allowed 3  rejected 1  max/W 3  over 0",
		"right leaky-queue      allowed 3 rejected 1 max/W 2 over 0 wait 980ms state 3",
		"○ @500", "○ @1000", "0.06")
	appGolden(t, "lab_e6_80x24.golden", f)

	// The C = 6 variant: the bucket lets all 4 through at once (overshoot 1),
	// the queue departs 0, 500, 1000, 1500.
	m = appPress(m, "C", "backspace")
	m = appType(m, "6")
	m = appPress(m, "enter")
	appWant(t, m.View(), "allowed 4  rejected 0  max/W 4  over 1", "max/W 2 over 0 wait 1470ms", "○ @1500")
}

func TestGoldenPrefetchE13(t *testing.T) {
	appGolden(t, "prefetch_e13_80x24.golden", appPress(appNew(t, 80, 24), "P").View())
}

func appGolden(t *testing.T, name, frame string) {
	t.Helper()
	appCheckFrame(t, frame, 80, 24)
	path := filepath.Join("testdata", name)
	if *appUpdateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(frame+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != frame+"\n" {
		t.Errorf("frame differs from %s (rerun with -update and review the diff):\n got:\n%s\nwant:\n%s", path, frame, want)
	}
}

// BenchmarkLabView200 renders the lab with 200 requests on both sides.
func BenchmarkLabView200(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m := newLabModel()
			rng := rand.New(rand.NewPCG(200, 1))
			arr := make([]int64, 200)
			t := int64(0)
			for i := range arr {
				t += int64(rng.IntN(60))
				arr[i] = t
			}
			p := lab.DefaultParams()
			p.Limit, p.Capacity = 10, 10
			m.loadArrivals(arr, p, "fixed-window")
			m.algo[1] = "leaky-queue"
			m.rerun()
			m.cursor = 100
			if m.runErr != [2]string{} {
				b.Fatal(m.runErr)
			}
			th := newTheme(lipglossColourRenderer())
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = labView(m, sz[0], sz[1], th)
			}
		})
	}
}

// lipglossColourRenderer renders true colour whatever the test's output is,
// so the benchmark pays for the escape sequences a real terminal gets.
// (0 is termenv.TrueColor; the constant avoids importing termenv directly.)
func lipglossColourRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(0)
	return r
}

// Painting with the pre-rendered escapes matches lipgloss's own rendering.
func TestThemePaintMatchesLipgloss(t *testing.T) {
	th := newTheme(lipglossColourRenderer())
	for id := stNone + 1; id < nStyles; id++ {
		for _, s := range []string{"x", "allowed 6  ", "● ●✗ ╰──○"} {
			if got, want := th.paint(id, s), th.s[id].Render(s); got != want {
				t.Errorf("style %d on %q: paint %q, lipgloss %q", id, s, got, want)
			}
		}
	}
	if !strings.Contains(th.paint(stRejected, "x"), "\x1b[") {
		t.Error("the colour renderer produced no escapes")
	}
}

func TestAppDrillCards(t *testing.T) {
	if len(interview.Drill) < 2 {
		t.Skip("chapter 07 has fewer than two drill questions")
	}
	m := appPress(appNew(t, 80, 24), "7", "enter")
	if m.scr != scrCards {
		t.Fatalf("enter in chapter 07 opens the drill cards: scr %d", m.scr)
	}
	q := interview.Drill[0]
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "card 1 of", uiCut(q.Q, 40), "press space")
	if strings.Contains(f, "Model answer") {
		t.Fatal("the answer is hidden until asked for")
	}
	m = appPress(m, "space")
	appWant(t, m.View(), "Model answer", uiCut(strings.Fields(q.A)[0], 10))
	m = appPress(m, "right")
	if m.cards.i != 1 || m.cards.reveal {
		t.Fatal("right moves to the next card, answer hidden")
	}
	m = appPress(m, "left", "left")
	if m.cards.i != len(interview.Drill)-1 {
		t.Fatal("left wraps to the last card")
	}
	m = appPress(m, "home", "c")
	if interview.Drill[m.cards.i].Chapter == q.Chapter && len(interview.DrillChapters()) > 1 {
		t.Fatal("c jumps to the next chapter's first card")
	}
	m = appPress(m, "esc")
	if m.scr != scrChapter || uiChapters[m.chapter].num != 7 {
		t.Fatal("esc goes back to chapter 07")
	}
}
