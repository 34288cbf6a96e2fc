//go:build !tuinew

package main

import (
	"fmt"
	"strings"
	"testing"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// Every word of every chapter README reaches the screen: the layout may
// rewrap, drop markdown marks and turn wide tables into blocks, but it must
// not lose text. Words are compared without markdown marks and table pipes.
func TestChapterTextNotLost(t *testing.T) {
	for _, w := range []int{78, 118} {
		for i, c := range uiChapters {
			var b strings.Builder
			for _, l := range chapterLines(i, w) {
				b.WriteString(l.plainText())
				b.WriteString(" ")
				if uiWidth(l.plainText()) > w {
					t.Errorf("chapter %d at %d: line wider than the text column: %q", c.num, w, l.plainText())
				}
			}
			screen := strings.Join(strings.Fields(b.String()), " ")
			got := map[string]int{}
			for _, f := range strings.Fields(screen) {
				got[f]++
			}
			d := parseReadme(c.readme)
			src := d.Summary
			for _, s := range d.Sections {
				src += "\n" + s.Body
			}
			want := map[string]int{}
			for _, ln := range strings.Split(src, "\n") {
				tl := strings.TrimSpace(ln)
				if strings.HasPrefix(tl, "<!--") || strings.HasPrefix(tl, "```") {
					continue
				}
				if strings.HasPrefix(tl, "|") && strings.Trim(tl, "|-: ") == "" {
					continue // table separator row
				}
				for _, f := range strings.Fields(cleanInline(strings.ReplaceAll(tl, "|", " "))) {
					if f == "-" || f == "*" {
						continue
					}
					want[f]++
				}
			}
			var lost []string
			for f, n := range want {
				if got[f] < n && !strings.Contains(screen, f) {
					lost = append(lost, fmt.Sprintf("%q", f))
				}
			}
			if len(lost) > 0 {
				t.Errorf("chapter %d at width %d lost words: %s", c.num, w, strings.Join(lost, " "))
			}
		}
	}
}

func plainLines(ls []line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.plainText()
	}
	return out
}

