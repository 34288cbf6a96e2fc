package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
)

// The lab screen (chapter 05): one budget, one arrival list, two algorithms
// and their runs, a cursor on one request, and the fields that edit them.

// Lab fields, in the order tab visits them.
const (
	lfW = iota
	lfL
	lfC
	lfR
	lfN
	lfArrivals
	nLabFields
)

// uiMaxArrivals bounds a typed arrival list so a paste cannot stall the UI.
const uiMaxArrivals = 2000

var labFields = []fieldSpec{
	{"W", "window", "the window in ms: the ruler's width, and the window the window algorithms count in", 20, ""},
	{"L", "limit", "requests allowed per window W (fixed window, sliding log and counter)", 20, ""},
	{"C", "capacity", "bucket capacity: the largest burst (token bucket, GCRA, leaky queue)", 20, ""},
	{"R", "rate", "refill rate in requests per second (token bucket, GCRA, leaky queue)", 20, ""},
	{"N", "subwindows", "the sliding counter's sub-windows per W (1 = the textbook counter: previous and current window)", 20, ""},
	{"arrivals", "arrivals", "arrival times in ms, comma-separated, in order (ms from 0 to 1e12)", 16 * uiMaxArrivals, ""},
}

type labModel struct {
	th   *theme
	w, h int
	help help.Model

	scen     int // index into lab.Scenarios; len(lab.Scenarios) = custom
	algo     [2]string
	params   lab.Params
	arrivals []int64

	res    [2]lab.Result
	runErr [2]string

	player     // the cursor on one request (0..len(arrivals)-1)
	zoom   int // 0: the whole run on screen; k: 1/2^k of that span, around the cursor

	form            // W, L, C, R, N, arrivals
	sideErr int     // the field whose message is a side's refusal, or -1
	note    string  // a one-off status line; the next key clears it
	ask     tea.Msg // the screen the last key opens; the root takes it
}

// labTickMsg advances play; id discards ticks of an earlier play.
type labTickMsg struct{ id int }

func labTick(id int) tea.Msg { return labTickMsg{id} }

func newLabModel(th *theme) labModel {
	m := labModel{th: th, help: newHelp(th), form: newForm(labFields), sideErr: -1}
	m.loadScenario(0)
	return m
}

// last is the cursor's last position: the last request.
func (m *labModel) last() int { return max(len(m.arrivals)-1, 0) }

func (m *labModel) custom() bool { return m.scen >= len(lab.Scenarios) }

// scenarioName is the label the title bar shows.
func (m labModel) scenarioName() string {
	if m.custom() {
		return "custom"
	}
	s := lab.Scenarios[m.scen]
	name := s.Name
	if s.Example != "" {
		name += " (" + s.Example + ")"
	}
	if scenarioParams(s) != m.params || m.algo != [2]string{s.Left, s.Right} {
		name += " *" // the learner changed the budget or a side
	}
	return name
}

func scenarioParams(s lab.Scenario) lab.Params {
	if s.Params == (lab.Params{}) {
		return lab.DefaultParams()
	}
	return s.Params
}

// loadScenario replaces the arrivals, budget and pair with a prepared one;
// i == len(lab.Scenarios) keeps everything and calls it custom.
func (m *labModel) loadScenario(i int) {
	n := len(lab.Scenarios) + 1
	i = ((i % n) + n) % n
	m.scen = i
	if !m.custom() {
		s := lab.Scenarios[i]
		m.params = scenarioParams(s)
		m.arrivals = slices.Clone(s.Arrivals)
		m.algo = [2]string{s.Left, s.Right}
	}
	m.cursor, m.zoom = 0, 0 // a new sequence starts whole on screen
	m.syncInputs()
	m.rerun()
}

// loadArrivals puts a custom sequence (e.g. a worst case) into the lab.
func (m *labModel) loadArrivals(arr []int64, p lab.Params, left string) {
	m.scen = len(lab.Scenarios)
	m.arrivals = slices.Clone(arr)
	m.params = p
	m.algo[0] = left
	m.cursor, m.zoom = 0, 0
	m.syncInputs()
	m.rerun()
}

// values are the fields' texts for the values in use.
func (m *labModel) fieldValues() []string {
	p := m.params
	return []string{
		strconv.FormatInt(p.WindowMS, 10), strconv.Itoa(p.Limit), strconv.Itoa(p.Capacity),
		strconv.FormatFloat(p.RatePerS, 'g', -1, 64), strconv.Itoa(p.SubWindows), joinInts(m.arrivals),
	}
}

func (m *labModel) syncInputs() { m.setValues(m.fieldValues()) }