// Tables lose their markup; code wider than the screen is wrapped, never cut;
// a block indented four spaces is code, not a paragraph.
func TestMarkdownTablesAndCode(t *testing.T) {
	got := plainLines(markdownLines("| E13 | allowed |\n|---|---|\n| `central` | **8** |\n| prefetch | 6 |", 40))
	want := []string{"E13       allowed", "─────────────────", "central   8", "prefetch  6"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fitting table:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = plainLines(markdownLines("| algo | found | why |\n|---|---|---|\n| fixed | 6 | two aligned windows each admit L |", 30))
	want = []string{"algo: fixed", "  found: 6", "  why: two aligned windows", "    each admit L"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wide table:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = plainLines(markdownLines("Run:\n\n    go test ./chapters/06-distributed/ -run 'E9|E10'   # the worked examples\n    make bench\n\nAfter.", 40))
	want = []string{"Run:", "", "  # the worked examples", "  go test ./chapters/06-distributed/", "      -run 'E9|E10'", "  make bench", "", "After."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("indented code:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// trackText renders one side's three track rows at w columns.
func trackText(m labModel, side, w int) []string {
	ax := newTimeAxis(m, w-labGutter)
	return plainLines(trackRows(m, side, ax, arrivalCols(ax, m.arrivals, m.params.WindowMS)))
}

func customLab(t *testing.T, left, right string, p lab.Params, arr ...int64) labModel {
	t.Helper()
	m := newLabModel()
	m.algo = [2]string{left, right}
	m.loadArrivals(arr, p, left)
	if m.runErr[0] != "" || m.runErr[1] != "" {
		t.Fatalf("run: %v", m.runErr)
	}
	return m
}

// The window boundary stays visible when a request arrives exactly on it
// (E1: 960 | 1000), and the over-limit frame starts under the first request it
// counts even when that marker was nudged left (E4: 970 980 990 | 1000).
func TestLabTrackBoundaryAndFrameVisible(t *testing.T) {
	e1 := customLab(t, "fixed-window", "sliding-log", lab.DefaultParams(), 820, 880, 940, 960, 1000, 1060, 1120, 1850)
	rows := trackText(e1, 0, 80)
	if !strings.Contains(rows[0], "34┊5") || !strings.Contains(rows[1], "●✗┊●") {
		t.Errorf("E1: the boundary at 1000 is hidden:\n%s", strings.Join(rows, "\n"))
	}
	e4 := customLab(t, "sliding-counter", "sliding-log", lab.DefaultParams(), 970, 980, 990, 1500, 1510, 1520)
	rows = trackText(e4, 0, 80)
	if i, j := strings.IndexRune(rows[0], '1'), strings.IndexRune(rows[2], glyphFrameL); i < 0 || i != j {
		t.Errorf("E4: the frame starts at byte %d, request 1 at %d:\n%s", j, i, strings.Join(rows, "\n"))
	}
}

// Every departure of a queue is on the upstream row, even when a later
// request arrives in the same column (E1 through leaky-queue: 940 departs at
// 1820, 1850 arrives in that column).
func TestLabQueueDeparturesVisible(t *testing.T) {
	m := customLab(t, "leaky-queue", "sliding-log", lab.DefaultParams(), 820, 880, 940, 960, 1000, 1060, 1120, 1850)
	rows := trackText(m, 0, 80)
	if n := strings.Count(rows[1], string(glyphQueued)); n != 3 {
		t.Errorf("%d departures on the upstream row, want 3 (1320, 1820, 2320):\n%s", n, strings.Join(rows, "\n"))
	}
}

// At 80×24 a three-row hint leaves the panel eight rows; both reasons must
// still be whole (E4's last request: the counter's estimate and the log's
// "oldest leaves at").
func TestLabPanelKeepsBothReasons(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "s", "end")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "est 3.44", "3 x 0.48 + 2, not < L 3;", "fits at 1666.67", "log [970 980 990]", "oldest leaves at 1970")
	// A long state gives up its second line before any reason does.
	p := lab.DefaultParams()
	p.Limit = 40
	arr := make([]int64, 45)
	for i := range arr {
		arr[i] = int64(1000 + i)
	}
	lm := customLab(t, "sliding-log", "sliding-counter", p, arr...)
	lm.cursor = 44
	panel := plainLines(statePanel(lm, 8, 49))
	text := strings.Join(panel, "\n")
	if len(panel) > 8 || !strings.Contains(text, "why: 40 in") || !strings.Contains(text, "why: estimate") {
		t.Errorf("panel in 8 rows lost a reason:\n%s", text)
	}
}

// A value only the right side refuses is the field's error (the left side's
// check alone let it through and broke the right track); a message wider
// than the screen wraps instead of being cut; leaving the fields puts a
// refused value back to the one in use and says so.
func TestLabFieldErrorsBothSidesAndRevert(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "b") // fixed-window | sliding-counter
	if m.lab.algo[1] != "sliding-counter" {
		t.Fatalf("b: right side %q", m.lab.algo[1])
	}
	m = appPress(m, "W")
	m = appType(m, "000") // W = 1000000
	m = appPress(m, "tab", "tab", "tab", "tab", "backspace")
	m = appType(m, "10000")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	// (1000, one keystroke earlier, was valid and is the last good run.)
	if m.lab.params.SubWindows != 1000 || m.lab.errs[lfN] == "" || m.lab.runErr[1] != "" {
		t.Fatalf("N=10000 must be refused for the counter: N %d errs %q runErr %q", m.lab.params.SubWindows, m.lab.errs, m.lab.runErr)
	}
	appWant(t, f, "↑ sliding-counter: invalid subwindows 10000", "to 1000")
	m = appPress(m, "enter")
	f = m.View()
	if m.lab.editing || m.lab.inputs[lfN].Value() != "1000" || m.lab.errs != [nLabFields]string{} {
		t.Fatalf("leaving must put N back to 1000: %q %q", m.lab.inputs[lfN].Value(), m.lab.errs)
	}
	appWant(t, f, "W 1000000  L 3", "N 1000  ", "kept N 1000 (sliding-counter: invalid subwindows 10000")
	// Out-of-range integers say so.
	m = appPress(m, "W", "backspace")
	m = appType(m, "99999999999999999999")
	appWant(t, m.View(), "↑ W: too large; at most 1e12 ms")
}

// 200 arrivals 7 ms apart crowd several into a column: the columns where
// the token bucket let a request through still show it (5 allowed: 0, 7, 14
// and one per refill), however many rejections share the column.
func TestLabCrowdedColumnsShowWhatWentThrough(t *testing.T) {
	arr := make([]int64, 200)
	for i := range arr {
		arr[i] = int64(7 * i)
	}
	p := lab.DefaultParams()
	m := customLab(t, "token-bucket", "leaky-queue", p, arr...)
	if m.res[0].Metrics.Allowed != 5 {
		t.Fatalf("allowed %d", m.res[0].Metrics.Allowed)
	}
	rows := trackText(m, 0, 80)
	if n := strings.Count(rows[1], string(glyphSent)); n < 3 {
		t.Errorf("only %d ● on the upstream row:\n%s", n, strings.Join(rows, "\n"))
	}
}

// The prefetch fields behave as the lab's (one shared form): a refused value
// is marked, the last good run stays, leaving restores the value in use; the
// title shows the order in use, not the one being typed.
func TestPrefetchFieldsRevertAndTitle(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "P", "n", "backspace")
	m = appType(m, "0")
	appWant(t, m.View(), "↑ invalid nodes 0: accepted an integer from 1 to 100")
	if m.pf.cfg.Nodes != 4 {
		t.Fatalf("nodes %d: a refused value must not run", m.pf.cfg.Nodes)
	}
	m = appPress(m, "enter")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "nodes 4  per-node 2", "kept nodes 4 (invalid nodes 0: accepted an integer from 1 to 100)")
	m = appPress(m, "o")
	m = appType(m, "1,2,x")
	f = m.View()
	appWant(t, f, "· order 1,2  ", `↑ order: "x" is not a node number`)
	if strings.Contains(strings.Split(f, "\n")[0], "x") {
		t.Errorf("title shows the refused order:\n%s", f)
	}
}

// With more nodes than bar rows, the node of the request at the cursor is
// always among the bars shown.
func TestPrefetchBarsShowCursorNode(t *testing.T) {
	m := newPfModel()
	m.cfg = distributed.PrefetchConfig{Nodes: 40, PerNode: 2, Limit: 20, Batch: 8, RTTMS: 1}
	m.syncInputs()
	m.rerun()
	for k := 1; k <= len(m.res.Steps); k++ {
		m.cursor = k
		node := m.res.Steps[k-1].Node
		for _, rows := range []int{1, 2, 3, 4, 7} {
			bars := plainLines(pfBars(pfStateAt(m.res, 40, k), m.res, k, 80, rows))
			want := fmt.Sprintf("▸node %-3d", node)
			if len(bars) > rows || !strings.Contains(strings.Join(bars, "\n"), want) {
				t.Fatalf("step %d, %d rows: node %d not shown:\n%s", k, rows, node, strings.Join(bars, "\n"))
			}
		}
	}
}

// The README's suggested path fits the lab at 80×24 without losing its end.
func TestLabSuggestedPathWhole(t *testing.T) {
	path := labPath()
	if path == "" {
		t.Skip("chapter 05 has no suggested path")
	}
	f := appPress(appNew(t, 80, 24), "L", "i").View()
	appCheckFrame(t, f, 80, 24)
	words := strings.Fields(path)
	appWant(t, f, words[len(words)-2]+" "+words[len(words)-1])
}

// A side whose algorithm refuses the budget (the counter's sub-window cap)
// shows the engine's whole message in its track, not a line cut at the edge.
func TestLabSideErrorShownWhole(t *testing.T) {
	p := lab.DefaultParams()
	p.WindowMS, p.SubWindows = 1_000_000, 70_000
	m := customLab(t, "fixed-window", "sliding-log", p, 820, 880)
	m.cycleAlgo(1, 1) // sliding-log → sliding-counter
	if m.runErr[1] == "" {
		t.Fatal("the counter must refuse 70000 sub-windows")
	}
	f := labView(m, 80, 24, plainTheme())
	appCheckFrame(t, f, 80, 24)
	flat := strings.Join(strings.Fields(f), " ")
	if !strings.Contains(flat, strings.Join(strings.Fields(m.runErr[1]), " ")) {
		t.Errorf("error %q not whole on screen:\n%s", m.runErr[1], f)
	}
}

// Arrivals past the engine's range are the field's error, named.
func TestLabArrivalsOutOfRange(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "t")
	for range 60 {
		m = appPress(m, "backspace")
	}
	m = appType(m, "0,2000000000000")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	if m.lab.errs[lfArrivals] == "" || m.lab.arrivals[len(m.lab.arrivals)-1] != 200_000_000_000 {
		t.Fatalf("2e12 must be refused in the arrivals field: errs %q arrivals %v", m.lab.errs, m.lab.arrivals)
	}
	appWant(t, f, "↑ invalid arrivals 2000000000000: accepted integers from 0 to 1e12")
}

// A new scenario or a loaded worst case starts unzoomed, whole on screen.
func TestLabNewSequenceUnzoomed(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "L", "+", "+", "s")
	if m.lab.zoom != 0 {
		t.Fatalf("zoom %d after a scenario change", m.lab.zoom)
	}
	appWant(t, m.View(), "scenario prev-crowded-end (E4) ·")
}

// Near the right edge the cursor's label sits left of ▼, a space between.
func TestLabCursorLabelLeftOfMarker(t *testing.T) {
	f := appPress(appNew(t, 80, 24), "L", "end").View()
	appWant(t, f, "#8 at 1850 ms ▼")
}

// Nodes past 9 show as letters on the strip; the strip says so.
func TestPrefetchStripNamesLetterNodes(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "P", "n", "backspace")
	m = appType(m, "12")
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "node a=10 1 2 3 4 5 6 7 8 9 a b c", "prefetch  ● ● ●")
}