// joinInts writes numbers as the fields take them: "820,880,940".
func joinInts[T int | int64](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(parts, ",")
}

// rerun replays the arrivals through both sides. A side that cannot run
// the budget shows the engine's message in its track.
func (m *labModel) rerun() {
	for s := 0; s < 2; s++ {
		r, err := uiRun(m.algo[s], m.params, m.arrivals)
		m.res[s], m.runErr[s] = r, ""
		if err != nil {
			m.res[s] = lab.Result{Algorithm: m.algo[s], Params: m.params}
			m.runErr[s] = err.Error()
		}
	}
	m.cursor = min(m.cursor, m.last())
	m.checkSides()
}

// uiRun is lab.Run with a recover: a bug in an engine must not take the
// terminal down with it.
func uiRun(algo string, p lab.Params, arrivals []int64) (r lab.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("engine failed on this input: %v", v)
		}
	}()
	return lab.Run(algo, p, arrivals, nil)
}

// cycleAlgo moves one side to the next (+1) or previous (-1) algorithm.
func (m *labModel) cycleAlgo(side, d int) {
	n := len(lab.Algorithms)
	i := slices.Index(lab.Algorithms, m.algo[side])
	m.algo[side] = lab.Algorithms[((i+d)%n+n)%n]
	m.rerun()
}

// labAccept is what the engine accepts for each field, in its own words:
// the message a value that does not even parse gets.
var labAccept = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	p := lab.DefaultParams()
	for _, bad := range []lab.Params{
		{WindowMS: 0, Limit: 1, Capacity: 1, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 0, Capacity: 1, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 1, Capacity: 0, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 1, Capacity: 1, RatePerS: 0, SubWindows: 1},
	} {
		if pe, ok := bad.Validate().(*core.ParamError); ok {
			out[pe.Param] = pe.Accept
		}
	}
	out["subwindows"] = "an integer from 1 to the window in ms"
	if _, err := lab.Run(lab.Algorithms[0], p, []int64{-1}, nil); err != nil {
		if pe, ok := err.(*core.ParamError); ok {
			out["arrivals"] = pe.Accept
		}
	}
	return out
})

// parseArrivals reads "820, 880 940" (commas and/or spaces) as ms; the
// engine checks their range and order.
func parseArrivals(s string) ([]int64, string, bool) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	if len(f) == 0 {
		return nil, `""`, false
	}
	if len(f) > uiMaxArrivals {
		return nil, fmt.Sprintf("(%d values, at most %d here)", len(f), uiMaxArrivals), false
	}
	out := make([]int64, len(f))
	for i, x := range f {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return nil, strconv.Quote(x), false
		}
		out[i] = v
	}
	return out, "", true
}

// parseFields reads every field; a field that does not parse gets its
// message. ok is false if any failed.
func (m *labModel) parseFields() (p lab.Params, arr []int64, ok bool) {
	p = m.params
	bad := func(f int, text string) {
		m.errs[f] = m.fieldError(f, strconv.Quote(text), labAccept()[labFields[f].param], "")
	}
	if v, err := strconv.ParseInt(m.value(lfW), 10, 64); err == nil {
		p.WindowMS = v
	} else {
		bad(lfW, m.value(lfW))
	}
	for _, x := range []struct {
		f   int
		dst *int
	}{{lfL, &p.Limit}, {lfC, &p.Capacity}, {lfN, &p.SubWindows}} {
		if v, err := strconv.Atoi(m.value(x.f)); err == nil {
			*x.dst = v
		} else {
			bad(x.f, m.value(x.f))
		}
	}
	if v, err := strconv.ParseFloat(m.value(lfR), 64); err == nil {
		p.RatePerS = v
	} else {
		bad(lfR, m.value(lfR))
	}
	arr, shown, aok := parseArrivals(m.inputs[lfArrivals].Value())
	if !aok {
		m.errs[lfArrivals] = m.fieldError(lfArrivals, shown, labAccept()["arrivals"], "")
	}
	return p, arr, m.firstErr() < 0
}

// applyInputs validates every field. A budget and arrivals the lab accepts
// are put in use and both sides re-run, even if one side's algorithm
// refuses them: that side shows why, and the field it names gets the
// message. So no field's fix waits for another's (two refused fields never
// lock each other). A value the lab itself refuses keeps the last good run
// on screen.
func (m *labModel) applyInputs() {
	m.errs, m.sideErr = [formMax]string{}, -1
	p, arr, ok := m.parseFields()
	if !ok {
		return
	}
	if err := p.Validate(); err != nil {
		m.paramError(err, lfW, "")
		return
	}
	// The arrivals' range and order, checked by the engine on a budget it
	// always accepts.
	if _, err := lab.Run("fixed-window", lab.DefaultParams(), arr, nil); err != nil {
		m.paramError(err, lfArrivals, "")
		return
	}
	if p.WindowMS != m.params.WindowMS {
		m.zoom = 0 // a new W: the old zoom no longer means anything
	}
	if !slices.Equal(arr, m.arrivals) {
		m.arrivals = arr
		m.scen = len(lab.Scenarios) // the learner's own sequence
	}
	m.params = p
	m.rerun()
}

// checkSides turns a side's refusal of the budget into the message of the
// field it names, naming the algorithm when only that side refuses.
func (m *labModel) checkSides() {
	if m.sideErr >= 0 {
		m.errs[m.sideErr] = ""
	}
	m.sideErr = -1
	for s := 0; s < 2; s++ {
		if m.runErr[s] == "" {
			continue
		}
		_, err := uiRun(m.algo[s], m.params, m.arrivals)
		by := m.algo[s]
		if m.runErr[1-s] == m.runErr[s] {
			by = ""
		}
		if f := m.paramError(err, lfArrivals, by); m.errs[f] != "" {
			m.sideErr = f
		}
		return
	}
}

func (m *labModel) startEdit(field int) {
	m.playing = false
	m.start(field)
}

// stopEdit leaves the fields with enter. A field the lab refused goes back
// to the value in use, and the note says so until the next key; a side's
// refusal of a value in use stays on its field.
func (m *labModel) stopEdit() {
	for i := 0; i < m.n; i++ {
		if m.errs[i] == "" || i == m.sideErr {
			continue
		}
		kept := m.spec[i].label + " " + m.fieldValues()[i]
		if i == lfArrivals {
			kept = fmt.Sprintf("the %d arrivals in use", len(m.arrivals))
		}
		m.note = "kept " + kept + " (" + m.errs[i] + ")"
		m.syncInputs()
		m.checkSides()
		return
	}
}

// Update handles the lab's messages.
func (m labModel) Update(msg tea.Msg) (labModel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case labTickMsg:
		return m, m.advance(msg.id, m.last(), labTick)
	case tea.KeyMsg:
		m.note = ""
		if m.editing {
			switch m.form.key(msg) {
			case formChanged:
				m.applyInputs()
			case formDone:
				m.stopEdit()
			case formCancelled:
				m.applyInputs()
			}
			return m, nil
		}
		if cmd, ok := m.stepKey(msg, m.last(), labTick); ok {
			return m, cmd
		}
		m.pause()
		k := msg.String()
		switch {
		case key.Matches(msg, lkeys.Scenario):
			m.loadScenario(m.scen + 1)
		case key.Matches(msg, lkeys.ScenarioBack):
			m.loadScenario(m.scen - 1)
		case key.Matches(msg, lkeys.LeftAlgo):
			m.cycleAlgo(0, 1)
		case key.Matches(msg, lkeys.LeftAlgoBack):
			m.cycleAlgo(0, -1)
		case key.Matches(msg, lkeys.RightAlgo):
			m.cycleAlgo(1, 1)
		case key.Matches(msg, lkeys.RightAlgoBack):
			m.cycleAlgo(1, -1)
		case key.Matches(msg, lkeys.Swap):
			m.algo[0], m.algo[1] = m.algo[1], m.algo[0]
			m.rerun()
		case key.Matches(msg, lkeys.Edit):
			m.startEdit(lfW)
		case key.Matches(msg, lkeys.Fields):
			m.startEdit(strings.Index("WLCRN", k))
		case key.Matches(msg, lkeys.Arrivals):
			m.startEdit(lfArrivals)
		case key.Matches(msg, lkeys.ZoomIn):
			m.zoom = min(m.zoom+1, 40)
		case key.Matches(msg, lkeys.ZoomOut):
			m.zoom = max(m.zoom-1, 0)
		case key.Matches(msg, lkeys.ZoomReset):
			m.zoom = 0
		case key.Matches(msg, lkeys.Worst):
			m.ask = openWorstMsg{algo: m.algo[0], params: m.params}
		case key.Matches(msg, lkeys.Path):
			m.ask = openChapterMsg{idx: -1, num: 5, anchor: "The suggested path"}
		}
	}
	return m, nil
}

// wantsEsc reports whether esc is the lab's (it cancels a field edit).
func (m labModel) wantsEsc() bool { return m.editing }

// keyMap is what the help shows for the lab now.
func (m labModel) keyMap() helpMap {
	if m.editing {
		return fkeys
	}
	return lkeys
}
